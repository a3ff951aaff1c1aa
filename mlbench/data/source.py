"""Where a task's data comes from, and the subset rule shared by every task."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from mlbench.data.alignment import draw_name, row_of
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.resources import resource_dir

T = TypeVar("T")


@dataclass(frozen=True)
class DataSource:
    """``hub`` (default), ``local`` (--data-dir), ``sample`` (--sample) or ``jsonl`` (--data-file)."""

    kind: Literal["hub", "local", "sample", "jsonl"]
    path: Path | None = None

    def describe(self, hub_id: str | None = None) -> str:
        if self.kind == "hub":
            return f"hub:{hub_id}"
        if self.kind == "sample":
            return "sample:mlbench embedded sample set"
        return f"{self.kind}:{self.path}"


# The tasks the embedded sample set covers (what error lines offer instead of --sample);
# tests/data/test_source.py checks it against each task's own validate.
SAMPLE_TASKS = ("truthfulqa_multi", "truthfulqa_multi_mt", "veritasqa")


def sample_dir() -> Path:
    """The embedded sample set (``data/sample/<lang>/{train,validation}.json``)."""
    return resource_dir("data") / "sample"


# Any: the ``datasets`` library's DatasetDict (untyped).
def read_hub_snapshot(folder: Path, name: str, config: str | None = None) -> Any:
    """A hub dataset from its snapshot in mlbench's data cache (``datasets`` reads the card's
    configs and features, e.g. ClassLabel names); the ``DatasetDict`` of ``config``.

    Read once per process: every language of a run asks for the same snapshot (VeritasQA's
    splits are its languages). Keyed by the folder's modification time too, so a snapshot
    fetched again is read again."""
    return _read_hub_snapshot(folder, name, config, folder.stat().st_mtime_ns if folder.exists() else 0)


@functools.lru_cache(maxsize=8)
def _read_hub_snapshot(folder: Path, name: str, config: str | None, mtime_ns: int) -> Any:
    try:
        import datasets

        datasets.disable_progress_bars()  # a local read of a few MB: the bars are only noise
        return datasets.load_dataset(str(folder), config)
    except Exception as error:  # noqa: BLE001 - datasets raises many kinds for a bad folder
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise MlbenchError(
            f"cannot read {name} from {folder} ({reason[:160]}); `mlbench data fetch --force {name}` fetches it again"
        ) from None


def require_file(path: Path, what: str) -> Path:
    if not path.is_file():
        raise MlbenchError(f"data dir has no {what}: expected {path}")
    return path


def require_fields(row: object, fields: Sequence[str], where: str) -> None:
    if not isinstance(row, dict):
        raise MlbenchError(f"{where}: expected a JSON object, got {type(row).__name__}")
    missing = [f for f in fields if f not in row]
    if missing:
        raise MlbenchError(f"{where}: missing field(s) {', '.join(missing)}")


def _rank_key(seed: int, sample_id: str) -> str:
    return hashlib.sha256(f"{seed}:{sample_id}".encode()).hexdigest()


# A sample's labels where one question is asked under several prompt templates (a sample
# each): the question it asks, and the template (a declared benchmark's ``-T prompt=all``).
QUESTION_LABEL = "question_id"
TEMPLATE_LABEL = "template"


def subset(samples: list[Sample], limit: int | None, seed: int, *, by_row: bool = True) -> list[Sample]:
    """A seeded random subset of ``limit`` questions, in the samples' original order (a
    question asked under several templates keeps all of them).

    Each question is ranked by a hash of (seed, its name) alone: its id, so the chosen ids
    are the same in every language and for every model whenever the id sets are the same;
    or, for a question that names TruthfulQA's row (an aligned benchmark), the name of its
    row (``alignment.draw_name``), so that two translations limited alike answer the same
    TruthfulQA questions whatever ids each gives them. A benchmark that lacks one of the
    rows ranked first takes the next row it has: every run holds ``limit`` questions, and
    two share all of them but the rows one of them lacks. ``by_row`` False: ids alone (the
    rule before rows were drawn, which resume checks against).
    """
    rows = question_rows(samples) if by_row else dict.fromkeys(map(question_of, samples))
    names = {question: draw_name(row) if row is not None else question for question, row in rows.items()}
    if limit is None or limit >= len(names):
        return samples
    chosen = set(sorted(names, key=lambda q: (_rank_key(seed, names[q]), q))[:limit])
    return [s for s in samples if question_of(s) in chosen]


def question_rows(samples: list[Sample]) -> dict[str, str | None]:
    """Each question of ``samples`` (asked under several templates: once) and the TruthfulQA
    row it names (``alignment.row_of``; None: none), in the samples' order."""
    rows: dict[str, str | None] = {}
    for sample in samples:
        rows.setdefault(question_of(sample), row_of(sample.meta))
    return rows


def templated_id(question_id: str, template: str) -> str:
    """The id of the sample that asks question ``question_id`` under ``template``, in a run
    asked under several templates (under one, the question's own id)."""
    return f"{question_id}@{template}"


def question_of(sample: Sample) -> str:
    """The question a sample asks: its id, or, where one question is asked under several
    prompt templates (one sample each), the id they share (``QUESTION_LABEL``)."""
    return str(sample.meta.get(QUESTION_LABEL, sample.id))
