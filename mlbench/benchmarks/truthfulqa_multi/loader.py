"""TruthfulQA-Multi: HF ``HiTZ/truthfulqa-multi`` (config = language), its machine-translated
twin ``HiTZ/truthfulqa-multi-MT``, a local copy, or the embedded sample set (same layout).

Local layout: ``DIR/<folder>/<lang>/{train,validation}.json`` (``DIR`` may also be the
``<folder>`` itself), one JSON array per file. ``train`` is the six-pair few-shot primer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, cast

from mlbench.data import source_folder
from mlbench.data.alignment import TQA_INDEX_LABEL, Alignment, tqa_index
from mlbench.data.jsonlines import read_text
from mlbench.data.questions import check_new_id
from mlbench.data.source import (
    DataSource,
    read_hub_snapshot,
    require_fields,
    require_file,
    sample_dir,
)
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject, JsonValue

HUB_IDS = {"human": "HiTZ/truthfulqa-multi", "mt": "HiTZ/truthfulqa-multi-MT"}
LOCAL_FOLDERS = {"human": "truthfulqa-multi", "mt": "truthfulqa-multi-MT"}
CACHE_SOURCES = {"human": "truthfulqa-multi", "mt": "truthfulqa-multi-MT"}  # mlbench data fetch NAME
# The release's ids are TruthfulQA's rows counted from 1, in both translations: its 817
# English rows are TruthfulQA's in their order (its first rows, watermelon seeds, fortune
# cookies, veins; its last, the Mandela Effect ones), and TruthfulQA-X's 0-based ids meet
# them at id - 1 with the same source URL and category, 817 of 817.
RELEASE_ID_OFFSET = -1
RowIds = Literal["release", "copy", "own"]
ALIGNMENT = Alignment(
    "TruthfulQA's row = id - 1 (the release's ids count its 817 rows from 1; 817 of 817 align)",
    translation="human",
    translator="professional translators",
)
ROW_FIELDS = (
    "id",
    "question",
    "mc1_targets",
    "mc2_targets",
    "best_answer",
    "correct_answers",
    "incorrect_answers",
)


@dataclass(frozen=True)
class TruthfulQASplit:
    samples: list[Sample]
    primer: list[tuple[str, str]]  # (question, best answer) pairs of the train split


def _text(row: JsonObject, name: str, where: str) -> str:
    """A field that must be a string: anything else would reach the prompt as its Python
    repr, or fail later with a traceback."""
    value = row[name]
    if not isinstance(value, str):
        raise MlbenchError(f"{where}: {name} must be a string, not {type(value).__name__}")
    return value


def _texts(row: JsonObject, name: str, where: str) -> tuple[str, ...]:
    value = row[name]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MlbenchError(f"{where}: {name} must be a list of strings")
    return tuple(cast("list[str]", value))  # every item checked just above


def _targets(row: JsonObject, name: str, where: str) -> tuple[list[JsonValue], list[JsonValue]]:
    """The (choices, labels) of ``mc1_targets`` or ``mc2_targets``."""
    targets = row[name]
    choices = targets.get("choices", []) if isinstance(targets, dict) else None
    labels = targets.get("labels", [None]) if isinstance(targets, dict) else None
    if not isinstance(choices, list) or not isinstance(labels, list) or len(choices) != len(labels):
        raise MlbenchError(f"{where}: {name} needs 'choices' and 'labels' of equal length")
    return choices, labels


def _choices(choices: list[JsonValue], name: str, where: str) -> tuple[str, ...]:
    if not all(isinstance(choice, str) for choice in choices):
        raise MlbenchError(f"{where}: {name} choices must be strings")
    return tuple(cast("list[str]", choices))  # every item checked just above


def _label(value: JsonValue, where: str) -> int:
    if not isinstance(value, (int, float, str)):
        raise MlbenchError(f"{where}: mc2_targets labels must be 0 or 1, not {type(value).__name__}")
    return int(value)


def row_to_sample(value: JsonValue, lang: str, where: str) -> Sample:
    require_fields(value, ROW_FIELDS, where)
    row = cast("JsonObject", value)  # require_fields refuses anything but an object
    question, best_answer = _text(row, "question", where), _text(row, "best_answer", where)
    correct_answers, incorrect_answers = _texts(row, "correct_answers", where), _texts(row, "incorrect_answers", where)
    mc1, mc2 = _targets(row, "mc1_targets", where), _targets(row, "mc2_targets", where)
    if not question.strip():
        raise MlbenchError(f"{where}: empty question")
    return Sample(
        id=str(row["id"]),
        lang=lang,
        # As released, surrounding spaces included: lm-eval's MC tasks put the raw
        # question in the prompt, and a stray space is a token that changes every score.
        question=question,
        best_answer=best_answer,
        correct_answers=correct_answers,
        incorrect_answers=incorrect_answers,
        mc1_choices=_choices(mc1[0], "mc1_targets", where),
        mc2_choices=_choices(mc2[0], "mc2_targets", where),
        mc2_labels=tuple(_label(label, where) for label in mc2[1]),
        meta={k: row[k] for k in ("type", "category", "annotation") if k in row},
    )


def _read_json_array(path: Path) -> list[JsonValue]:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise MlbenchError(f"{path}:{error.lineno}: invalid JSON ({error.msg})") from None
    if not isinstance(data, list):
        raise MlbenchError(f"{path}: expected a JSON array of rows")
    return data


def _local_dir(root: Path, folder: str, lang: str) -> Path:
    # Our layout, the language folder itself, or a clone of the GitHub repository (data/<lang>).
    for candidate in (root / folder / lang, root / lang, root / "data" / lang):
        if (candidate / "validation.json").is_file():
            return candidate
    return root / folder / lang


def _from_rows(
    rows: list[JsonValue], primer_rows: list[JsonValue], lang: str, where: str, *, rows_are: RowIds
) -> TruthfulQASplit:
    """``rows_are``: whose ids the rows carry. The release's (hub) count TruthfulQA's rows
    from 1: an id that is none is refused. A local copy's are read the same way when
    every id is such a row, else left unlabelled (a copy of one's own, ids ``q7``: run as
    before, not aligned). The sample set's questions are mlbench's own: never labelled."""
    samples: list[Sample] = []
    seen: dict[str, str] = {}
    for i, row in enumerate(rows):
        sample = row_to_sample(row, lang, f"{where} validation row {i + 1}")
        check_new_id(seen, sample.id, f"{where} validation row {i + 1}")  # the release's ids are distinct
        samples.append(sample)
    if rows_are != "own":
        try:
            index = [
                tqa_index(cast("JsonObject", row)["id"], RELEASE_ID_OFFSET, f"{where} validation row {i + 1}")
                for i, row in enumerate(rows)  # each an object: row_to_sample read it above
            ]
        except MlbenchError:
            if rows_are == "release":
                raise
            index = []
        if index:
            samples = [replace(s, meta={**s.meta, TQA_INDEX_LABEL: row}) for s, row in zip(samples, index)]
    primer = []
    for i, value in enumerate(primer_rows):
        at_row = f"{where} train row {i + 1}"
        require_fields(value, ("question", "best_answer"), at_row)
        pair = cast("JsonObject", value)  # require_fields refuses anything but an object
        primer.append((_text(pair, "question", at_row), _text(pair, "best_answer", at_row)))
    return TruthfulQASplit(samples, primer)


def load_truthfulqa_multi(lang: str, source: DataSource, *, variant: str = "human") -> TruthfulQASplit:
    """The validation questions and the few-shot primer of one language."""
    if source.kind == "hub" and variant == "mt":
        # Only on the hub: its snapshot in the data cache, config = language.
        folder = source_folder(CACHE_SOURCES[variant])
        splits = read_hub_snapshot(folder, CACHE_SOURCES[variant], lang)
        return _from_rows(list(splits["validation"]), list(splits["train"]), lang, HUB_IDS[variant], rows_are="release")
    if source.kind == "hub":
        # The GitHub release of the same files, pinned and hash-checked in the data cache.
        root = source_folder(CACHE_SOURCES[variant])
        lang_dir = _local_dir(root, LOCAL_FOLDERS[variant], lang)
        validation = require_file(lang_dir / "validation.json", f"{lang} questions")
        train = require_file(lang_dir / "train.json", f"{lang} few-shot primer")
        return _from_rows(
            _read_json_array(validation), _read_json_array(train), lang, HUB_IDS[variant], rows_are="release"
        )
    copy = sample_dir() if source.kind == "sample" else source.path
    assert copy is not None
    lang_dir = copy / lang if source.kind == "sample" else _local_dir(copy, LOCAL_FOLDERS[variant], lang)
    validation = require_file(lang_dir / "validation.json", f"{lang} questions")
    train = require_file(lang_dir / "train.json", f"{lang} few-shot primer")
    return _from_rows(
        _read_json_array(validation),
        _read_json_array(train),
        lang,
        str(validation.parent),
        rows_are="copy" if source.kind == "local" else "own",
    )
