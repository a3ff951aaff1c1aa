"""Every MC sample carries its options as scored (``outputs.options``): text, log-likelihood
and whether the data marks it correct. Read by `mlbench explore`; no metric reads it."""

from __future__ import annotations

import json

from judges.scripted import ScriptedBackend

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, run


def _run(tmp_path, task, source):
    config = RunConfig(
        model=ModelOptions("scripted"), tasks=(task,), langs=("en",), mode="mc",
        task_options=TaskOptions(source), limit=3, output=tmp_path,
    )  # fmt: skip
    backend = ScriptedBackend(lambda prompt, option: -float(len(option)))
    run(config, backend_factory=lambda: backend)
    path = tmp_path / "scripted" / task / "samples_en.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_truthfulqa_options_are_the_mc2_targets_with_their_labels(tmp_path):
    for line in _run(tmp_path, "truthfulqa_multi", DataSource("sample")):
        outputs = line["outputs"]
        options = outputs["options"]
        # MC1's options are among MC2's: each text once, in the order first asked.
        assert len({o["text"] for o in options}) == len(options) == len(outputs["mc2_labels"])
        assert sorted(o["logprob"] for o in options) == sorted(outputs["mc2_loglikelihoods"])
        by_logprob = dict(zip(outputs["mc2_loglikelihoods"], outputs["mc2_labels"]))
        assert all(o["correct"] is bool(by_logprob[o["logprob"]]) for o in options)
        assert all(o["logprob"] == -float(len(" " + o["text"])) for o in options)


def test_veritasqa_marks_its_closed_options(tmp_path):
    rows = [{"id": f"q{i}", "lang": "en", "question": f"Q{i}?", "best_answer": "Yes",
             "correct_answers": ["Yes", "It is"], "incorrect_answers": ["No", "Never"]} for i in range(3)]  # fmt: skip
    data = tmp_path / "q.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for line in _run(tmp_path / "out", "veritasqa", DataSource("jsonl", data)):
        marks = {o["text"]: o["correct"] for o in line["outputs"]["options"]}
        assert marks == {"Yes.": True, "It is.": True, "No.": False, "Never.": False}
