"""XLingHealth's correctness judge under the authors' protocol: their prompt (from the fixture
copy of their code) and their way of finding the label in the judge's reply."""

from __future__ import annotations

import json

import pytest
from judges.scripted import ScriptedBackend
from typer.testing import CliRunner

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.xlinghealth.authors_judge import LABELS, authors_label
from mlbench.cli.main import app
from mlbench.engine.judging import JudgeConfig, judge_run
from mlbench.judges.parsing import UNPARSED
from mlbench.judges.spec import load_spec

OPTIONS = ("case one", "case two", "case three", "case four")


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Reasoning. More reasoning. case three", LABELS[2]),
        ("Answer 2 is close.\nSo: case one.", LABELS[0]),
        # Only the last three pieces between full stops count: an option named early is not read.
        ("case two. a. b. c. d", UNPARSED),
        # Both named in the tail: the first in the authors' order wins.
        ("x. case four and case two", LABELS[1]),
        ("", UNPARSED),
        ("no option here", UNPARSED),
    ],
)
def test_the_label_is_read_as_the_authors_script_reads_it(reply, label):
    assert authors_label(reply, OPTIONS) == label


def test_a_run_is_judged_with_the_authors_prompt_and_their_reading(tiny_model, fixture_datasets, tmp_path):
    result = CliRunner().invoke(app, [str(a) for a in (
        "run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "correctness", "--lang", "es",
        "--limit", "2", "--max-new-tokens", "4", "--data-dir", fixture_datasets, "--output", tmp_path, "--no-cache",
    )])  # fmt: skip
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / tiny_model.name / "xlinghealth"
    replies = iter(["Why. Because. FX-case contradictory", "nothing to read"])
    backend = ScriptedBackend(text=lambda prompt: next(replies))
    config = JudgeConfig(run_dir, ModelOptions("scripted"), kinds=("correctness",), scoring="generate", chat=True)
    judge_run(config, backend_factory=lambda: backend)
    sent = [r.prompt for r in backend.generation_requests]
    assert len(sent) == 2 and all(p.messages[0].content == "FX-judge system message." for p in sent)
    assert all(p.messages[1].content.startswith("FX-judge (Spanish)\nQ: ") for p in sent)
    assert all(r.max_new_tokens == 1000 and r.temperature == 0 for r in backend.generation_requests)
    lines = [json.loads(line) for line in (run_dir / "samples_es.jsonl").read_text().splitlines()]
    assert sorted(line["judges"]["correctness"]["label"] for line in lines) == sorted(["contradictory", UNPARSED])
    settings = json.loads((run_dir / "results.json").read_text())["config"]["judges"]["correctness"]
    assert settings["prompt_sha256"] != load_spec("correctness").sha256  # never mixed with mlbench's judge


def test_a_run_judged_elsewhere_finds_the_authors_files_in_the_cache(tmp_path):
    from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
    from mlbench.data.source import DataSource

    assert UPSTREAM.run_source({"data_source": f"local:{tmp_path}/gone"}) == DataSource("hub")
    assert UPSTREAM.run_source({"data_source": "hub:claws-lab/XLingEval"}) == DataSource("hub")
