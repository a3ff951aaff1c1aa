"""The report as one HTML file: every table, the models compared where two or more
answered the same questions, the figures embedded as PNG data, and the runs' configs in
collapsible blocks. No script and no outside asset: it opens offline and can be mailed or
attached as it is."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from mlbench.report import pair_cells as pc
from mlbench.report.alignment import is_aligned
from mlbench.report.build import ReportTable
from mlbench.report.cells import (
    GAP_ROW,
    P_ROW,
    PAIRED_MARK,
    PAIRED_MEANING,
    define_test,
    gap_definition,
    gap_text,
    lang_label,
    metric_heading,
    missing_notes,
    p_cell,
    p_text,
    paired_n,
    reference_line,
    shows_paired_n,
    test_label,
    untested_models,
    used_tests,
    value_text,
)
from mlbench.report.collect import Collection
from mlbench.report.gaps import TEST_NAMES, Gap
from mlbench.report.layout import LANGUAGE_COLUMNS_MAX, groups, languages_down, transposed
from mlbench.report.notes import Notes
from mlbench.report.pairs import PairTable
from mlbench.report.slices import SEPARATOR
from mlbench.report.text import one_line
from mlbench.report.usage import INTRO as USAGE_INTRO
from mlbench.report.usage import usage_table
from mlbench.results.tables import LOW_RESOURCE_MARK


def escape(text: str, quote: bool = True) -> str:
    """``text`` for an element or an attribute: on one line (``text.one_line``: a label
    from the data may hold a terminal's escape codes, which a browser has no use for, and
    which ``cat report.html`` would act on), then ``html.escape``."""
    return html.escape(one_line(text), quote=quote)


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 110rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.2rem; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
table.down thead th { text-align: center; }
td.significant { font-weight: bold; background: #fff4d6; }
td .n { color: #666; font-size: 0.75rem; }
td.label { text-align: left; color: #555; }
img { max-width: 100%; display: block; margin: 0.5rem 0 1rem; }
/* A table wider than the page scrolls by itself, its row labels kept in view; the page
   never scrolls sideways. */
div.wide { overflow-x: auto; max-width: 100%; margin: 0.5rem 0 1.2rem; }
div.wide table { margin: 0; }
tbody td:first-child, thead tr:first-child th:first-child { position: sticky; left: 0; box-shadow: inset -1px 0 #ccc; }
tbody td:first-child { background: #fff; }
pre { background: #f7f7f7; padding: 0.6rem; overflow-x: auto; font-size: 0.75rem; }
.legend, .note { color: #444; font-size: 0.85rem; }
"""


