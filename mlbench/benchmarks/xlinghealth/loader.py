"""XLingHealth (docs/protocols.md#xlinghealth): HealthQA, LiveQA and MedicationQA from the XLingEval release
(``XLingHealth_Dataset/<Name>.xlsx``, one sheet ``Sheet1``) or a CSV with the same columns,
one row per (question, candidate answer).

Every question has several rows (HealthQA ten, the others five): ``label=1`` carries its
own gold answer, the ``label=0`` rows carry gold answers of other questions (the
verifiability negatives). One ``Sample`` per (question, language); the candidates ride
along in ``meta``.
"""

from __future__ import annotations

import csv
import functools
import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.jsonlines import allow_long_csv_fields, check_no_nul, read_text
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonValue

SOURCE = "claws-lab/XLingEval (XLingHealth_Dataset)"
# Dataset → the name of its file in the release (``<name>.xlsx``; our conversions ``<name>.csv``).
UPSTREAM_NAMES = {"healthqa": "HealthQA", "liveqa": "LiveQA", "medicationqa": "MedicationQA"}
LANGUAGE_COLUMNS = {"en": "English", "es": "Spanish", "zh": "Chinese", "hi": "Hindi"}
BASE_COLUMNS = ("id", "label", "answer_ids")
NEEDED_COLUMNS = (
    *BASE_COLUMNS,
    *(f"{kind}_{name}" for name in LANGUAGE_COLUMNS.values() for kind in ("question", "answer")),
)
SHEET = "Sheet1"


@dataclass
class HealthQuestions:
    samples: list[Sample]
    # Left out or incomplete, counted for the results: questions empty in this language,
    # and candidate answers empty in it (a data defect of the release).
    counts: dict[str, int] = field(default_factory=dict)


def dataset_candidates(folder: Path, dataset: str) -> tuple[Path, ...]:
    """Where ``dataset``'s file may lie under a data folder, in the order they are tried:
    our layout (xlsx first: it is the release's own file), a clone of the XLingEval
    repository, then the file dropped straight into the folder."""
    name = UPSTREAM_NAMES[dataset]
    return (
        folder / "xlinghealth" / f"{name}.xlsx",
        folder / "xlinghealth" / f"{name}.csv",
        folder / "XLingHealth_Dataset" / f"{name}.xlsx",
        folder / f"{name}.xlsx",
        folder / f"{name}.csv",
    )


def find_dataset(folder: Path, dataset: str) -> Path | None:
    """The first file of ``dataset_candidates`` that exists, or None."""
    return next((path for path in dataset_candidates(folder, dataset) if path.is_file()), None)


def dataset_path(folder: Path, dataset: str) -> Path:
    """``dataset``'s file under ``folder``; a missing one names every path looked at."""
    path = find_dataset(folder, dataset)
    if path is None:
        looked = ", ".join(str(p) for p in dataset_candidates(folder, dataset))
        raise MlbenchError(f"no {UPSTREAM_NAMES[dataset]} file for xlinghealth: looked at {looked}")
    return path


def _check_columns(path: Path, columns: set[str]) -> None:
    missing = [c for c in NEEDED_COLUMNS if c not in columns]
    if missing:
        raise MlbenchError(f"{path}: not an XLingHealth file: missing column(s) {', '.join(missing)}")


def _read_csv(path: Path) -> tuple[dict[str, str], ...]:
    try:
        text = read_text(path)
    except OSError as error:
        raise MlbenchError(f"cannot read {path}: {error.strerror or error}") from None
    check_no_nul(path, text)
    allow_long_csv_fields()
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        _check_columns(path, set(reader.fieldnames or ()))
        rows = []
        for row in reader:
            if None in row or None in row.values():  # a broken quote, or a file that ends mid-row
                raise MlbenchError(f"{path}:{reader.line_num}: the row's cells do not match the columns (truncated?)")
            rows.append(row)
        return tuple(rows)
    except csv.Error as error:
        raise MlbenchError(f"{path}:{reader.line_num}: not readable as CSV ({error})") from None


