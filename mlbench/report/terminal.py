"""The report in the terminal: per task and model, a row per language and a column per
headline metric, each cell the mean with the stars of a significant gap.

A terminal has room for neither the intervals nor the gaps, nor for one column per
language once a benchmark has 23 of them: languages go down the rows, so any number of
them fits 80 columns, and the caption says where the rest is (the report files).
"""

from __future__ import annotations

from rich import box
from rich.table import Table

from mlbench.report.build import ReportTable
from mlbench.report.cells import INTERVAL_LABEL, cell_notes, is_missing, lang_label, stars
from mlbench.results.tables import format_number

# Columns of one table: more headline metrics than this are left to the files.
MAX_METRICS = 5


def _cell_text(table: ReportTable, model: str, lang: str) -> str:
    cell = table.cell(model, lang)
    if cell is None or is_missing(cell):
        return "n/a" if cell is not None else ""
    gap = cell.gap
    marker = stars(gap.p_holm) if gap else ""
    if gap is not None and marker and not gap.paired:
        marker += "u"
    return f"{format_number(table.descriptor, cell.value.value)}{marker}"


def caption(tables: list[ReportTable], ref_lang: str) -> str:
    """Printed once under the tables: what the stars are, and where the intervals and gaps are."""
    shown = [t for t in tables if t.headline]
    notes = list(dict.fromkeys(note for t in shown for note in cell_notes(t)))
    left_out = len(tables) - len(_shown_per_task(tables))
    parts = [
        f"Means. *: gap vs {ref_lang} significant (McNemar for yes/no outcomes, Wilcoxon signed-rank "
        "otherwise; Holm over the languages; ** p<0.01, *** p<0.001; u: unpaired).",
        f"These tests do not test the mean difference, so a star can disagree with the gap's {INTERVAL_LABEL}:",
        "--format md|html|latex|csv|json writes every metric with its interval, gap and Holm-adjusted p.",
    ]
    if left_out:
        parts.append(f"{left_out} more metric table(s) there too.")
    return " ".join([*parts, *notes])


def _shown_per_task(tables: list[ReportTable]) -> list[ReportTable]:
    shown: list[ReportTable] = []
    for task in dict.fromkeys(t.task for t in tables):
        shown += [t for t in tables if t.task == task and t.headline][:MAX_METRICS]
    return shown


def render(tables: list[ReportTable]) -> list[Table]:
    """One table per task and model; ``caption`` is what goes under all of them."""
    rendered = []
    shown_all = _shown_per_task(tables)
    for task in dict.fromkeys(t.task for t in tables):
        mine = [t for t in tables if t.task == task]
        shown = [t for t in shown_all if t.task == task]
        langs = list(dict.fromkeys(lang for t in mine for lang in t.langs))
        for model in dict.fromkeys(m for t in mine for m in t.rows):
            title = f"{task} · {model}"
            out = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, min_width=min(len(title), 80))
            out.add_column("lang", no_wrap=True)
            out.add_column("n", justify="right", no_wrap=True)
            for table in shown:
                out.add_column(table.metric, justify="right", no_wrap=True)
            ns = {lang: cell.n for t in shown if model in t.rows for lang, cell in t.rows[model].items()}
            for lang in langs:
                texts = [_cell_text(t, model, lang) if model in t.rows and lang in t.langs else "" for t in shown]
                if any(texts):
                    out.add_row(lang_label(lang), str(ns.get(lang, "")), *texts)
            rendered.append(out)
    return rendered
