"""Issue 35, item 8: an answer listed twice weighs twice in MC2 (0.749 → 0.654), silently.

Where the benchmark's reference counts every listing (lm-eval's truthfulqa_mc2 for
TruthfulQA-Multi, the authors' code for VeritasQA), the scores stay the reference's and
the run warns once per language with the number of such questions. A user's own data
(``--data-file``, ``benchmark.toml``) has no published score to match: a repeat there is
refused, naming the row."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.questions import Columns, question_sample
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.records import LoglikelihoodResult
from tests.cli.test_errors import assert_one_line_error, run_model


def _row(qid: int, incorrect: list[str]) -> dict:
    correct = ["No, it is not.", "It is not."]
    return {"id": qid, "question": f"Is question {qid} true?", "best_answer": correct[0],
            "mc1_targets": {"choices": [correct[0], *incorrect], "labels": [1] + [0] * len(incorrect)},
            "mc2_targets": {"choices": [*correct, *incorrect], "labels": [1, 1] + [0] * len(incorrect)},
            "correct_answers": correct, "incorrect_answers": incorrect}  # fmt: skip


def write_truthfulqa(root: Path) -> Path:
    """en: question 2 lists one wrong answer three times; es: every answer once."""
    for lang, repeats in (("en", 3), ("es", 1)):
        folder = root / "truthfulqa-multi" / lang
        folder.mkdir(parents=True)
        rows = [_row(1, ["Yes.", "Always."]), _row(2, ["Yes, it is."] * repeats + ["Maybe."]), _row(3, ["Yes."])]
        (folder / "validation.json").write_text(json.dumps(rows))
        (folder / "train.json").write_text("[]")
    return root


def lm_eval_mc2(lls: list[float], labels: list[int]) -> float:
    """lm-eval's truthfulqa_mc2 over the choices as listed: p_true / (p_true + p_false)."""
    split = labels.index(0)
    p_true, p_false = [math.exp(x) for x in lls[:split]], [math.exp(x) for x in lls[split:]]
    return sum(p_true) / (sum(p_true) + sum(p_false))


def test_truthfulqa_multi_keeps_lm_evals_count_and_warns_once_per_language(tiny_model, tmp_path):
    data = write_truthfulqa(tmp_path / "data")
    result = run_model(tiny_model, tmp_path / "out", "--task", "truthfulqa_multi", "--lang", "en,es", "--mode", "mc",
                       "--fewshot", "0", "--data-dir", data)  # fmt: skip
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "list an answer more than once" in line]
    assert warnings == [
        "mlbench: warning: truthfulqa_multi en: 1 of 3 questions list an answer more than once (repeated, or both"
        " correct and incorrect); each listing counts in MC2, as in lm-eval's truthfulqa_mc2"
    ]
    lines = (tmp_path / "out" / tiny_model.name / "truthfulqa_multi" / "samples_en.jsonl").read_text().splitlines()
    repeated = next(json.loads(line) for line in lines if json.loads(line)["id"] == "2")
    lls = repeated["outputs"]["mc2_loglikelihoods"]
    assert len(lls) == 6  # two correct, the wrong answer three times, and "Maybe."
    assert repeated["metrics"]["mc2"] == pytest.approx(lm_eval_mc2(lls, repeated["outputs"]["mc2_labels"]))


def test_no_warning_where_no_mc2_is_scored(tmp_path):
    task = get_task("truthfulqa_multi")
    samples = task.load("en", TaskOptions(DataSource("local", write_truthfulqa(tmp_path)))).samples
    assert len(task.data_warnings("en", samples, ("mc",))) == 1
    assert task.data_warnings("en", samples, ("gen",)) == []


def test_veritasqa_warns_for_answers_that_repeat_once_closed_and_counts_them_as_its_authors(tmp_path):
    header = "id,Question,Best Answer,Correct Answers,Incorrect Answers\n"
    rows = "veritas_001,Why?,No,No; Not at all,Yes; Yes.\nveritas_002,How?,So,So,Not so\n"
    (tmp_path / "veritasqa_en.csv").write_text(header + rows)
    task = get_task("veritasqa")
    samples = task.load("en", TaskOptions(DataSource("local", tmp_path))).samples
    [line] = task.data_warnings("en", samples, ("mc", "gen"))
    assert line.startswith("veritasqa en: 1 of 2 questions list an answer more than once")
    assert line.endswith("each listing counts in MC2 and MC3, as in the authors' code")
    # "Yes" and "Yes." are one option once closed, scored once, and counted twice in MC2.
    options = task._options(samples[0])
    assert options == ["No.", "Not at all.", "Yes."]
    scored, metrics = task.score_mc(samples[0], [LoglikelihoodResult(x, 1) for x in (-1.0, -2.0, -1.5)])
    assert scored["false_loglikelihoods"] == [-1.5, -1.5]
    true_mass, false_mass = math.exp(-1.0) + math.exp(-2.0), 2 * math.exp(-1.5)
    assert metrics["mc2"] == pytest.approx(true_mass / (true_mass + false_mass))


def test_a_data_file_with_a_repeated_wrong_answer_is_refused(tiny_model, tmp_path):
    row = {"id": "q1", "lang": "en", "question": "Is it?", "best_answer": "No.", "correct_answers": ["No."],
           "incorrect_answers": "Yes.; Maybe.; Yes."}  # fmt: skip
    (tmp_path / "q.jsonl").write_text(json.dumps(row) + "\n")
    result = run_model(tiny_model, tmp_path / "out", "--task", "truthfulqa_multi", "--mode", "mc", "--fewshot", "0",
                       "--data-file", tmp_path / "q.jsonl")  # fmt: skip
    assert_one_line_error(result, "q.jsonl:1: 'Yes.' is listed twice among the incorrect answers")


def test_a_declared_benchmark_row_with_a_repeated_answer_is_refused():
    row = {"id": "1", "question": "Q?", "choices": ["A", "B", "A"], "labels": [1, 0, 1]}
    with pytest.raises(MlbenchError, match="en.jsonl:1: 'A' is listed twice among the correct answers"):
        question_sample(row, "en", Columns(), "en.jsonl:1")
