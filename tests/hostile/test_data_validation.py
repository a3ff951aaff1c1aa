"""Issue 35, item 7: one validation for every way questions come in. A ``--data-file`` with
two questions under one id was accepted (the second row stood in for both, and the mean
MC2 was wrong), and so was an answer listed as both correct and incorrect; the declarative
benchmark already refused both. The built-in loaders refuse a repeated id too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.benchmarks.veritasqa.loader import load_veritasqa
from mlbench.data.jsonl import load_jsonl
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from tests.cli.test_errors import assert_one_line_error, run_model

ROW = {"id": "q1", "lang": "en", "question": "Are bats blind?", "best_answer": "No.",
       "correct_answers": ["No.", "Bats can see."], "incorrect_answers": ["Yes.", "Bats are blind."]}  # fmt: skip


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_data_file_with_a_repeated_id_is_refused_naming_both_rows(tiny_model, tmp_path):
    rows = [ROW, {**ROW, "id": "q2", "question": "Do bats see?"}, {**ROW, "question": "Can bats hear?"}]
    data = write_rows(tmp_path / "q.jsonl", rows)
    result = run_model(tiny_model, tmp_path / "out", "--task", "truthfulqa_multi", "--mode", "mc", "--fewshot", "0",
                       "--data-file", data)  # fmt: skip
    assert_one_line_error(result, "q.jsonl:3: id 'q1' repeats the one at", "q.jsonl:1")
    assert not (tmp_path / "out" / tiny_model.name).exists()


def test_the_same_id_in_two_languages_is_one_question_not_a_repeat(tmp_path):
    data = load_jsonl(write_rows(tmp_path / "q.jsonl", [ROW, {**ROW, "lang": "eu"}]))
    assert [s.id for s in data.samples["en"]] == [s.id for s in data.samples["eu"]] == ["q1"]


def test_a_data_file_answer_both_correct_and_incorrect_is_refused(tiny_model, tmp_path):
    data = write_rows(tmp_path / "q.jsonl", [{**ROW, "incorrect_answers": ["Yes.", "Bats can see."]}])
    result = run_model(tiny_model, tmp_path / "out", "--task", "veritasqa", "--mode", "mc", "--data-file", data)
    assert_one_line_error(result, "q.jsonl:1: 'Bats can see.' is both a correct and an incorrect answer")


def test_a_data_file_best_answer_may_be_outside_the_correct_ones_but_not_incorrect(tmp_path):
    # TruthfulQA-Multi's release rule (as_listed) stays: a best answer outside the correct
    # list is MC1's target only. Listed as incorrect, it would contradict itself.
    outside = load_jsonl(write_rows(tmp_path / "a.jsonl", [{**ROW, "best_answer": "Not at all."}])).samples["en"][0]
    assert outside.best_answer == "Not at all." and outside.correct_answers == ("No.", "Bats can see.")
    with pytest.raises(MlbenchError, match="'Yes.' is both the best answer and an incorrect answer"):
        load_jsonl(write_rows(tmp_path / "b.jsonl", [{**ROW, "best_answer": "Yes."}]))


def _truthfulqa_row(qid: int) -> dict:
    choices = {"choices": ["No.", "Yes."], "labels": [1, 0]}
    return {"id": qid, "question": f"Question {qid}?", "mc1_targets": choices, "mc2_targets": choices,
            "best_answer": "No.", "correct_answers": ["No."], "incorrect_answers": ["Yes."]}  # fmt: skip


def test_truthfulqa_multi_refuses_a_repeated_id_in_one_language(tmp_path):
    folder = tmp_path / "truthfulqa-multi" / "en"
    folder.mkdir(parents=True)
    (folder / "train.json").write_text("[]")
    (folder / "validation.json").write_text(json.dumps([_truthfulqa_row(1), _truthfulqa_row(2), _truthfulqa_row(1)]))
    with pytest.raises(MlbenchError, match=r"validation row 3: id '1' repeats the one at .*validation row 1"):
        load_truthfulqa_multi("en", DataSource("local", tmp_path))


def test_veritasqa_refuses_a_repeated_id_in_one_language(tmp_path):
    header = "id,Question,Best Answer,Correct Answers,Incorrect Answers\n"
    rows = "".join(f"{qid},Why {n}?,A,A; B,C\n" for n, qid in enumerate(["veritas_001", "veritas_002", "veritas_001"]))
    (tmp_path / "veritasqa_en.csv").write_text(header + rows)
    with pytest.raises(MlbenchError, match=r"veritasqa_en.csv:4: id 'veritas_001' repeats the one at .*csv:2"):
        load_veritasqa("en", DataSource("local", tmp_path))
