"""VeritasQA: HF ``projecte-aina/veritasQA`` (split = language) or a local copy
``DIR/veritasqa/veritasqa_<lang>.csv``. Answer fields are ``;``-separated strings."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from mlbench.data import source_folder
from mlbench.data.answers import split_answers
from mlbench.data.jsonlines import allow_long_csv_fields, check_no_nul, read_text
from mlbench.data.questions import check_new_id
from mlbench.data.source import DataSource, read_hub_snapshot, require_file
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject

HUB_ID = "projecte-aina/veritasQA"
CACHE_SOURCE = "veritasqa"  # mlbench data fetch NAME
# Local CSV headers → the hub's snake_case names.
CSV_COLUMNS = {
    "id": "id",
    "Question": "question",
    "Best Answer": "best_answer",
    "Correct Answers": "correct_answers",
    "Incorrect Answers": "incorrect_answers",
}


def row_to_sample(row: JsonObject, lang: str, where: str) -> Sample:
    texts: dict[str, str] = {}
    for key in ("id", "question", "best_answer", "correct_answers", "incorrect_answers"):
        value = row.get(key)
        if value is not None and not isinstance(value, str):
            raise MlbenchError(f"{where}: {key} must be a string, not {type(value).__name__}")
        texts[key] = value or ""
        if not texts[key].strip():
            raise MlbenchError(f"{where}: empty or missing {key}")
    correct = split_answers(texts["correct_answers"])
    incorrect = split_answers(texts["incorrect_answers"])
    if not correct or not incorrect:
        raise MlbenchError(f"{where}: needs at least one correct and one incorrect answer")
    return Sample(
        id=texts["id"].strip(),
        lang=lang,
        question=texts["question"].strip(),
        best_answer=texts["best_answer"].strip(),
        correct_answers=correct,
        incorrect_answers=incorrect,
        meta={"category": row.get("category") or row.get("Category") or ""},
    )


def _read_csv(path: Path, lang: str) -> list[Sample]:
    # utf-8-sig: a spreadsheet's BOM would otherwise stick to the first header ("\ufeffid").
    text = read_text(path, encoding="utf-8-sig")
    check_no_nul(path, text)
    allow_long_csv_fields()  # a long answer list is one field; csv's default cap is 131,072 chars
    reader = csv.DictReader(io.StringIO(text, newline=""))
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    try:
        missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise MlbenchError(f"{path}: missing column(s) {', '.join(missing)}")
        for row in reader:
            renamed = {CSV_COLUMNS.get(k, k): v for k, v in row.items() if k is not None}
            if None in row:  # more cells than headers: a broken quote or delimiter
                raise MlbenchError(f"{path}:{reader.line_num}: more cells than columns")
            if None in row.values():  # fewer: the file ends mid-row (truncated?)
                raise MlbenchError(f"{path}:{reader.line_num}: fewer cells than columns (a truncated file?)")
            sample = row_to_sample(renamed, lang, f"{path}:{reader.line_num}")
            check_new_id(seen, sample.id, f"{path}:{reader.line_num}")
            samples.append(sample)
    except csv.Error as error:
        raise MlbenchError(f"{path}:{reader.line_num}: not readable as CSV ({error})") from None
    return samples


def load_veritasqa(lang: str, source: DataSource) -> list[Sample]:
    if source.kind == "hub":  # the hub's snapshot in mlbench's data cache; split = language
        splits = read_hub_snapshot(source_folder(CACHE_SOURCE), CACHE_SOURCE)
        if lang not in splits:
            raise MlbenchError(f"{HUB_ID} has no split {lang!r}; found: {', '.join(splits)}")
        samples: list[Sample] = []
        seen: dict[str, str] = {}
        for i, row in enumerate(splits[lang]):
            sample = row_to_sample(row, lang, f"{HUB_ID}[{lang}] row {i + 1}")
            check_new_id(seen, sample.id, f"{HUB_ID}[{lang}] row {i + 1}")
            samples.append(sample)
        return samples
    assert source.path is not None
    root = source.path
    for candidate in (root / "veritasqa" / f"veritasqa_{lang}.csv", root / f"veritasqa_{lang}.csv"):
        if candidate.is_file():
            return _read_csv(candidate, lang)
    require_file(root / "veritasqa" / f"veritasqa_{lang}.csv", f"VeritasQA {lang} file")
    raise AssertionError("unreachable")
