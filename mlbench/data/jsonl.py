"""The user's own questions: one JSON object per line with
``id, lang, question, best_answer, correct_answers, incorrect_answers``.

Answer lists may be JSON lists or ``;``-separated strings. Rows with ``"split": "train"``
form the few-shot primer of their language (question + best_answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.answers import split_answers
from mlbench.data.jsonlines import json_objects
from mlbench.data.source import require_fields
from mlbench.errors import MlbenchError
from mlbench.records import Sample

FIELDS = ("id", "lang", "question", "best_answer", "correct_answers", "incorrect_answers")


@dataclass
class JsonlData:
    samples: dict[str, list[Sample]] = field(default_factory=dict)  # lang → samples
    primers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def _answers(value: object, where: str, name: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return split_answers(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value if v.strip())
    raise MlbenchError(f"{where}: {name} must be a list of strings or a ';'-separated string")


def _require_text(row: dict[str, object], names: tuple[str, ...], where: str) -> None:
    # str() of a list or number would put its Python repr ("['a']") in the prompt.
    for name in names:
        if not isinstance(row[name], str):
            raise MlbenchError(f"{where}: {name} must be a string, not {type(row[name]).__name__}")


def load_jsonl(path: Path) -> JsonlData:
    if not path.is_file():
        raise MlbenchError(f"data file not found: {path}")
    data = JsonlData()
    for where, row in json_objects(path):
        require_fields(row, FIELDS, where)
        _require_text(row, ("lang", "question", "best_answer"), where)
        lang = row["lang"]
        if row.get("split") == "train":
            data.primers.setdefault(lang, []).append((row["question"].strip(), row["best_answer"].strip()))
            continue
        correct = _answers(row["correct_answers"], where, "correct_answers")
        incorrect = _answers(row["incorrect_answers"], where, "incorrect_answers")
        if not row["question"].strip() or not correct or not incorrect:
            raise MlbenchError(f"{where}: needs a question and at least one correct and incorrect answer")
        data.samples.setdefault(lang, []).append(
            Sample(
                id=str(row["id"]),
                lang=lang,
                question=row["question"].strip(),
                best_answer=row["best_answer"].strip(),
                correct_answers=correct,
                incorrect_answers=incorrect,
            )
        )
    if not data.samples:
        raise MlbenchError(f"{path}: no questions found")
    return data
