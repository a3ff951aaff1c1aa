"""The report in the terminal: per task, a row per model and metric, a column per
language, each cell the value with its interval and the stars of a significant gap."""

from __future__ import annotations

from rich.table import Table

from mlbench.report.build import ReportTable
from mlbench.report.cells import stars, value_text


def _cell_text(table: ReportTable, model: str, lang: str) -> str:
    cell = table.cell(model, lang)
    if cell is None:
        return "n/a"
    gap = cell.gap
    marker = stars(gap.p_holm) if gap else ""
    if gap is not None and marker and not gap.paired:
        marker += "u"
    return f"{value_text(table.metric, cell)}{marker}"


def render(tables: list[ReportTable], ref_lang: str) -> list[Table]:
    rendered = []
    for task in dict.fromkeys(t.task for t in tables):
        mine = [t for t in tables if t.task == task]
        langs = list(dict.fromkeys(lang for t in mine for lang in t.langs))
        out = Table(
            title=f"mlbench report · {task}: mean [95% CI]",
            title_justify="left",
            caption=f"* gap vs {ref_lang} significant after Holm (** p<0.01, *** p<0.001; u: unpaired); "
            "--format md|html|latex|csv|json writes the gaps",
            caption_justify="left",
        )
        out.add_column("model", no_wrap=True, overflow="fold")
        out.add_column("metric", no_wrap=True)
        for lang in langs:
            out.add_column(lang, justify="right")
        for model in dict.fromkeys(m for t in mine for m in t.rows):
            shown = model
            for table in mine:
                if model not in table.rows:
                    continue
                texts = [_cell_text(table, model, lang) if lang in table.langs else "" for lang in langs]
                out.add_row(shown, table.metric, *texts)
                shown = ""
            ns = {lang: cell.n for t in mine if model in t.rows for lang, cell in t.rows[model].items()}
            out.add_row("", "n", *(str(ns[lang]) if lang in ns else "" for lang in langs), end_section=True)
        rendered.append(out)
    return rendered
