"""Each question's value of each metric in one language, as arrays: the report pairs two
languages once (which rows hold the same question) and then compares every metric with
array arithmetic, which keeps hundreds of runs under a second.

>>> en = QuestionValues.from_columns(["q2", "q1"], {"mc1": [1.0, None]})
>>> en.ids, en.mapping("mc1")
(['q1', 'q2'], {'q2': 1.0})
>>> eu = QuestionValues.from_columns(["q1", "q2", "q3"], {"mc1": [0.0, 0.0, 1.0]})
>>> [p.tolist() for p in en.align(eu)]
[[0, 1], [0, 1]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass
class QuestionValues:
    ids: list[str]  # sorted, so that every reader pairs and resamples in the same order
    columns: dict[str, np.ndarray] = field(default_factory=dict)  # metric → values, NaN: none

    @classmethod
    def from_columns(cls, ids: Sequence[str], columns: Mapping[str, Sequence[float | None]]) -> QuestionValues:
        ids = [str(q) for q in ids]
        arrays = {name: np.array(column, dtype=float) for name, column in columns.items()}  # None → NaN
        if any(a < b for a, b in zip(ids[1:], ids)):
            order = sorted(range(len(ids)), key=ids.__getitem__)
            ids = [ids[i] for i in order]
            arrays = {name: values[order] for name, values in arrays.items()}
        return cls(ids, arrays)

    def __contains__(self, metric: str) -> bool:
        return metric in self.columns

    def count(self, metric: str) -> int:
        """Questions with a value of ``metric``."""
        return int(np.count_nonzero(~np.isnan(self.columns[metric]))) if metric in self.columns else 0

    def mapping(self, metric: str) -> dict[str, float]:
        """Question id → value, for the questions that have one."""
        values = self.columns.get(metric)
        if values is None:
            return {}
        return {q: float(v) for q, v in zip(self.ids, values) if not np.isnan(v)}

    def align(self, other: QuestionValues) -> tuple[np.ndarray, np.ndarray]:
        """Row positions of the questions both languages have, in id order: ``self``'s
        rows, then ``other``'s."""
        if self.ids == other.ids:
            rows = np.arange(len(self.ids))
            return rows, rows
        theirs = {q: i for i, q in enumerate(other.ids)}
        pairs = [(i, theirs[q]) for i, q in enumerate(self.ids) if q in theirs]
        if not pairs:
            return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
        mine, their = zip(*pairs)
        return np.array(mine), np.array(their)
