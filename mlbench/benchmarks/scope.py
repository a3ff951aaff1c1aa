"""Each aligned question's ``scope``: whether TruthfulQA's row it translates is universal
or local in the TruthfulQA-Multi authors' split (scope_map.py). A label of the row, not of
a benchmark: every benchmark whose loader finds TruthfulQA's rows gets it, so ``report
--by scope`` cuts any translation the same way."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mlbench.benchmarks.base import LanguageData, Task
from mlbench.benchmarks.scope_map import ScopeMap, not_at_hand, scope_map
from mlbench.data.alignment import SCOPE_LABEL, TQA_INDEX_LABEL, row_of
from mlbench.data.source import DataSource
from mlbench.records import Sample


@dataclass(frozen=True)
class Labelled:
    """A language's data with the labels derived from TruthfulQA's rows, and what could not
    be derived: ``unknown`` names the labels this run cannot know (its source not at hand),
    which a resumed run keeps as saved; ``note`` says so to the user."""

    data: LanguageData
    note: str | None = None
    unknown: tuple[str, ...] = ()


def label_scope(task: Task, data: LanguageData, source: DataSource) -> Labelled:
    """``data`` with the scope of each sample that names a TruthfulQA row."""
    alignment = task.alignment
    if alignment is None or not alignment.aligned:
        return Labelled(data)
    rows = [row_of(sample.meta) for sample in data.samples]
    # The map gives VeritasQA's rows only from its release (the hub's, or a copy of it);
    # the sample set and a --data-file are questions of one's own.
    rows_from_map = alignment.from_scope_map and source.kind in ("hub", "local")
    if not rows_from_map and not any(rows):
        return Labelled(data)
    found = scope_map(source)
    if found is None:
        if rows_from_map:  # VeritasQA's questions are universal, map or not: their rows are what is lost
            return Labelled(data, f"{task.name}: its questions carry no TruthfulQA row: {not_at_hand(source)}",
                            (TQA_INDEX_LABEL,))  # fmt: skip
        return Labelled(data, f"{task.name}: its questions carry no scope (universal/local): {not_at_hand(source)}",
                        (SCOPE_LABEL,))  # fmt: skip
    return Labelled(replace(data, samples=[_scoped(s, row, found) for s, row in zip(data.samples, rows)]))


def _scoped(sample: Sample, row: str | None, found: ScopeMap) -> Sample:
    if row is None or SCOPE_LABEL in sample.meta:  # a benchmark's own scope (VeritasQA's) stands
        return sample
    return replace(sample, meta={**sample.meta, SCOPE_LABEL: found.scope(row)})
