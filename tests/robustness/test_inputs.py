"""Issue 20: hostile input files, each ending in one `mlbench: error:` line naming the file
and the problem (exit 2, no traceback), never in a wrong result or a dropped sample."""

from __future__ import annotations

import codecs
import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mlbench.benchmarks.calmqa.loader import load_calmqa, normalize_row
from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.benchmarks.veritasqa import loader as veritasqa
from mlbench.benchmarks.veritasqa.loader import load_veritasqa
from mlbench.cli.main import app
from mlbench.data.jsonl import load_jsonl
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.results.labels import read_label_table
from mlbench.results.surface_file import read_answers
from tests.fixture_data import write_fixture_datasets

runner = CliRunner()
LATIN1 = "Pregunta: ¿Qué es?".encode("latin-1")  # 0xbf at offset 10 is no UTF-8 start byte
LATIN1_OFFSET = LATIN1.index(b"\xbf")


def one_line(error: pytest.ExceptionInfo[MlbenchError], *fragments: str) -> None:
    message = str(error.value)
    assert "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message


def cli_error(args: list[Any], *fragments: str) -> None:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("mlbench: error:"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def with_latin1_line(path: Path) -> Path:
    """``path`` with a latin-1 line appended: valid UTF-8 up to there, then byte 0xbf."""
    raw = path.read_bytes()
    path.write_bytes(raw + LATIN1 + b"\n")
    return path


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_fixture_datasets(tmp_path / "data")


# --- 6. surface: language codes ----------------------------------------------------------


@pytest.mark.parametrize("lang", ["../xx", 5, "zz", "xyz", None, ["en"]])
def test_surface_rejects_a_language_that_is_no_known_code(tmp_path: Path, lang: Any) -> None:
    path = jsonl(
        tmp_path / "answers.jsonl", [{"answer": "Hello there.", "lang": "en"}, {"answer": "Hi.", "lang": lang}]
    )
    cli_error(["surface", path], f"{path}:2", repr(lang), "ISO code")


def test_surface_rejects_an_unknown_lang_option(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "answers.jsonl", [{"answer": "Hello there."}])
    cli_error(["surface", path, "--lang", "zz"], "--lang", "'zz'")


def test_surface_accepts_known_codes(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "answers.jsonl", [{"answer": "Hello.", "lang": "en"}, {"answer": "Hola.", "lang": "bal"}])
    assert [a["lang"] for a in read_answers(path, "answer", "lang", None)] == ["en", "bal"]


# --- 6. agree: duplicate human rows ---------------------------------------------------------


def judged_run(root: Path) -> Path:
    """A run folder as `mlbench agree --human` reads it: two judged samples in English."""
    run = root / "run"
    run.mkdir()
    (run / "results_en.json").write_text("{}", encoding="utf-8")
    jsonl(run / "samples_en.jsonl", [{"id": i, "judges": {"truth": {"label": "yes"}}} for i in ("q1", "q2")])
    return run


def test_agree_rejects_two_human_rows_for_one_sample(tmp_path: Path) -> None:
    human = jsonl(
        tmp_path / "human.jsonl",
        [
            {"id": "q1", "lang": "en", "truth": "yes"},
            {"id": "q2", "lang": "en", "truth": "no"},
            {"id": "q1", "lang": "en", "truth": "no"},
        ],
    )
    cli_error(["agree", judged_run(tmp_path), "--human", human, "--kind", "truth"], str(human), "q1 (en)")


# --- 6 and 9. CaLMQA field types and a missing question_text --------------------------------


def calmqa_file(data_dir: Path, change: dict[str, Any], drop: str | None = None) -> Path:
    path = data_dir / "calmqa" / "questions.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[1].update(change)
    if drop:
        del rows[1][drop]
    return jsonl(path, rows)


@pytest.mark.parametrize(
    "field, value",
    [("question_text", ["list"]), ("question_english", ["list"]), ("file_language", ["English"]),
     ("kind", 3), ("category", {"a": 1}), ("name", ["q"])],
)  # fmt: skip
def test_calmqa_rejects_a_field_of_the_wrong_type(data_dir: Path, field: str, value: Any) -> None:
    path = calmqa_file(data_dir, {field: value})
    with pytest.raises(MlbenchError) as error:
        load_calmqa("en", DataSource("local", data_dir))
    one_line(error, f"{path}:2", field, "must be a string")


def test_calmqa_never_drops_a_malformed_human_answer(data_dir: Path) -> None:
    path = calmqa_file(data_dir, {"human_answers": [{"text": ["an answer"]}]})
    with pytest.raises(MlbenchError) as error:
        load_calmqa("en", DataSource("local", data_dir))
    one_line(error, f"{path}:2", "human_answers")


def test_calmqa_names_a_missing_question_text(data_dir: Path) -> None:
    path = calmqa_file(data_dir, {}, drop="question_text")
    with pytest.raises(MlbenchError) as error:
        load_calmqa("en", DataSource("local", data_dir))
    one_line(error, f"{path}:2", "missing field question_text")
    assert "unknown language" not in str(error.value)


def test_calmqa_hub_row_with_a_list_question() -> None:
    row = {"language": "English", "question_type": "culturally agnostic", "question": ["q"], "answer": None}
    with pytest.raises(MlbenchError) as error:
        normalize_row(row, "shanearora/CaLMQA row 7")
    one_line(error, "row 7", "question must be a string")


# --- 7. files that are not UTF-8 ------------------------------------------------------------


def assert_not_utf8(error: pytest.ExceptionInfo[MlbenchError], path: Path) -> None:
    offset = path.read_bytes().index(LATIN1) + LATIN1_OFFSET
    one_line(error, str(path), f"not UTF-8 text (byte 0xbf at offset {offset})")


def test_truthfulqa_multi_file_not_utf8(data_dir: Path) -> None:
    path = with_latin1_line(data_dir / "truthfulqa-multi" / "en" / "validation.json")
    with pytest.raises(MlbenchError) as error:
        load_truthfulqa_multi("en", DataSource("local", data_dir))
    assert_not_utf8(error, path)


def test_veritasqa_file_not_utf8(data_dir: Path) -> None:
    path = with_latin1_line(data_dir / "veritasqa" / "veritasqa_en.csv")
    with pytest.raises(MlbenchError) as error:
        load_veritasqa("en", DataSource("local", data_dir))
    assert_not_utf8(error, path)


def test_calmqa_file_not_utf8(data_dir: Path) -> None:
    path = with_latin1_line(data_dir / "calmqa" / "questions.jsonl")
    with pytest.raises(MlbenchError) as error:
        load_calmqa("en", DataSource("local", data_dir))
    assert_not_utf8(error, path)


def test_calmqa_release_file_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "calmqa"
    folder.mkdir()
    path = folder / "dataset-specific-English.json"
    path.write_bytes(b'{"entries": []}\n' + LATIN1)
    with pytest.raises(MlbenchError) as error:
        load_calmqa("en", DataSource("local", tmp_path))
    assert_not_utf8(error, path)


def test_data_file_not_utf8(tmp_path: Path) -> None:
    row = {"id": "1", "lang": "en", "question": "Q?", "best_answer": "A", "correct_answers": ["A"],
           "incorrect_answers": ["B"]}  # fmt: skip
    path = with_latin1_line(jsonl(tmp_path / "data.jsonl", [row]))
    with pytest.raises(MlbenchError) as error:
        load_jsonl(path)
    assert_not_utf8(error, path)


def test_surface_file_not_utf8(tmp_path: Path) -> None:
    path = with_latin1_line(jsonl(tmp_path / "answers.jsonl", [{"answer": "Hello.", "lang": "en"}]))
    offset = path.read_bytes().index(LATIN1) + LATIN1_OFFSET
    cli_error(["surface", path], str(path), f"not UTF-8 text (byte 0xbf at offset {offset})")


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_agree_label_file_not_utf8(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"labels{suffix}"
    if suffix == ".csv":
        path.write_text("id,a,b\n1,yes,no\n", encoding="utf-8")
    else:
        jsonl(path, [{"id": "1", "a": "yes", "b": "no"}])
    with_latin1_line(path)
    offset = path.read_bytes().index(LATIN1) + LATIN1_OFFSET
    cli_error(["agree", path, "--a", "a", "--b", "b"], str(path), f"not UTF-8 text (byte 0xbf at offset {offset})")


def test_offset_counts_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_bytes(codecs.BOM_UTF8 + b"id,a,b\n" + LATIN1 + b",yes,no\n")
    with pytest.raises(MlbenchError) as error:
        read_label_table(path)
    assert_not_utf8(error, path)


# --- 8. long CSV fields, a primer row that is not text --------------------------------------


def test_veritasqa_reads_a_field_longer_than_csvs_default_limit(data_dir: Path) -> None:
    path = data_dir / "veritasqa" / "veritasqa_en.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    long_answer = "x" * (131_072 + 10)  # csv's default limit (an earlier test may have raised it)
    rows[0]["Correct Answers"] = long_answer
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    samples = load_veritasqa("en", DataSource("local", data_dir))
    assert len(samples) == len(rows) and samples[0].correct_answers == (long_answer,)


def test_label_csv_reads_a_long_field(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("id,a,b\n1,yes," + "n" * 200_000 + "\n", encoding="utf-8")
    assert len(read_label_table(path)[0]["b"]) == 200_000


def test_veritasqa_csv_error_is_one_line(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Any csv.Error the reader raises (here: a field over a small limit that is not lifted).
    monkeypatch.setattr(veritasqa, "allow_long_csv_fields", lambda: None)
    path = data_dir / "veritasqa" / "veritasqa_en.csv"
    old = csv.field_size_limit(20)
    try:
        with pytest.raises(MlbenchError) as error:
            load_veritasqa("en", DataSource("local", data_dir))
    finally:
        csv.field_size_limit(old)
    one_line(error, f"{path}:", "not readable as CSV", "field larger than field limit")


@pytest.mark.parametrize("field, value", [("question", 5), ("best_answer", ["A"]), ("lang", ["en"])])
def test_data_file_primer_row_with_a_field_that_is_not_text(tmp_path: Path, field: str, value: Any) -> None:
    row = {"id": "1", "lang": "en", "question": "Q?", "best_answer": "A", "correct_answers": ["A"],
           "incorrect_answers": ["B"]}  # fmt: skip
    path = jsonl(tmp_path / "data.jsonl", [row, {**row, "id": "p", "split": "train", field: value}])
    with pytest.raises(MlbenchError) as error:
        load_jsonl(path)
    one_line(error, f"{path}:2", f"{field} must be a string")


def test_data_file_question_that_is_a_list(tmp_path: Path) -> None:
    row = {"id": "1", "lang": "en", "question": ["Q?"], "best_answer": "A", "correct_answers": ["A"],
           "incorrect_answers": ["B"]}  # fmt: skip
    path = jsonl(tmp_path / "data.jsonl", [row])
    with pytest.raises(MlbenchError) as error:
        load_jsonl(path)
    one_line(error, f"{path}:1", "question must be a string")


# --- 9. a VeritasQA CSV with a BOM --------------------------------------------------------


def test_veritasqa_csv_with_a_bom(data_dir: Path) -> None:
    path = data_dir / "veritasqa" / "veritasqa_en.csv"
    expected = load_veritasqa("en", DataSource("local", data_dir))
    path.write_bytes(codecs.BOM_UTF8 + path.read_bytes())
    assert load_veritasqa("en", DataSource("local", data_dir)) == expected
