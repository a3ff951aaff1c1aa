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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.records.budgets import shown

TQA_INDEX_LABEL = "tqa_index"
# Whether TruthfulQA's row is a universal question or a local one (benchmarks/scope_map.py).
SCOPE_LABEL = "scope"
TRUTHFULQA_ROWS = 817
TRANSLATIONS = ("human", "machine")  # the kinds a benchmark may say its translation is
# The labels that say which question a sample is across benchmarks, not a slice of the
# questions: ``report --by`` does not offer them (817 slices of one question each).
PAIRING_LABELS = (TQA_INDEX_LABEL,)
# The labels that follow from TruthfulQA's row, not from a benchmark's prompt: outside the
# data hash, and brought up to date in saved samples when the data gives others (realign).
ALIGN_LABELS = (TQA_INDEX_LABEL, SCOPE_LABEL)


@dataclass(frozen=True)
class Alignment:
    """How a benchmark's questions map to TruthfulQA's rows, in one line for ``mlbench
    tasks NAME``; ``aligned`` False: they cannot be, and ``how`` says why."""

    how: str
    aligned: bool = True
    # How the questions were translated, where the authors say: "human" or "machine" ("":
    # not said). The TruthfulQA-Multi authors' chi-square takes a human translation's
    # counts as the expected ones (report/translations.py); results.json records it.
    translation: str = ""
    # By whom or with what, where the authors say ("professional translators", "DeepL").
    translator: str = ""
    # Whether the rows come from the TruthfulQA-Multi authors' universal/local map
    # (VeritasQA's): without the map at hand, such a benchmark runs unaligned, and is told so.
    from_scope_map: bool = False
    # The language whose questions are TruthfulQA's English ones, matched exactly to give
    # every language's question of that id its row (benchmarks/english_match.py); "": none.
    english: str = ""


def translation_text(alignment: Alignment | None) -> str:
    """How a benchmark was translated, in a few words (``machine (DeepL)``); "" unsaid."""
    if alignment is None or not alignment.translation:
        return ""
    return f"{alignment.translation} ({alignment.translator})" if alignment.translator else alignment.translation


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
        shifted = f"{text} {'+' if offset > 0 else '-'} {abs(offset)} = {index}" if offset else text
        raise MlbenchError(
            f"{where}: {shifted} is no TruthfulQA row (rows 0-{TRUTHFULQA_ROWS - 1}, the value plus its offset)"
        )
    return str(index)


def row_of(meta: Mapping[str, object]) -> str | None:
    """The TruthfulQA row a question's labels (``Sample.meta``, a record's ``labels``)
    name; None where they name none."""
    row = meta.get(TQA_INDEX_LABEL)
    return None if row in (None, "") else str(row)


def aligned_labels(meta: Mapping[str, object]) -> dict[str, str]:
    """The labels of ``meta`` that say which question it is across benchmarks, as a
    sample's record keeps them (``Task.sample_labels``)."""
    return {name: str(meta[name]) for name in ALIGN_LABELS if meta.get(name) not in (None, "")}


def draw_name(row: str) -> str:
    """What ``--limit`` ranks a question of TruthfulQA's ``row`` by (``data.source.subset``):
    the id TruthfulQA-Multi gives that row (row + 1). Every aligned benchmark ranks its
    rows alike, so translations limited alike answer the same questions; and a limited
    TruthfulQA-Multi run, ranked by these ids before rows were known, draws what it drew."""
    return str(int(row) + 1)


def check_rows_once(rows: Iterable[tuple[str, str]], where: str) -> None:
    """Refuse a language in which two questions name one TruthfulQA row: ``rows`` is
    (question id, its row) for each question that names one. Paired by row, the two would
    stand for one question and the language could not be aligned at all."""
    seen: dict[str, str] = {}
    for question, row in rows:
        first = seen.setdefault(row, question)
        if first != question:
            raise MlbenchError(
                f"{where}: questions {shown(first)} and {shown(question)} both name TruthfulQA row {row} "
                f"({TQA_INDEX_LABEL}); a row is one question, so fix the data or its [align] rule"
            )


@dataclass(frozen=True)
class Realigned:
    """What ``realign`` did to a language's saved samples: ``labelled`` had no row (saved
    before rows were derived) and now have one; ``moved`` named another row than the data
    now derives (an ``[align]`` edited since), or one where it now derives none;
    ``scoped`` kept their row and got another scope (saved before the map was read)."""

    labelled: int = 0
    moved: int = 0
    example: str = ""  # one moved sample, for the note: "12: row 12, now 11"
    scoped: int = 0

    def __bool__(self) -> bool:
        return bool(self.labelled or self.moved or self.scoped)

    def line(self, where: str) -> str:
        parts = []
        if self.moved:
            parts.append(f"{self.moved:,} saved sample(s) named other TruthfulQA rows than the data now gives "
                         f"(e.g. {self.example}): their rows updated")  # fmt: skip
        if self.labelled:
            parts.append(f"{self.labelled:,} saved sample(s) given the TruthfulQA row the data now gives")
        if self.scoped:
            parts.append(f"{self.scoped:,} saved sample(s) given the {SCOPE_LABEL} (universal/local) of their row")
        return f"{where}: {'; '.join(parts)}; their scores kept (a question's row is not part of its prompt)"


def realign(saved: Mapping[str, SampleRecord], derived: Mapping[str, dict[str, str]]) -> Realigned:
    """Give each saved sample the alignment labels its question now derives (``derived``:
    sample id → those labels, empty where none), in place. A resumed run keeps what the
    model answered, but the rows it is paired by are the data's as read now."""
    labelled = moved = scoped = 0
    example = ""
    for sample_id, labels in derived.items():
        record = saved.get(sample_id)
        if record is None:
            continue
        had = {name: record.labels[name] for name in ALIGN_LABELS if name in record.labels}
        if had == labels:
            continue
        row_had, row_now = had.get(TQA_INDEX_LABEL), labels.get(TQA_INDEX_LABEL)
        if row_had == row_now:
            scoped += 1
        elif row_had is not None:
            moved += 1
            example = example or f"{shown(sample_id)}: row {row_had}, now {row_now or 'none'}"
        else:
            labelled += 1
        record.labels = {**{k: v for k, v in record.labels.items() if k not in ALIGN_LABELS}, **labels}
    return Realigned(labelled, moved, example, scoped)
