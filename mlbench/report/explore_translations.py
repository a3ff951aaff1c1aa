"""The explorer's aligned view: the questions of every TruthfulQA translation the runs
hold, keyed by TruthfulQA's row (``tqa_index``), with a language of one benchmark as a
column (``es (truthfulqa_multi)`` beside ``es (truthfulqa_multi_mt)``), so that the
questions whose outcome flips between two translations of one language can be found:
that is where translation errors live.

The view is made only where a model answered one language in two or more benchmarks:
without two translations of a language there is nothing to set side by side, and the
page would hold the same questions twice for nothing. Its cells are the benchmarks' own
cells, named by where they are (``Place``): the page holds each once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mlbench.report.alignment import column_name


@dataclass(frozen=True)
class Place:
    """Where a cell sits in its benchmark's own view: the task, the question's id, and
    the cell's index among that question's cells."""

    task: str
    question: str
    index: int


@dataclass(frozen=True)
class RowCell:
    """A cell whose sample carries TruthfulQA's row: by which model, in which language."""

    model: int
    lang: str
    row: str
    place: Place


@dataclass
class Aligned:
    """The aligned view's shape: its columns in order, the columns of each language that
    has two or more translations, each row's cells as (column, place), and one line per
    language of a run left out."""

    columns: list[str] = field(default_factory=list)
    translations: dict[str, list[str]] = field(default_factory=dict)
    rows: dict[str, list[tuple[str, Place]]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def align(cells: list[RowCell], models: list[str]) -> Aligned | None:
    """The aligned view of ``cells`` (in the order the runs were read: each benchmark's
    languages in its own order, en first), None where no model answered a language in
    two benchmarks. A language of a run in which one row names two questions (a run
    under several templates) is left out with a line: its cells cannot share a column."""
    groups: dict[tuple[int, str, str], list[RowCell]] = {}
    for cell in cells:
        groups.setdefault((cell.model, cell.place.task, cell.lang), []).append(cell)
    aligned = Aligned()
    kept: list[RowCell] = []
    for (model, task, lang), group in groups.items():
        repeated = [row for row, times in Counter(c.row for c in group).items() if times > 1]
        if repeated:
            aligned.skipped.append(
                f"{models[model]} · {task} · {lang}: {len(repeated)} tqa_index value(s) name two questions "
                f"(e.g. {repeated[0]}): left out of the aligned view"
            )
        else:
            kept += group
    benchmarks: dict[tuple[int, str], set[str]] = {}
    for cell in kept:
        benchmarks.setdefault((cell.model, cell.lang), set()).add(cell.place.task)
    doubled = {lang for (_, lang), tasks in benchmarks.items() if len(tasks) > 1}
    if not doubled:
        return None
    # A language's columns side by side, languages in the order first read.
    by_lang: dict[str, list[str]] = {}
    for cell in kept:
        names = by_lang.setdefault(cell.lang, [])
        name = column_name(cell.lang, cell.place.task)
        if name not in names:
            names.append(name)
    aligned.columns = [name for names in by_lang.values() for name in names]
    aligned.translations = {lang: names for lang, names in by_lang.items() if lang in doubled}
    for cell in sorted(kept, key=_row_order):  # stable: each row's cells keep their order
        aligned.rows.setdefault(cell.row, []).append((column_name(cell.lang, cell.place.task), cell.place))
    return aligned


def _row_order(cell: RowCell) -> tuple[bool, int, str]:
    """TruthfulQA's order; a row that is no number (a hand-edited file) after the rest."""
    digits = cell.row.isascii() and cell.row.isdigit()
    return not digits, int(cell.row) if digits else 0, cell.row
