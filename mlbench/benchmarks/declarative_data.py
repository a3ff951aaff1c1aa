"""The data of a declarative benchmark: one JSONL or CSV file per language, read into
samples with TruthfulQA-Multi's multiple-choice targets, and checked to be parallel.

A row holds either answer lists (``correct_answers``/``incorrect_answers``: JSON lists, or
``;``-separated text as a CSV cell must be; ``best_answer`` optional, default the first
correct answer) or options (``choices`` with 0/1 ``labels``; the best answer is the first
true option). MC1 then compares the best answer with the incorrect ones, MC2 the correct
ones (the best answer among them) with the incorrect ones.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mlbench.benchmarks.declarative_spec import BenchmarkSpec, Columns
from mlbench.data.answers import split_answers
from mlbench.data.jsonlines import allow_long_csv_fields, check_no_nul, json_objects, read_text
from mlbench.errors import MlbenchError
from mlbench.records import Sample

SHOWN_IDS = 5  # ids listed in an error; the rest are counted


def read_rows(path: Path, what: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, row)`` of a .jsonl or .csv file, ``where`` naming the file and line."""
    if not path.is_file():
        raise MlbenchError(f"{what} not found: {path}")
    if path.suffix == ".jsonl":
        yield from json_objects(path)
        return
    allow_long_csv_fields()
    text = read_text(path)
    check_no_nul(path, text)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        for row in reader:
            if None in row:  # more cells than the header has columns
                raise MlbenchError(f"{path}:{reader.line_num}: more cells than the header's columns")
            if not any((value or "").strip() for value in row.values()):
                continue
            yield f"{path}:{reader.line_num}", row
    except csv.Error as error:
        raise MlbenchError(f"{path}:{reader.line_num}: invalid CSV ({error})") from None


def _text(row: dict[str, Any], column: str, where: str, *, required: bool = True) -> str | None:
    value = row.get(column)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise MlbenchError(f"{where}: no {column!r} (an empty or missing column)")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        # str() of a list or number would put its Python repr in the prompt.
        raise MlbenchError(f"{where}: {column} must be text, not {type(value).__name__}")
    return str(value).strip()


def _texts(row: dict[str, Any], column: str, where: str) -> tuple[str, ...]:
    value = row.get(column)
    if isinstance(value, str):
        return split_answers(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value if v.strip())
    if value is None:
        raise MlbenchError(f"{where}: no {column!r} column")
    raise MlbenchError(f"{where}: {column} must be a list of strings or a ';'-separated string")


def _labels(row: dict[str, Any], column: str, where: str) -> tuple[int, ...]:
    value = row.get(column)
    items = split_answers(value) if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise MlbenchError(f"{where}: no {column!r} column" if value is None else f"{where}: {column} must be a list")
    labels = []
    for item in items:
        text = str(item).strip().lower()
        if text not in ("0", "1", "true", "false"):
            raise MlbenchError(f"{where}: {column} must be 0/1 (or true/false), not {item!r}")
        labels.append(int(text in ("1", "true")))
    return tuple(labels)


def _answers(row: dict[str, Any], columns: Columns, where: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The best, correct and incorrect answers of a row, in either layout."""
    if row.get(columns.choices) is not None:
        choices, labels = _texts(row, columns.choices, where), _labels(row, columns.labels, where)
        if len(choices) != len(labels):
            raise MlbenchError(f"{where}: {len(choices)} {columns.choices} but {len(labels)} {columns.labels}")
        correct = tuple(c for c, label in zip(choices, labels) if label)
        incorrect = tuple(c for c, label in zip(choices, labels) if not label)
    elif row.get(columns.correct_answers) is not None or row.get(columns.incorrect_answers) is not None:
        correct = _texts(row, columns.correct_answers, where)
        incorrect = _texts(row, columns.incorrect_answers, where)
    else:
        raise MlbenchError(
            f"{where}: needs {columns.correct_answers!r} and {columns.incorrect_answers!r}, "
            f"or {columns.choices!r} and {columns.labels!r}"
        )
    best = _text(row, columns.best_answer, where, required=False) or (correct[0] if correct else None)
    if best is None or not incorrect:
        raise MlbenchError(f"{where}: needs at least one correct and one incorrect answer")
    if best not in correct:  # the best answer is a true one: it is scored with them (MC2, BLEU)
        correct = (best, *correct)
    both = sorted(set(correct) & set(incorrect))
    if both:
        raise MlbenchError(f"{where}: {both[0]!r} is both a correct and an incorrect answer")
    return best, correct, incorrect


def row_sample(row: dict[str, Any], lang: str, columns: Columns, where: str) -> Sample:
    sample_id, question = _text(row, columns.id, where), _text(row, columns.question, where)
    assert sample_id is not None and question is not None
    best, correct, incorrect = _answers(row, columns, where)
    group = _text(row, columns.group, where, required=False) if columns.group else None
    return Sample(
        id=sample_id,
        lang=lang,
        question=question,
        best_answer=best,
        correct_answers=correct,
        incorrect_answers=incorrect,
        # TruthfulQA-Multi's targets: MC1 the best answer first, then the incorrect ones;
        # MC2 every correct answer (labelled 1) then every incorrect one (0).
        mc1_choices=(best, *incorrect),
        mc2_choices=(*correct, *incorrect),
        mc2_labels=(1,) * len(correct) + (0,) * len(incorrect),
        meta={"group": group} if group else {},
    )


def read_samples(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[Sample]:
    """One language's questions; a repeated id is an error naming both rows."""
    path = spec.data_path(lang, root)
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    for where, row in read_rows(path, f"{spec.name} {lang} data"):
        sample = row_sample(row, lang, spec.columns, where)
        if sample.id in seen:
            raise MlbenchError(f"{where}: id {sample.id!r} repeats the one at {seen[sample.id]}")
        seen[sample.id] = where
        samples.append(sample)
    if not samples:
        raise MlbenchError(f"{path}: no questions")
    return samples


def read_primer(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[tuple[str, str]]:
    """One language's few-shot pairs (question, best answer), in file order."""
    path = spec.primer_path(lang, root)
    if path is None:
        return []
    pairs = []
    for where, row in read_rows(path, f"{spec.name} {lang} few-shot primer"):
        question = _text(row, spec.columns.question, where)
        answer = _text(row, spec.columns.best_answer, where)
        assert question is not None and answer is not None
        pairs.append((question, answer))
    return pairs


def check_parallel(spec: BenchmarkSpec, samples: dict[str, list[Sample]], root: Path | None = None) -> None:
    """Every language has the ids of the first one: the report pairs questions by id."""
    if not spec.parallel or len(samples) < 2:
        return
    first, *others = samples
    reference = {s.id for s in samples[first]}
    for lang in others:
        ids = {s.id for s in samples[lang]}
        missing, extra = _listed(reference - ids), _listed(ids - reference)
        if missing or extra:
            parts = [f"missing ids {missing}" if missing else "", f"extra ids {extra}" if extra else ""]
            raise MlbenchError(
                f"{spec.data_path(lang, root)} is not parallel to {spec.data_path(first, root)}: "
                f"{'; '.join(p for p in parts if p)} (or set parallel = false in {spec.path.name})"
            )


def _listed(ids: set[str]) -> str:
    shown = sorted(ids)[:SHOWN_IDS]
    more = f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else ""
    return ", ".join(shown) + more
