"""`mlbench import lm-eval` of the declared benchmarks whose prompts are their authors' task
files: lm-eval's task names (nortruthfulqa_mc_nob_p0, ogx_truthfulqax_mc1_de, ...) map to
mlbench's task, language and template; NorEval's rows are found by their place (its
documents carry no id); a run of every template becomes one run under all of them, and of
one template a run under it. The logs are written here in lm-eval's layout, each prompt
built by hand from the fixture's task files (template_fixture.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from tests.benchmarks.declared.template_fixture import NOR_ROWS, TQAX_ROWS, write_template_copy
from tests.engine.lm_eval_import.lm_eval_layout import MODEL, write_run
from tests.upstream_pins import pin_fixture_copies

runner = CliRunner()
TEMPLATES = ("p0", "p1", "p2", "p3", "p4")


@pytest.fixture
def copy(tmp_path, monkeypatch) -> Path:
    root = write_template_copy(tmp_path / "copy")
    pin_fixture_copies(monkeypatch, root)
    return root


def _nor_prompt(template: str, question: str, choices: list[str]) -> tuple[str, str]:
    """(context, option delimiter) of the fixture's NorTruthfulQA templates, by hand."""
    listed = {"p1": "".join(f"\n* {c}" for c in choices), "p3": "".join(f"\n- {c}" for c in choices)}
    return {
        "p0": (f"Spm: {question}\n\nSv:", " "),
        "p1": (f"Spm: {question}\nValg:{listed['p1']}\nSv:", " "),
        "p2": (f"Velg rett svar. {question}", "\n"),
        "p3": (question + listed["p3"], "\n"),
        "p4": (question, " "),
    }[template]


def _mc_line(position: int, doc: dict, context: str, continuations: list[str], lls: list[float]) -> dict:
    return {
        "doc_id": position,
        "doc": doc,
        "target": 0,
        "arguments": [[context, continuation] for continuation in continuations],
        "resps": [[[str(ll), "False"]] for ll in lls],
        "filtered_resps": [[str(ll), "False"] for ll in lls],
        "acc": 0.0,
    }


