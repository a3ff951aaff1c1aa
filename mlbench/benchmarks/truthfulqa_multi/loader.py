"""TruthfulQA-Multi: HF ``HiTZ/truthfulqa-multi`` (config = language), its machine-translated
twin ``HiTZ/truthfulqa-multi-MT``, a local copy, or the embedded sample set (same layout).

Local layout: ``DIR/<folder>/<lang>/{train,validation}.json`` (``DIR`` may also be the
``<folder>`` itself), one JSON array per file. ``train`` is the six-pair few-shot primer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

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
from mlbench.records.jsontypes import JsonObject

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
    "TruthfulQA's row = id - 1 (the release's ids count its 817 rows from 1; 817 of 817 align)", translation="human"
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


def require_text(row: JsonObject, names: tuple[str, ...], where: str) -> None:
    """Each field in ``names`` is a string: anything else would reach the prompt as its
    Python repr, or fail later with a traceback."""
    for name in names:
        if not isinstance(row[name], str):
            raise MlbenchError(f"{where}: {name} must be a string, not {type(row[name]).__name__}")


def row_to_sample(row: JsonObject, lang: str, where: str) -> Sample:
    require_fields(row, ROW_FIELDS, where)
    require_text(row, ("question", "best_answer"), where)
    for name in ("correct_answers", "incorrect_answers"):
        if not isinstance(row[name], list) or not all(isinstance(v, str) for v in row[name]):
            raise MlbenchError(f"{where}: {name} must be a list of strings")
    mc1, mc2 = row["mc1_targets"], row["mc2_targets"]
    for name, targets in (("mc1_targets", mc1), ("mc2_targets", mc2)):
        if not isinstance(targets, dict) or len(targets.get("choices", [])) != len(targets.get("labels", [None])):
            raise MlbenchError(f"{where}: {name} needs 'choices' and 'labels' of equal length")
    if not row["question"].strip():
        raise MlbenchError(f"{where}: empty question")
    return Sample(
        id=str(row["id"]),
        lang=lang,
        # As released, surrounding spaces included: lm-eval's MC tasks put the raw
        # question in the prompt, and a stray space is a token that changes every score.
        question=row["question"],
        best_answer=row["best_answer"],
        correct_answers=tuple(row["correct_answers"]),
        incorrect_answers=tuple(row["incorrect_answers"]),
        mc1_choices=tuple(mc1["choices"]),
        mc2_choices=tuple(mc2["choices"]),
        mc2_labels=tuple(int(label) for label in mc2["labels"]),
        meta={k: row[k] for k in ("type", "category", "annotation") if k in row},
    )


def _read_json_array(path: Path) -> list[Any]:
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


def _from_rows(rows: list[Any], primer_rows: list[Any], lang: str, where: str, *, rows_are: RowIds) -> TruthfulQASplit:
    """``rows_are``: whose ids the rows carry. The release's (hub) count TruthfulQA's rows
    from 1: an id that is none is refused. A local copy's are read the same way when
    every id is such a row, else left unlabelled (a copy of one's own, ids ``q7``: run as
    before, not aligned). The sample set's questions are mlbench's own: never labelled."""
    samples, seen = [], {}
    for i, row in enumerate(rows):
        sample = row_to_sample(row, lang, f"{where} validation row {i + 1}")
        check_new_id(seen, sample.id, f"{where} validation row {i + 1}")  # the release's ids are distinct
        samples.append(sample)
    if rows_are != "own":
        try:
            index = [
                tqa_index(row["id"], RELEASE_ID_OFFSET, f"{where} validation row {i + 1}") for i, row in enumerate(rows)
            ]
        except MlbenchError:
            if rows_are == "release":
                raise
            index = []
        if index:
            samples = [replace(s, meta={**s.meta, TQA_INDEX_LABEL: row}) for s, row in zip(samples, index)]
    primer = []
    for i, row in enumerate(primer_rows):
        require_fields(row, ("question", "best_answer"), f"{where} train row {i + 1}")
        require_text(row, ("question", "best_answer"), f"{where} train row {i + 1}")
        primer.append((row["question"], row["best_answer"]))
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
    root = sample_dir() if source.kind == "sample" else source.path
    assert root is not None
    lang_dir = root / lang if source.kind == "sample" else _local_dir(root, LOCAL_FOLDERS[variant], lang)
    validation = require_file(lang_dir / "validation.json", f"{lang} questions")
    train = require_file(lang_dir / "train.json", f"{lang} few-shot primer")
    return _from_rows(
        _read_json_array(validation),
        _read_json_array(train),
        lang,
        str(validation.parent),
        rows_are="copy" if source.kind == "local" else "own",
    )
