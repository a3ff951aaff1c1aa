"""The report as one HTML file: every table, the figures embedded as PNG data, and the
runs' configs in collapsible blocks. No script and no outside asset: it opens offline
and can be mailed or attached as it is."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from html import escape

from mlbench.report.build import ReportTable
from mlbench.report.cells import (
    GAP_ROW,
    LEGEND,
    P_ROW,
    cell_notes,
    gap_text,
    gaps_heading,
    gaps_note,
    lang_label,
    p_cell,
    p_text,
    test_label,
    value_text,
)
from mlbench.report.collect import Collection

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 110rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.2rem; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
td.significant { font-weight: bold; background: #fff4d6; }
td .n { color: #666; font-size: 0.75rem; }
td.label { text-align: left; color: #555; }
img { max-width: 100%; display: block; margin: 0.5rem 0 1rem; }
pre { background: #f7f7f7; padding: 0.6rem; overflow-x: auto; font-size: 0.75rem; }
.legend, .note { color: #444; font-size: 0.85rem; }
"""


def _row(cells: list[str], header: bool = False) -> str:
    tag = "th" if header else "td"
    return "<tr>" + "".join(c if c.startswith("<t") else f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def _values_table(table: ReportTable) -> str:
    head = _row(["model", *(escape(lang_label(lang)) for lang in table.langs)], header=True)
    body = []
    for model, cells in table.rows.items():
        row = [escape(model)]
        for lang in table.langs:
            cell = cells.get(lang)
            if cell is None:
                row.append("n/a")
            elif cell.missing:
                row.append(f'<td title="{escape(cell.missing, quote=True)}">n/a <span class="n">n={cell.n}</span></td>')
            else:
                row.append(f'{escape(value_text(table.descriptor, cell))} <span class="n">n={cell.n}</span>')
        body.append(_row(row))
    return f'<table class="values"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def _gaps_table(table: ReportTable) -> str:
    """Two rows per model: the gaps with their unadjusted CIs, then the Holm-adjusted p
    (bold where significant), each cell's test, raw p and n in its tooltip."""
    others = [lang for lang in table.langs if lang != table.ref_lang]
    head = _row(["model", "", *(escape(lang_label(lang)) for lang in others)], header=True)
    body = []
    for model, cells in table.rows.items():
        gap_row = [escape(model), f'<td class="label">{escape(GAP_ROW)}</td>']
        p_row = ["", f'<td class="label">{escape(P_ROW)}</td>']
        for lang in others:
            cell = cells.get(lang)
            gap = cell.gap if cell else None
            if gap is None:
                gap_row.append("n/a")
                p_row.append("n/a")
                continue
            detail = f"{test_label(gap)}, p={p_text(gap.p)}, Holm p={p_text(gap.p_holm)}, n={gap.n}"
            title = escape(f"{detail}. {gap.note}".strip(), quote=True)
            css = ' class="significant"' if gap.significant else ""
            gap_row.append(f'<td title="{title}">{escape(gap_text(table.descriptor, gap))}</td>')
            p_row.append(f'<td{css} title="{title}">{escape(p_cell(gap))}</td>')
        body += [_row(gap_row), _row(p_row)]
    return f'<table class="gaps"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def to_html(
    tables: list[ReportTable],
    collection: Collection,
    *,
    ref_lang: str,
    figures: Mapping[str, list[bytes]],
) -> str:
    """``figures`` maps a table's title to its PNG images."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>mlbench report</title>',
        f"<style>{STYLE}</style></head><body>",
        "<h1>mlbench report</h1>",
        f"<p>Reference language: <strong>{escape(ref_lang)}</strong>. Values are means with bootstrap 95% CIs.</p>",
        f'<p class="legend">{escape(LEGEND)}</p>',
    ]
    task = None
    for table in tables:
        if table.task != task:
            task = table.task
            parts.append(f"<h2>{escape(task)}</h2>")
        parts.append(f"<h3>{escape(table.metric)}</h3>")
        parts.append(_values_table(table))
        parts += [f'<p class="note">{escape(note)}</p>' for note in cell_notes(table)]
        if table.per_question and len(table.langs) > 1:
            parts.append(f"<p>{escape(gaps_heading(table))}:</p>")
            parts.append(_gaps_table(table))
            parts.append(f'<p class="note">{escape(gaps_note(table))}</p>')
        elif not table.per_question:
            parts.append("<p>No per-question values (a pooled metric): no gaps tested.</p>")
        for png in figures.get(table.title, []):
            data = base64.b64encode(png).decode("ascii")
            parts.append(f'<img alt="{escape(table.title, quote=True)}" src="data:image/png;base64,{data}">')
    if collection.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in collection.notes) + "</ul>")
    parts.append("<h2>Runs</h2>")
    for run in collection.runs:
        for folder, config in run.configs.items():
            summary = escape(f"{run.model} · {run.task} · {folder}")
            text = escape(json.dumps(config, indent=2, ensure_ascii=False, default=str))
            parts.append(f"<details><summary>{summary}</summary><pre>{text}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
