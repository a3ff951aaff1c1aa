"""One identity for a question across the translations of TruthfulQA: its row in
TruthfulQA's validation set, counted from 0 (``tqa_index``).

TruthfulQA-Multi, its machine-translated twin, TruthfulQA-X, Okapi, NorTruthfulQA and
AraDiCE each translate some or all of TruthfulQA's 817 questions under ids of their own.
A benchmark that can tell which row of TruthfulQA a question is labels its samples with
it (``Sample.meta``, kept with each sample like the data's other labels), and
``mlbench report --align tqa_index`` pairs questions across benchmarks by it. How each
benchmark derives it, or why it cannot, is its ``Alignment``, shown by ``mlbench tasks``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlbench.errors import MlbenchError

TQA_INDEX_LABEL = "tqa_index"
TRUTHFULQA_ROWS = 817
# The labels that say which question a sample is across benchmarks, not a slice of the
# questions: ``report --by`` does not offer them (817 slices of one question each).
ALIGN_LABELS = (TQA_INDEX_LABEL,)


@dataclass(frozen=True)
class Alignment:
    """How a benchmark's questions map to TruthfulQA's rows, in one line for ``mlbench
    tasks NAME``; ``aligned`` False: they cannot be, and ``how`` says why."""

    how: str
    aligned: bool = True


def tqa_index(value: object, offset: int, where: str) -> str:
    """TruthfulQA's row of a question whose data gives ``value`` (a whole number, or its
    digits as text) at ``offset`` from it (TruthfulQA-Multi's ids count from 1: offset
    -1). A value that is no such row is refused: a wrong index would pair a question with
    another language's different question, silently."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MlbenchError(f"{where}: TruthfulQA's row cannot be read from {type(value).__name__} {value!r}")
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise MlbenchError(f"{where}: TruthfulQA's row cannot be read from {text[:40]!r} (a whole number)")
    index = int(text) + offset
    if not 0 <= index < TRUTHFULQA_ROWS:
        raise MlbenchError(
            f"{where}: {text} is no TruthfulQA row (rows 0-{TRUTHFULQA_ROWS - 1} after an offset of {offset})"
        )
    return str(index)