def _row(cells: list[str], header: bool = False) -> str:
    tag = "th" if header else "td"
    return "<tr>" + "".join(c if c.startswith("<t") else f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def _usage_section(collection: Collection) -> list[str]:
    """The API usage table (report/usage.py), where runs counted tokens."""
    header, rows = usage_table(collection)
    if not rows:
        return []
    body = [_row([escape(h) for h in header], header=True), *(_row([escape(c) for c in row]) for row in rows)]
    return [f"<p>{escape(USAGE_INTRO)}</p>", f'<table class="usage">{"".join(body)}</table>']


def _by_language(css: str, head: list[str], langs: list[str], rows: list[list[str]], down: bool) -> str:
    """A table of ``head`` label columns (escaped text; a second one is the kind of its
    row: gap, p) then a cell per language; ``down``: turned, a row per language
    (``layout.languages_down``: too many languages to run across), under a header row of
    models over one of row kinds."""
    labels = len(head)
    if not down:
        header = _row([*head, *(escape(lang_label(lang)) for lang in langs)], header=True)
        body = [
            _row([*row[:1], *(f'<td class="label">{c}</td>' for c in row[1:labels]), *row[labels:]]) for row in rows
        ]
        return _scrolled(css, header, body)
    paths, grid = transposed(rows, labels)
    if labels == 1:
        heads = [_row(["language", *(path[0] for path in paths)], header=True)]
    else:
        spans = "".join(f'<th colspan="{n}">{label}</th>' for label, n in groups(paths))
        heads = [f'<tr><th rowspan="2">language</th>{spans}</tr>', _row([path[-1] for path in paths], header=True)]
    body = [_row([escape(lang_label(lang)), *cells]) for lang, cells in zip(langs, grid)]
    return _scrolled(f"{css} down", "".join(heads), body)


def _scrolled(css: str, head: str, body: list[str]) -> str:
    """A table in a box that scrolls sideways by itself when the table is wider than the page."""
    return f'<div class="wide"><table class="{css}"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table></div>'


def _values_table(table: ReportTable, down: bool) -> str:
    rows = []
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
        rows.append(row)
    return _by_language("values", ["model"], table.langs, rows, down)


def explorer_link(explorer: str, table: ReportTable, model: str, lang: str, gap: Gap) -> str | None:
    """The explorer filtered on the questions behind a gap: right in the language that
    did better, wrong in the other; a sliced table's slice kept. None where right and
    wrong mean nothing (a metric that is not a share with a direction)."""
    about = table.descriptor
    if about is None or not about.is_share or about.higher_is_better is None or is_aligned(table.task):
        return None  # an aligned table's columns are benchmarks' languages, which the explorer shows apart
    better_in_ref = (gap.diff or 0) <= 0
    if about.higher_is_better is False:
        better_in_ref = not better_in_ref
    right, wrong = (table.ref_lang, lang) if better_in_ref else (lang, table.ref_lang)
    task, _, label = table.task.partition(SEPARATOR)
    query = {"task": task, "model": model, "metric": table.metric, "right": right, "wrong": wrong}
    if len(table.langs) > LANGUAGE_COLUMNS_MAX:
        query["langs"] = f"{right},{wrong}"  # the two languages of the gap, not a card of every language
    return f"{explorer}#{urlencode({**query, **({'slice': label} if label else {})})}"


def _gaps_table(table: ReportTable, down: bool, explorer: str | None = None) -> str:
    """Two rows per model: the gaps with their unadjusted CIs, then the Holm-adjusted p
    (bold where significant), each cell's test, raw p and n in its tooltip; each gap a
    link to the explorer's questions behind it when ``explorer`` is beside the report."""
    others = [lang for lang in table.langs if lang != table.ref_lang]
    rows = []
    for model, cells in table.rows.items():
        gap_row, p_row = [escape(model), escape(GAP_ROW)], ["", escape(P_ROW)]
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
            shown = escape(gap_text(table.descriptor, gap))
            link = explorer_link(explorer, table, model, lang, gap) if explorer is not None else None
            if link is not None:
                shown = f'<a href="{escape(link, quote=True)}">{shown}</a>'
            if paired := paired_n(table, cell):
                shown += f' <span class="n">{escape(paired)}</span>'
            gap_row.append(f'<td title="{title}">{shown}</td>')
            p_row.append(f'<td{css} title="{title}">{escape(p_cell(gap))}</td>')
        rows += [gap_row, p_row]
    return _by_language("gaps", ["model", ""], others, rows, down)


def _pairs_table(table: PairTable) -> str:
    """Three rows per pair of models: the differences with their unadjusted CIs, the
    Holm-adjusted p (bold where significant), the MDD with n; each cell's test, raw p and
    what its MDD comes from in its tooltip."""
    every = []
    for pair in table.pairs:
        rows = [[escape(pair.label), escape(pc.DIFF_ROW)], ["", escape(P_ROW)], ["", escape(pc.MDD_ROW)]]
        for lang in table.langs:
            cell = pair.cell(lang)
            if cell is None:
                for row in rows:
                    row.append("n/a")
                continue
            gap = cell.gap
            basis = f"SD of the differences {cell.sd_diff:.3g}" if cell.sd_diff is not None else ""
            basis = f"discordant share {cell.discordant:.3g}" if cell.discordant is not None else basis
            detail = f"{test_label(gap)}, p={p_text(gap.p)}, Holm p={p_text(gap.p_holm)}, n={gap.n}"
            title = escape(". ".join(filter(None, (detail, basis, gap.note, cell.mdd_note))), quote=True)
            css = ' class="significant"' if gap.significant else ""
            rows[0].append(f'<td title="{title}">{escape(gap_text(table.descriptor, gap))}</td>')
            rows[1].append(f'<td{css} title="{title}">{escape(p_cell(gap))}</td>')
            rows[2].append(f'<td title="{title}">{escape(pc.mdd_text(table.descriptor, cell))}</td>')
        every += rows
    down = languages_down(len(table.langs), len(table.pairs))
    return _by_language("pairs", ["models", ""], table.langs, every, down)


def _pairs_section(pairs: Sequence[PairTable], ref_model: str | None, notes: Notes) -> list[str]:
    parts = [f"<h2>{escape(pc.SECTION)}</h2>", f'<p class="legend">{escape(pc.section_intro(ref_model))}</p>']
    for table in pairs:
        parts += [f"<h3>{escape(pc.heading(table))} {notes.ref(pc.note(table))}</h3>", _pairs_table(table)]
    return parts


def _metric_notes(table: ReportTable, notes: Notes) -> list[str]:
    """Under a metric's values: why a cell is n/a (its own); the † of low-resource
    languages and the gap notes go to the Notes section, once."""
    if any(lang_label(lang) != lang for lang in table.langs):
        notes.mark(LOW_RESOURCE_MARK, "low-resource language")
    if shows_paired_n(table):
        notes.mark(PAIRED_MARK, PAIRED_MEANING)
    return [f'<p class="note">{escape(text)}</p>' for text in missing_notes(table)]


def _untested_note(table: ReportTable) -> list[str]:
    """Why gaps were not tested, as report.md says it: per model where some models were
    tested and others not (or several were not, for different reasons)."""
    untested = untested_models(table)
    if not untested or len(table.langs) < 2:
        return []  # every model tested, or one language only: nothing to compare
    whys = set(untested.values())
    if len(untested) == len(table.rows) and len(whys) == 1:
        return [f"<p>No gap tested ({escape(whys.pop())}).</p>"]
    listed = "; ".join(f"{model} ({why})" for model, why in untested.items())
    return [f"<p>No gap tested: {escape(listed)}.</p>"]


def _gaps_heading(table: ReportTable, notes: Notes) -> str:
    """``Gap vs en (McNemar [2]): gap [95% CI, unadjusted], p (Holm) [1]``, the notes named by number."""
    definition = notes.ref(gap_definition(table.ref_lang))
    used = ", ".join(f"{TEST_NAMES.get(t, t)} {notes.ref(define_test(t))}" for t in used_tests(table))
    tests = f" ({used})" if used else ""
    return f"Gap vs {table.ref_lang}{tests}: {GAP_ROW}, {P_ROW} {definition}"


def _notes_section(notes: Notes, collection: Collection) -> list[str]:
    items = [f"{escape(key)} {escape(text)}" for key, text in notes.entries()] + [escape(n) for n in collection.notes]
    return ["<h2>Notes</h2><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"] if items else []


def to_html(
    tables: list[ReportTable],
    collection: Collection,
    *,
    ref_lang: str,
    figures: Mapping[str, list[bytes]],
    pairs: Sequence[PairTable] = (),
    ref_model: str | None = None,
    explorer: str | None = None,
    sections: Sequence[str] = (),
    ref_langs: Mapping[str, str] | None = None,
) -> str:
    """``figures`` maps a table's title to its PNG images; ``pairs``: the
    model-against-model tables (none: no such section); ``explorer``: the explorer page
    beside the report, which each gap links to; ``sections``: more HTML before the notes
    (the prompt-templates section); ``ref_langs``: each model's reference where they differ."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>mlbench report</title>',
        f"<style>{STYLE}</style></head><body>",
        "<h1>mlbench report</h1>",
        f"<p>Reference language: <strong>{escape(reference_line(ref_lang, ref_langs))}</strong>. "
        "Values are means with bootstrap 95% CIs.</p>",
        '<p class="legend">Each [n] refers to the Notes at the end.</p>',
        *_usage_section(collection),
    ]
    notes = Notes()
    task = None
    for table in tables:
        if table.task != task:
            task = table.task
            parts.append(f"<h2>{escape(task)}</h2>")
        parts.append(f"<h3>{escape(metric_heading(table))}</h3>")
        # One orientation for a metric's values and gaps, decided on all its languages.
        down = languages_down(len(table.langs), len(table.rows))
        parts.append(_values_table(table, down))
        parts += _metric_notes(table, notes)
        if len(table.langs) > 1 and len(untested_models(table)) < len(table.rows):
            parts.append(f"<p>{escape(_gaps_heading(table, notes))}:</p>")
            parts.append(_gaps_table(table, down, explorer))
        parts += _untested_note(table)
        for png in figures.get(table.title, []):
            data = base64.b64encode(png).decode("ascii")
            parts.append(f'<img alt="{escape(table.title, quote=True)}" src="data:image/png;base64,{data}">')
    if pairs:
        parts += _pairs_section(pairs, ref_model, notes)
    parts += sections
    parts += _notes_section(notes, collection)
    parts.append("<h2>Runs</h2>")
    for run in collection.runs:
        for folder, config in run.configs.items():
            summary = escape(f"{run.model} · {run.task} · {folder}")
            # Its lines kept: json.dumps has written every control character as an escape.
            text = html.escape(json.dumps(config, indent=2, ensure_ascii=False, default=str))
            parts.append(f"<details><summary>{summary}</summary><pre>{text}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