def cell_text(value: object) -> str:
    """A spreadsheet cell as the CSV conversion writes it: empty for a blank cell, ``12``
    (not ``12.0``) for a whole number, since ids and labels are compared as text."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sheet_rows(path: Path) -> list[tuple[object, ...]]:
    """Every row of the release's one sheet, as cell values."""
    import openpyxl  # imported here: only xlsx input needs it, and it is slow to import

    try:
        # openpyxl warns about styles and extensions it ignores; they say nothing about the data.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # noqa: BLE001 - a broken zip or XML raises many kinds
        raise MlbenchError(f"cannot read {path} as an .xlsx workbook: {_first_line(error)}") from None
    try:
        if SHEET not in book.sheetnames:
            found = ", ".join(book.sheetnames) or "none"
            raise MlbenchError(f"{path}: not an XLingHealth file: no sheet {SHEET} (sheets: {found})")
        try:
            return list(book[SHEET].iter_rows(values_only=True))
        except Exception as error:  # noqa: BLE001 - as above, for the sheet's own XML
            raise MlbenchError(f"cannot read sheet {SHEET} of {path}: {_first_line(error)}") from None
    finally:
        book.close()  # read-only workbooks keep the file open until closed


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _read_xlsx(path: Path) -> tuple[dict[str, str], ...]:
    rows = _sheet_rows(path)
    while rows and all(cell_text(v).strip() == "" for v in rows[-1]):
        rows.pop()  # Excel often keeps formatted but empty rows at the end
    if not rows:
        raise MlbenchError(f"{path}: not an XLingHealth file: sheet {SHEET} is empty")
    header = [cell_text(v).strip() for v in rows[0]]
    _check_columns(path, set(header))
    width = len(header)
    # Rows may be shorter than the header where their last cells are blank.
    return tuple(
        dict(zip(header, (cell_text(v) for v in (*row[:width], *(None,) * (width - len(row)))))) for row in rows[1:]
    )


@functools.lru_cache(maxsize=8)
def _read_rows(path: Path, mtime: float) -> tuple[dict[str, str], ...]:
    """The file's rows as text, read once per process (every language reads the same file)."""
    return _read_xlsx(path) if is_xlsx(path) else _read_csv(path)


def is_xlsx(path: Path) -> bool:
    return path.suffix.lower() == ".xlsx"


def read_rows(path: Path) -> tuple[dict[str, str], ...]:
    """The rows of an XLingHealth file (.xlsx as released, anything else read as CSV)."""
    if not path.is_file():
        raise MlbenchError(f"no XLingHealth file at {path}")
    return _read_rows(path, path.stat().st_mtime)


def _label(value: str, where: str) -> int:
    if value.strip() not in ("0", "1"):
        raise MlbenchError(f"{where}: label must be 0 or 1, got {value!r}")
    return int(value)


def load_health_questions(path: Path, dataset: str, lang: str) -> HealthQuestions:
    """The questions of one dataset file in ``lang``, in file order, ids ``<dataset>:<id>``."""
    column = LANGUAGE_COLUMNS[lang]
    by_id: dict[str, list[tuple[int, dict[str, str]]]] = {}
    # Line (CSV) or row (sheet) 1 is the header.
    unit = "row" if is_xlsx(path) else "line"
    for line, row in enumerate(read_rows(path), start=2):
        by_id.setdefault(row["id"].strip(), []).append((line, row))
    samples, empty_questions, empty_candidates = [], 0, 0
    for raw_id, rows in by_id.items():
        gold = [row for line, row in rows if _label(row["label"], f"{path} {unit} {line}") == 1]
        if len(gold) != 1:
            raise MlbenchError(f"{path}: question {raw_id} has {len(gold)} rows with label=1 (expected 1)")
        question = (gold[0][f"question_{column}"] or "").strip()
        if not question:
            empty_questions += 1
            continue
        candidates: list[JsonValue] = []
        for _, row in rows:
            answer = (row[f"answer_{column}"] or "").strip()
            if not answer:
                empty_candidates += 1
                continue
            candidates.append({"answer_id": row["answer_ids"].strip(), "label": int(row["label"]), "answer": answer})
        reference = (gold[0][f"answer_{column}"] or "").strip()
        samples.append(
            Sample(
                id=f"{dataset}:{raw_id}",
                lang=lang,
                question=question,
                best_answer=reference,
                correct_answers=(reference,) if reference else (),
                incorrect_answers=(),
                meta={"dataset": dataset, "candidates": candidates},
            )
        )
    counts = {"skipped_empty_question": empty_questions, "empty_candidates": empty_candidates}
    return HealthQuestions(samples, {k: v for k, v in counts.items() if v})


def load_xlinghealth(lang: str, files: dict[str, Path]) -> HealthQuestions:
    """Every chosen dataset (name → file) in ``lang``, datasets in the given order."""
    merged = HealthQuestions([])
    for dataset, path in files.items():
        part = load_health_questions(path, dataset, lang)
        merged.samples += part.samples
        for name, count in part.counts.items():
            merged.counts[name] = merged.counts.get(name, 0) + count
    return merged
