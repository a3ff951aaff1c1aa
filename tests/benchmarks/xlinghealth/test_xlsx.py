"""The XLingHealth loader on .xlsx workbooks laid out like the XLingEval release: the same
rows and samples as from the CSV conversion, where files are looked for, one-line errors.
Every workbook is synthetic, written here with openpyxl."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from mlbench.benchmarks.xlinghealth.loader import (
    LANGUAGE_COLUMNS,
    NEEDED_COLUMNS,
    cell_text,
    dataset_candidates,
    dataset_path,
    find_dataset,
    load_health_questions,
    read_rows,
)
from mlbench.errors import MlbenchError


def release_rows() -> list[list[Any]]:
    """Three questions of three rows each, with cells typed as the release's are: int ids,
    labels and answer ids, text elsewhere, and blank cells (None)."""
    rows: list[list[Any]] = [list(NEEDED_COLUMNS)]
    for question in range(3):
        for rank, answer_id in enumerate((question, (question + 1) % 3, (question + 2) % 3)):
            row: list[Any] = [question, int(rank == 0), answer_id]
            for name in LANGUAGE_COLUMNS.values():
                row += [f"q{question} {name}?", f'a{answer_id} {name}, "quoted"\nsecond line']
            rows.append(row)
    rows[7][NEEDED_COLUMNS.index("question_English")] = None  # question 2 has no English text
    rows[4][NEEDED_COLUMNS.index("answer_Hindi")] = None  # question 1's gold answer in Hindi
    return rows


def write_xlsx(path: Path, rows: list[list[Any]], sheet: str = "Sheet1") -> Path:
    book = openpyxl.Workbook()
    book.active.title = sheet
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def write_csv(path: Path, rows: list[list[Any]]) -> Path:
    """The CSV conversion: blank cells empty, numbers as written."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["" if v is None else str(v) for v in row] for row in rows])
    return path


def test_xlsx_and_csv_give_the_same_rows_and_samples(tmp_path):
    rows = release_rows()
    xlsx = write_xlsx(tmp_path / "HealthQA.xlsx", rows)
    conversion = write_csv(tmp_path / "HealthQA.csv", rows)
    assert read_rows(xlsx) == read_rows(conversion)
    assert read_rows(xlsx)[0]["id"] == "0" and read_rows(xlsx)[0]["label"] == "1"
    for lang in LANGUAGE_COLUMNS:
        from_xlsx = load_health_questions(xlsx, "healthqa", lang)
        assert from_xlsx == load_health_questions(conversion, "healthqa", lang)
    en = load_health_questions(xlsx, "healthqa", "en")
    assert [s.id for s in en.samples] == ["healthqa:0", "healthqa:1"]
    assert en.counts == {"skipped_empty_question": 1}
    hi = load_health_questions(xlsx, "healthqa", "hi")
    assert len(hi.samples) == 3 and hi.counts == {"empty_candidates": 1}
    assert hi.samples[1].best_answer == "" and len(hi.samples[1].meta["candidates"]) == 2
    assert hi.samples[0].meta["candidates"][0] == {
        "answer_id": "0",
        "label": 1,
        "answer": 'a0 Hindi, "quoted"\nsecond line',
    }


def test_cells_become_the_text_a_csv_holds(tmp_path):
    assert [cell_text(v) for v in (None, 12, 12.0, 2.5, "  x ", 0)] == ["", "12", "12", "2.5", "  x ", "0"]
    rows = release_rows()
    rows[1][0] = 0.0  # a number typed as a float in the sheet
    rows.append([None] * len(NEEDED_COLUMNS))  # blank rows Excel keeps at the end
    rows.append([])
    rows[2] = rows[2][:-1]  # a row whose last cell is blank and left out
    xlsx = read_rows(write_xlsx(tmp_path / "typed.xlsx", rows))
    assert len(xlsx) == 9 and xlsx[0]["id"] == "0" and xlsx[1]["answer_Hindi"] == ""


def test_files_are_found_in_order(tmp_path):
    assert [str(p.relative_to(tmp_path)) for p in dataset_candidates(tmp_path, "medicationqa")] == [
        "xlinghealth/MedicationQA.xlsx",
        "xlinghealth/MedicationQA.csv",
        "XLingHealth_Dataset/MedicationQA.xlsx",
        "MedicationQA.xlsx",
        "MedicationQA.csv",
    ]
    with pytest.raises(MlbenchError, match="no LiveQA file for xlinghealth: looked at .*xlinghealth/LiveQA.xlsx, "):
        dataset_path(tmp_path, "liveqa")
    rows = release_rows()
    # Made from the last candidate to the first: each new file wins over the ones before it.
    for path in reversed(dataset_candidates(tmp_path, "healthqa")):
        path.parent.mkdir(exist_ok=True)
        (write_xlsx if path.suffix == ".xlsx" else write_csv)(path, rows)
        assert find_dataset(tmp_path, "healthqa") == path == dataset_path(tmp_path, "healthqa")
    assert find_dataset(tmp_path, "liveqa") is None


def test_broken_workbooks_fail_with_one_line(tmp_path):
    def fails(path: Path, message: str) -> None:
        with pytest.raises(MlbenchError, match=message) as caught:
            load_health_questions(path, "healthqa", "en")
        assert "\n" not in str(caught.value)

    not_a_zip = tmp_path / "not_a_zip.xlsx"
    not_a_zip.write_text("id,label\n")
    fails(not_a_zip, "cannot read .*not_a_zip.xlsx as an .xlsx workbook")
    fails(write_xlsx(tmp_path / "sheet.xlsx", release_rows(), sheet="Data"), r"no sheet Sheet1 \(sheets: Data\)")
    fails(write_xlsx(tmp_path / "empty.xlsx", []), "sheet Sheet1 is empty")
    no_hindi = [row[:-2] for row in release_rows()]
    fails(write_xlsx(tmp_path / "columns.xlsx", no_hindi), "missing column.*question_Hindi, answer_Hindi")
    bad_label = release_rows()
    bad_label[3][1] = "yes"
    fails(write_xlsx(tmp_path / "label.xlsx", bad_label), "label.xlsx row 4: label must be 0 or 1, got 'yes'")
    two_gold = release_rows()
    two_gold[2][1] = 1
    fails(write_xlsx(tmp_path / "gold.xlsx", two_gold), "question 0 has 2 rows with label=1")
