"""The user's own questions for a built-in benchmark's protocol (``--data-file``): one
JSON object per line with ``id, lang, question, best_answer, correct_answers,
incorrect_answers``, each row read by ``mlbench.data.questions`` (the reader declarative
benchmarks share).

Answer lists may be JSON lists or ``;``-separated strings. Rows with ``"split": "train"``
form the few-shot primer of their language (question + best_answer). The correct answers
stay as listed, as in TruthfulQA-Multi's release: a best answer that is not among them is
MC1's target only, not one of MC2's true answers. Like a declared benchmark's data, a file
with a repeated id (within a language), an answer listed twice, or an answer both correct
and incorrect is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from mlbench.data.jsonlines import json_objects
from mlbench.data.questions import Columns, check_new_id, question_sample, text_field
from mlbench.data.source import require_fields
from mlbench.errors import MlbenchError
from mlbench.records import Sample

FIELDS = ("id", "lang", "question", "best_answer", "correct_answers", "incorrect_answers")
COLUMNS = Columns()  # the fields' own names


@dataclass
class JsonlData:
    samples: dict[str, list[Sample]] = field(default_factory=dict)  # lang → samples
    primers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def load_jsonl(path: Path) -> JsonlData:
    if not path.is_file():
        raise MlbenchError(f"data file not found: {path}")
    data = JsonlData()
    seen: dict[str, dict[str, str]] = {}  # lang → id → the row that gave it
    for where, row in json_objects(path):
        require_fields(row, FIELDS, where)
        lang = text_field(row, "lang", where)
        assert lang is not None
        if row.get("split") == "train":
            question, best = text_field(row, "question", where), text_field(row, "best_answer", where)
            data.primers.setdefault(lang, []).append((question, best))
            continue
        # The answer lists are the data file's layout; other keys (choices, labels) stay unread.
        lists = {key: value for key, value in row.items() if key not in (COLUMNS.choices, COLUMNS.labels)}
        sample = question_sample(lists, lang, COLUMNS, where, as_listed=True)
        check_new_id(seen.setdefault(lang, {}), sample.id, where)  # one id per question and language
        # The protocol's own targets come from the benchmark (TruthfulQA-Multi builds MC1/MC2
        # from the answer lists; VeritasQA scores the lists), not from this file.
        data.samples.setdefault(lang, []).append(replace(sample, mc1_choices=None, mc2_choices=None, mc2_labels=None))
    if not data.samples:
        raise MlbenchError(f"{path}: no questions found")
    return data
