import json

import pytest

from mlbench.data.jsonl import load_jsonl
from mlbench.errors import MlbenchError


def write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


ROW = {
    "id": "q1",
    "lang": "en",
    "question": "Are bats blind?",
    "best_answer": "No.",
    "correct_answers": ["No.", "Bats can see."],
    "incorrect_answers": "Yes.; Bats are blind.",
}


def test_reads_lists_and_semicolon_strings(tmp_path):
    data = load_jsonl(
        write(tmp_path / "q.jsonl", [ROW, {**ROW, "id": "q1", "lang": "eu"}, {**ROW, "id": "p1", "split": "train"}])
    )
    assert sorted(data.samples) == ["en", "eu"]
    sample = data.samples["en"][0]
    assert sample.correct_answers == ("No.", "Bats can see.")
    assert sample.incorrect_answers == ("Yes.", "Bats are blind.")
    assert data.primers["en"] == [("Are bats blind?", "No.")]


def test_bad_line_is_named(tmp_path):
    path = write(tmp_path / "q.jsonl", [ROW, "{not json"])
    with pytest.raises(MlbenchError, match=r"q.jsonl:2: invalid JSON"):
        load_jsonl(path)


def test_missing_field_is_named(tmp_path):
    row = {k: v for k, v in ROW.items() if k != "best_answer"}
    with pytest.raises(MlbenchError, match=r"q.jsonl:1: missing field\(s\) best_answer"):
        load_jsonl(write(tmp_path / "q.jsonl", [row]))
