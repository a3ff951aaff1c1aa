"""A question's labels in a benchmark file: ``[labels]``, the data's columns kept with
each sample for ``report --by`` and the explorer; and ``[align]``, which of TruthfulQA's
rows the question is (``data/alignment.py``), so that ``mlbench report --align
tqa_index`` can pair it with the same question in another translation.

    [align]
    tqa_index = "id"   # the column that holds TruthfulQA's row
    offset = 0         # added to it: -1 where the data counts rows from 1

or, for a translation of TruthfulQA whose rows cannot be matched to it,

    [align]
    unaligned = "why, in one sentence"

and, either way, ``translation = "human"`` or ``"machine"`` where the authors say how the
rows were translated (the TruthfulQA-Multi authors' chi-square expects a human one's counts).

which ``mlbench tasks NAME`` shows, so that nobody looks for an alignment that is not there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mlbench.benchmarks.declarative.fields import known, text
from mlbench.data.alignment import TQA_INDEX_LABEL, TRANSLATIONS, TRUTHFULQA_ROWS, Alignment, tqa_index
from mlbench.data.tabular import column_value
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject

KEYS = (TQA_INDEX_LABEL, "offset", "unaligned", "translation")
_LABEL = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class AlignRule:
    column: str = ""  # the column of TruthfulQA's row; empty: the rows are not aligned
    offset: int = 0
    unaligned: str = ""  # why they cannot be, for ``mlbench tasks``
    translation: str = ""  # "human" or "machine", where the file says (``Alignment.translation``)

    @property
    def alignment(self) -> Alignment:
        if not self.column:
            return Alignment(f"cannot be aligned: {self.unaligned}", aligned=False, translation=self.translation)
        shift = f" {'+' if self.offset > 0 else '-'} {abs(self.offset)}" if self.offset else ""
        return Alignment(f"TruthfulQA's row = the column {self.column}{shift}", translation=self.translation)

    def label(self, row: JsonObject, where: str) -> dict[str, str]:
        """The row's ``tqa_index`` label; a row without the column is refused (its
        question would drop out of every aligned comparison without a word)."""
        if not self.column:
            return {}
        found, value = column_value(row, self.column)
        if not found or value is None:
            raise MlbenchError(f"{where}: no {self.column!r} (align.tqa_index): TruthfulQA's row of this question")
        return {TQA_INDEX_LABEL: tqa_index(value, self.offset, where)}


def read_labels(path: Path, table: dict[str, object]) -> tuple[tuple[str, str], ...]:
    """``[labels]``: names (lower case, as `report --by` takes them) and their columns."""
    for name in table:
        if not _LABEL.fullmatch(name) or name in ("template", "question_id", "group", TQA_INDEX_LABEL):
            reserved = "template, question_id, group, tqa_index ([align])"
            raise MlbenchError(f"{path}: labels.{name}: a label is a lower-case name other than {reserved}")
    return tuple((name, text(path, f"labels.{name}", column)) for name, column in table.items())


def read_align(path: Path, table: dict[str, object]) -> AlignRule | None:
    """``[align]`` as a rule; None where the file has no such table."""
    if not table:
        return None
    known(path, "align", table, KEYS)
    if ("unaligned" in table) == (TQA_INDEX_LABEL in table):
        raise MlbenchError(f"{path}: [align] takes either tqa_index (a column) or unaligned (why not), one of them")
    translation = table.get("translation", "")
    if "translation" in table and translation not in TRANSLATIONS:
        raise MlbenchError(
            f"{path}: align.translation is one of {', '.join(TRANSLATIONS)} (how the rows were translated)"
        )
    if "unaligned" in table:
        if "offset" in table:
            raise MlbenchError(f"{path}: align.offset goes with align.tqa_index, not with unaligned")
        return AlignRule(unaligned=text(path, "align.unaligned", table["unaligned"]), translation=str(translation))
    offset = table.get("offset", 0)
    if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) >= TRUTHFULQA_ROWS:
        raise MlbenchError(f"{path}: align.offset must be a whole number between -816 and 816")
    return AlignRule(text(path, "align.tqa_index", table[TQA_INDEX_LABEL]), offset, translation=str(translation))
