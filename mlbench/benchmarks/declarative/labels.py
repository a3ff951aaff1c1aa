"""A question's labels in a benchmark file: ``[labels]``, the data's columns kept with
each sample for ``report --by`` and the explorer; and ``[align]``, which of TruthfulQA's
rows the question is (``data/alignment.py``), so that ``mlbench report --align
tqa_index`` can pair it with the same question in another translation.

    [align]
    tqa_index = "id"   # the column that holds TruthfulQA's row
    offset = 0         # added to it: -1 where the data counts rows from 1

or, for a benchmark whose rows carry no such row but whose English questions are TruthfulQA's,

    [align]
    english = "en"     # its language whose question, matched exactly against TruthfulQA's
                       # English, gives the row of every language's question of that id

or, for a translation of TruthfulQA whose rows cannot be matched to it,

    [align]
    unaligned = "why, in one sentence"

and, either way, ``translation = "human"`` or ``"machine"`` where the authors say how the
rows were translated (the TruthfulQA-Multi authors' chi-square expects a human one's counts),
and ``translator = "DeepL"`` where they say by whom or with what.

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

KEYS = (TQA_INDEX_LABEL, "offset", "unaligned", "english", "translation", "translator")
_LABEL = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class AlignRule:
    column: str = ""  # the column of TruthfulQA's row; empty: the rows are not aligned
    offset: int = 0
    unaligned: str = ""  # why they cannot be, for ``mlbench tasks``
    translation: str = ""  # "human" or "machine", where the file says (``Alignment.translation``)
    translator: str = ""  # by whom or with what (``Alignment.translator``)
    english: str = ""  # the language matched against TruthfulQA's English (benchmarks/english_match.py)

    @property
    def alignment(self) -> Alignment:
        if self.english:
            how = (
                f"TruthfulQA's row by the question of the same id in {self.english}, matched exactly against "
                "TruthfulQA's English (truthfulqa_multi en); each run says how many match"
            )
        elif not self.column:
            how = f"cannot be aligned: {self.unaligned}"
        else:
            shift = f" {'+' if self.offset > 0 else '-'} {abs(self.offset)}" if self.offset else ""
            how = f"TruthfulQA's row = the column {self.column}{shift}"
        aligned = bool(self.english or self.column)
        return Alignment(how, aligned, self.translation, self.translator, english=self.english)

    def label(self, row: JsonObject, where: str) -> dict[str, str]:
        """The row's ``tqa_index`` label; a row without the column is refused (its
        question would drop out of every aligned comparison without a word)."""
        if not self.column:
            return {}  # unaligned, or aligned by English questions after the rows are read
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
    if sum(key in table for key in (TQA_INDEX_LABEL, "unaligned", "english")) != 1:
        raise MlbenchError(
            f"{path}: [align] takes one of tqa_index (a column), english (a language whose questions are "
            "TruthfulQA's) and unaligned (why not)"
        )
    translation = table.get("translation", "")
    if "translation" in table and translation not in TRANSLATIONS:
        raise MlbenchError(
            f"{path}: align.translation is one of {', '.join(TRANSLATIONS)} (how the rows were translated)"
        )
    translator = text(path, "align.translator", table["translator"]) if "translator" in table else ""
    if translator and not translation:
        raise MlbenchError(f"{path}: align.translator goes with align.translation (human or machine)")
    if "offset" in table and TQA_INDEX_LABEL not in table:
        raise MlbenchError(f"{path}: align.offset goes with align.tqa_index")
    if "english" in table:
        return AlignRule(english=text(path, "align.english", table["english"]), translation=str(translation),
                         translator=translator)  # fmt: skip
    if "unaligned" in table:
        why = text(path, "align.unaligned", table["unaligned"])
        return AlignRule(unaligned=why, translation=str(translation), translator=translator)
    offset = table.get("offset", 0)
    if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) >= TRUTHFULQA_ROWS:
        raise MlbenchError(f"{path}: align.offset must be a whole number between -816 and 816")
    column = text(path, "align.tqa_index", table[TQA_INDEX_LABEL])
    return AlignRule(column, offset, translation=str(translation), translator=translator)
