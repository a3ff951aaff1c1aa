"""The report as Markdown: a value table and a gap table per (task, metric), ready to
paste into a paper's draft or an issue.

A gap table has two rows per model: the gap with its unadjusted 95% CI, then the
Holm-adjusted p with its stars, each row labelled, and a note saying that the two can
disagree (``cells.gaps_note``). Where two or more models answered the same questions, a
last section compares them (``pairs.py``): a table per task and headline metric, three
rows per pair of models (difference, p, MDD with n)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mlbench.report import pair_cells as pc
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
    value_text,
)
from mlbench.report.layout import joined, languages_down, transposed
from mlbench.report.pairs import PairTable


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_escape(c) for c in row) + " |" for row in rows]
    return lines


def _by_language(head: list[str], langs: list[str], rows: list[list[str]], down: bool) -> list[str]:
    """A table of ``head`` label columns then a column per language; ``down``: turned, a
    row per language (``layout.languages_down``: too many languages to run across)."""
    if not down:
        return _table([*head, *map(lang_label, langs)], rows)
    paths, grid = transposed(rows, len(head))
    return _table(["language", *map(joined, paths)], [[lang_label(lang), *cells] for lang, cells in zip(langs, grid)])


def _value(table: ReportTable, model: str, lang: str) -> str:
    cell = table.cell(model, lang)
    return f"{value_text(table.descriptor, cell)} (n={cell.n})" if cell else "n/a"


def _gap_rows(table: ReportTable, model: str, others: list[str]) -> list[list[str]]:
    gaps = [table.gap(model, lang) for lang in others]
    return [
        [model, GAP_ROW, *(gap_text(table.descriptor, gap) for gap in gaps)],
        ["", P_ROW, *(p_cell(gap) for gap in gaps)],
    ]


def _pair_section(pairs: Sequence[PairTable], ref_model: str | None) -> list[str]:
    lines = [f"## {pc.SECTION}", "", pc.section_intro(ref_model), ""]
    for table in pairs:
        rows = []
        for pair in table.pairs:
            cells = [pair.cell(lang) for lang in table.langs]
            rows += [
                [pair.label, pc.DIFF_ROW, *(gap_text(table.descriptor, c.gap if c else None) for c in cells)],
                ["", P_ROW, *(p_cell(c.gap if c else None) for c in cells)],
                ["", pc.MDD_ROW, *(pc.mdd_text(table.descriptor, c) for c in cells)],
            ]
        lines += [f"### {pc.heading(table)}", ""]
        down = languages_down(len(table.langs), len(table.pairs))
        lines += _by_language(["models", ""], table.langs, rows, down)
        lines += ["", pc.note(table), ""]
    return lines


def to_markdown(
    tables: list[ReportTable],
    notes: list[str],
    ref_lang: str,
    plots: Mapping[str, list[str]] | None = None,
    pairs: Sequence[PairTable] = (),
    ref_model: str | None = None,
) -> str:
    """``plots`` maps a table's title to the image files drawn for it (linked under it);
    ``pairs``: the model-against-model tables (none: no such section)."""
    lines = ["# mlbench report", "", f"Reference language: **{ref_lang}**. Values are means with bootstrap 95% CIs."]
    lines += ["", LEGEND, ""]
    task = None
    for table in tables:
        if table.task != task:
            task = table.task
            lines += [f"## {task}", ""]
        lines += [f"### {table.metric}", ""]
        models = list(table.rows)
        values = [[model, *(_value(table, model, lang) for lang in table.langs)] for model in models]
        # One orientation for a metric's values and gaps, decided on all its languages.
        down = languages_down(len(table.langs), len(models))
        lines += _by_language(["model"], table.langs, values, down)
        lines.append("")
        for note in cell_notes(table):
            lines += [note, ""]
        others = [lang for lang in table.langs if lang != ref_lang]
        if table.per_question and others:
            lines += [f"{gaps_heading(table)}:", ""]
            rows = [row for model in models for row in _gap_rows(table, model, others)]
            lines += _by_language(["model", ""], others, rows, down)
            lines += ["", gaps_note(table), ""]
        elif not table.per_question:
            lines += ["No per-question values (a pooled metric): no gaps tested.", ""]
        for image in (plots or {}).get(table.title, []):
            lines += [f"![{table.title}]({image})", ""]
    if pairs:
        lines += _pair_section(pairs, ref_model)
    if notes:
        lines += ["## Notes", "", *(f"- {note}" for note in notes), ""]
    return "\n".join(lines)
