"""A task's metrics as two tables of text, the same for every format that shows them so:
its scores (a row per metric, and per model where several answered; a column per
language) and its gaps to the reference language (a row per metric and model whose gaps
were tested; each cell the gap with its interval and its Holm-adjusted p).

Instead of a value table and a gap table per metric, each under the same notes: the
notes go to a ``Notes`` (``notes.py``) once, and the cells refer to them. A cell's n is
shown only where it differs from the n most cells of the task share (``TaskRows.n``,
named once in the caption).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mlbench.report.build import ReportTable
from mlbench.report.cells import (
    PAIRED_MARK,
    PAIRED_MEANING,
    define_test,
    gap_cell,
    gap_definition,
    lang_label,
    metric_heading,
    paired_n,
    untested_reason,
    used_tests,
    value_text,
    with_paired_n,
)
from mlbench.report.gaps import TEST_NAMES
from mlbench.report.notes import Notes
from mlbench.results.tables import LOW_RESOURCE_MARK

# A cell of a language that has no value of a metric at all (not run, or not measured
# there): ``n/a``, as table.md and the run summary write it; a value that was measured but
# could not be computed is ``n/a`` too, with a numbered note that says why.
ABSENT = "n/a"
ABSENT_NOTE = (
    "no value: the language was not run or the metric is not measured in it "
    "(a numbered note after n/a says why a value could not be computed)"
)


@dataclass
class TaskRows:
    task: str
    langs: list[str]  # every language of the task's metrics, the reference language first
    models: list[str]
    n: int | None  # the n most cells share; a cell with another n shows its own
    head: list[str]  # the label columns of ``values`` (metric, and model where several)
    values: list[list[str]]
    gap_head: list[str]  # of ``gaps``: metric, [model,] test
    gaps: list[list[str]]  # a cell per language but the reference language
    untested: list[str] = field(default_factory=list)  # "metric (why)" of rows with no gap
    tables: list[ReportTable] = field(default_factory=list)
    others: list[str] = field(default_factory=list)  # the gaps' languages: all but the reference
    ref_lang: str = ""  # the reference of the task's tables


def task_rows(tables: list[ReportTable], notes: Notes) -> list[TaskRows]:
    """A ``TaskRows`` per task of ``tables`` (in their order), its notes put into ``notes``."""
    by_task: dict[str, list[ReportTable]] = {}
    for table in tables:
        by_task.setdefault(table.task, []).append(table)
    return [_rows(task, mine, notes) for task, mine in by_task.items()]


def _languages(tables: list[ReportTable]) -> list[str]:
    """The languages of every table, in the order of the table that has the most (each
    table's own order: the reference language first, then the task's), others after."""
    widest = max(tables, key=lambda t: len(t.langs))
    langs = list(widest.langs)
    for table in tables:
        langs += [lang for lang in table.langs if lang not in langs]
    return langs


def _common_n(tables: list[ReportTable]) -> int | None:
    counts = Counter(cell.n for t in tables for cells in t.rows.values() for cell in cells.values())
    return counts.most_common(1)[0][0] if counts else None


def _rows(task: str, tables: list[ReportTable], notes: Notes) -> TaskRows:
    langs = _languages(tables)
    models = list(dict.fromkeys(model for t in tables for model in t.rows))
    several = len(models) > 1
    n = _common_n(tables)
    ref_lang = tables[0].ref_lang
    others = [lang for lang in langs if lang != ref_lang]
    if any(lang_label(lang) != lang for lang in langs):
        notes.mark(LOW_RESOURCE_MARK, "low-resource language")
    values: list[list[str]] = []
    gaps: list[list[str]] = []
    untested: list[str] = []
    gapped = ""  # the metric of the last gap row
    for table in tables:
        name = metric_heading(table)
        for i, model in enumerate(m for m in models if m in table.rows):
            label = [name if i == 0 else "", *([model] if several else [])]
            values.append([*label, *(_value(table, model, lang, n, notes) for lang in langs)])
            if not others:
                continue  # one language only: nothing to compare it with, so no gap row and no gap note
            why = untested_reason(table, model)
            if why is not None:
                untested.append(f"{table.metric}{f' · {model}' if several else ''} ({why})")
                continue
            notes.ref(gap_definition(ref_lang))  # numbered before the tests it speaks of
            tests = used_tests(table, model)
            test = ", ".join(f"{TEST_NAMES.get(t, t)} {notes.ref(define_test(t))}" for t in tests)
            # The metric named on its first row only, as in the scores.
            row_label = ["" if gapped == table.metric else table.metric, *([model] if several else [])]
            gaps.append([*row_label, test, *(_gap(table, model, lang, notes) for lang in others)])
            gapped = table.metric
    head = ["metric", *(["model"] if several else [])]
    gap_head = [*head, "test"]
    return TaskRows(task, langs, models, n, head, values, gap_head, gaps, untested, tables, others, ref_lang)


def _value(table: ReportTable, model: str, lang: str, n: int | None, notes: Notes) -> str:
    cell = table.cell(model, lang)
    if cell is None:
        return notes.mark(ABSENT, ABSENT_NOTE)
    text = value_text(table.descriptor, cell)
    if cell.missing:
        text += " " + notes.ref(f"n/a: {cell.missing.rstrip('.')}.")
    return text if cell.n == n else f"{text} (n={cell.n})"


def _gap(table: ReportTable, model: str, lang: str, notes: Notes) -> str:
    if table.cell(model, lang) is None:
        return notes.mark(ABSENT, ABSENT_NOTE)
    if paired_n(table, table.cell(model, lang)):
        notes.mark(PAIRED_MARK, PAIRED_MEANING)
    return with_paired_n(gap_cell(table.descriptor, table.gap(model, lang)), table, table.cell(model, lang))
