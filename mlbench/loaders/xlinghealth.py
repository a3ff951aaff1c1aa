"""XLingHealth (SPEC.md §3): LiveQA and MedicationQA from the XLingEval release, or a
user-supplied HealthQA, each a CSV with one row per (question, candidate answer).

Every question has five rows: ``label=1`` carries its own gold answer, the four
``label=0`` rows carry gold answers of other questions (the verifiability negatives).
One ``Sample`` per (question, language); the candidates ride along in ``meta``.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError
from mlbench.schema import Sample

SOURCE = "claws-lab/XLingEval (XLingHealth_Dataset, converted to CSV)"
DATASET_FILES = {"liveqa": "LiveQA.csv", "medicationqa": "MedicationQA.csv", "healthqa": "HealthQA.csv"}
LANGUAGE_COLUMNS = {"en": "English", "es": "Spanish", "zh": "Chinese", "hi": "Hindi"}
BASE_COLUMNS = ("id", "label", "answer_ids")


@dataclass
class HealthQuestions:
    samples: list[Sample]
    # Left out or incomplete, counted for the results: questions empty in this language,
    # and candidate answers empty in it (a data defect of the release).
    counts: dict[str, int] = field(default_factory=dict)


def dataset_path(data_dir: Path, dataset: str) -> Path:
    return data_dir / "xlinghealth" / DATASET_FILES[dataset]


@functools.lru_cache(maxsize=8)
def _read_rows(path: Path, mtime: float) -> tuple[dict[str, str], ...]:
    """The CSV's rows, read once per process (every language reads the same file)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            columns = set(reader.fieldnames or ())
            needed = [
                *BASE_COLUMNS,
                *(f"{kind}_{name}" for name in LANGUAGE_COLUMNS.values() for kind in ("question", "answer")),
            ]
            missing = [c for c in needed if c not in columns]
            if missing:
                raise MlbenchError(f"{path}: not an XLingHealth file: missing column(s) {', '.join(missing)}")
            return tuple(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise MlbenchError(f"cannot read {path}: {error}") from None


def read_rows(path: Path) -> tuple[dict[str, str], ...]:
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
    for line, row in enumerate(read_rows(path), start=2):  # line 1 is the header
        by_id.setdefault(row["id"].strip(), []).append((line, row))
    samples, empty_questions, empty_candidates = [], 0, 0
    for raw_id, rows in by_id.items():
        gold = [row for line, row in rows if _label(row["label"], f"{path} line {line}") == 1]
        if len(gold) != 1:
            raise MlbenchError(f"{path}: question {raw_id} has {len(gold)} rows with label=1 (expected 1)")
        question = (gold[0][f"question_{column}"] or "").strip()
        if not question:
            empty_questions += 1
            continue
        candidates: list[dict[str, Any]] = []
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
    """Every chosen dataset (name → CSV path) in ``lang``, datasets in the given order."""
    merged = HealthQuestions([])
    for dataset, path in files.items():
        part = load_health_questions(path, dataset, lang)
        merged.samples += part.samples
        for name, count in part.counts.items():
            merged.counts[name] = merged.counts.get(name, 0) + count
    return merged