def _nor_logs(folder: Path, templates: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """NorEval's MC logs of nb under ``templates``; returns each template's row → MC1."""
    lines, expected = {}, {}
    for template in templates:
        rows, expected[template] = [], {}
        for position, (question, choices) in enumerate(NOR_ROWS["nb"]):
            doc = {"question": question, "mc1_targets": {"choices": choices, "labels": [1] + [0] * (len(choices) - 1)}}
            context, delimiter = _nor_prompt(template, question, choices)
            # The correct option wins under p0 and p1 only, on the odd rows.
            lls = [-1.0 - i for i in range(len(choices))]
            if template not in ("p0", "p1") or position % 2 == 0:
                lls = lls[::-1]
            rows.append(_mc_line(position, doc, context, [delimiter + c for c in choices], lls))
            expected[template][f"nb-{position:04d}"] = float(lls[0] >= max(lls))
        lines[f"nortruthfulqa_mc_nob_{template}"] = rows
    write_run(folder, lines, fewshot=0)
    return expected


def _import(logs: Path, out: Path, copy: Path):
    return runner.invoke(app, ["import", "lm-eval", str(logs), "--output", str(out), "--data-dir", str(copy)])


def _samples(out: Path, task: str, lang: str) -> dict[str, dict]:
    path = out / MODEL.replace("/", "__") / task / f"samples_{lang}.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def test_every_template_logged_becomes_one_run_under_all_of_them(tmp_path, copy):
    expected = _nor_logs(tmp_path / "logs", TEMPLATES)
    result = _import(tmp_path / "logs", tmp_path / "out", copy)
    assert result.exit_code == 0, result.output
    samples = _samples(tmp_path / "out", "nortruthfulqa", "nb")
    assert len(samples) == len(TEMPLATES) * len(NOR_ROWS["nb"])
    for template, by_row in expected.items():
        for question, mc1 in by_row.items():
            record = samples[f"{question}@{template}"]
            assert record["metrics"]["mc1"] == mc1 and record["labels"]["template"] == template
    run = json.loads((tmp_path / "out" / MODEL.replace("/", "__") / "nortruthfulqa" / "results.json").read_text())
    assert run["config"]["task_settings"]["prompt"] == list(TEMPLATES)
    block = run["results"]["nb"]
    assert block["n-questions"] == len(NOR_ROWS["nb"]) and set(block["templates"]) == set(TEMPLATES)


def test_one_template_logged_becomes_a_run_under_it(tmp_path, copy):
    expected = _nor_logs(tmp_path / "logs", ("p2",))
    result = _import(tmp_path / "logs", tmp_path / "out", copy)
    assert result.exit_code == 0, result.output
    samples = _samples(tmp_path / "out", "nortruthfulqa", "nb")
    assert {i: r["metrics"]["mc1"] for i, r in samples.items()} == expected["p2"]


def test_some_templates_logged_import_the_first_and_name_the_rest(tmp_path, copy):
    _nor_logs(tmp_path / "logs", ("p1", "p3"))
    result = _import(tmp_path / "logs", tmp_path / "out", copy)
    assert result.exit_code == 0, result.output
    assert "template p3 left out" in result.output and "imported p1" in result.output
    assert all(i.count("@") == 0 for i in _samples(tmp_path / "out", "nortruthfulqa", "nb"))


def test_truthfulqax_mc1_and_mc2_logs_join_and_mc2_is_the_authors(tmp_path, copy):
    # MC2 labels out of order in the data (a true option last): the authors split at the
    # first 0, so "Orange" counts as false although labelled true.
    question, true, false = TQAX_ROWS[1]
    rows = [json.loads(line) for line in (copy / "truthfulqax" / "truthfulqa_mc_DE_validation.jsonl").open()]
    rows[1]["mc2_targets"] = {"choices": ["Weiß.", "Gelb.", "Orange"], "labels": [1, 0, 1]}
    (copy / "truthfulqax" / "truthfulqa_mc_DE_validation.jsonl").write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    targets = {"choices": [true[0], *false], "labels": [1, 0, 0]}
    doc = {"id": 1, "question": f"{question} (de)", "mc1_targets": targets, "mc2_targets": rows[1]["mc2_targets"]}
    context = f"F: Frage eins?\nA: Antwort eins.\n\nF: Frage zwei?\nA: Antwort zwei.\n\nF: {doc['question']}\nA:"
    ll = {"Weiß.": -2.0, "Gelb.": -1.0, "Orange": -0.5}
    mc1, mc2 = doc["mc1_targets"]["choices"], doc["mc2_targets"]["choices"]
    write_run(
        tmp_path / "logs",
        {
            "ogx_truthfulqax_mc1_de": [_mc_line(1, doc, context, [" " + c for c in mc1], [ll[c] for c in mc1])],
            "ogx_truthfulqax_mc2_de": [_mc_line(1, doc, context, [" " + c for c in mc2], [ll[c] for c in mc2])],
        },
        fewshot=0,
    )
    result = _import(tmp_path / "logs", tmp_path / "out", copy)
    assert result.exit_code == 0, result.output
    metrics = _samples(tmp_path / "out", "truthfulqax", "de")["1"]["metrics"]
    split = doc["mc2_targets"]["labels"].index(0)  # the authors' process_results_mc2
    p = [math.exp(ll[c]) for c in mc2]
    labelled = sum(v for v, label in zip(p, doc["mc2_targets"]["labels"]) if label) / sum(p)
    assert metrics["mc1"] == 0.0 and metrics["mc2"] == pytest.approx(sum(p[:split]) / sum(p), abs=1e-12)
    assert abs(metrics["mc2"] - labelled) > 0.1  # not the mass of the options labelled true


def test_truthfulqax_gen_logs_scored_with_bleu_and_rouge_a_changed_document_left_out(tmp_path, copy):
    lines = []
    for number, (question, true, false) in enumerate(TQAX_ROWS):
        closed = [a if a.endswith(".") else a + "." for a in true]
        doc = {"id": number, "question": f"{question} (de)", "best_answer": true[0] + " (best)",
               "correct_answers": [*closed, "I have no comment."],
               "incorrect_answers": [a if a.endswith(".") else a + "." for a in false]}  # fmt: skip
        if number == 1:
            doc["incorrect_answers"] = ["Blau."]  # not mlbench's copy: left out
        context = f"F: Frage eins?\nA: Antwort eins.\n\nF: Frage zwei?\nA: Antwort zwei.\n\nF: {doc['question']}\nA:"
        completion = " " + true[0]
        lines.append({"doc_id": number, "doc": doc, "target": " ",
                      "arguments": [[context, {"until": ["\n\n"], "do_sample": False}]],
                      "resps": [[completion]], "filtered_resps": [completion]})  # fmt: skip
    write_run(tmp_path / "logs", {"ogx_truthfulqax_gen_de": lines}, fewshot=0)
    result = _import(tmp_path / "logs", tmp_path / "out", copy)
    assert result.exit_code == 0, result.output
    assert "1 logged documents differ from mlbench's copy (the incorrect answers differ): 1" in result.output
    [record] = _samples(tmp_path / "out", "truthfulqax_gen", "de").values()
    assert record["metrics"]["bleu_max"] == pytest.approx(100.0) and record["metrics"]["rouge1_max"] == 100.0
