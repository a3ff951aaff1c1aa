"""The report as Markdown, ready to paste into a paper's draft or an issue: per task one
table of scores (a row per metric, and per model where several answered; a column per
language) and one of gaps to the reference language (each cell the gap with its
unadjusted 95% CI and the Holm-adjusted p with its stars), the headline metrics' figures,
and one Notes section at the end that every table refers to (``notes.py``): each note is
written once, the gap and test notes only where a gap was tested. Where two or more models
answered the same questions, a section compares them (``pairs.py``): a table per task and
headline metric, three rows per pair of models (difference, p, MDD with n)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mlbench.report import pair_cells as pc
from mlbench.report.build import ReportTable
from mlbench.report.cells import P_ROW, gap_definition, gap_text, lang_label, p_cell, reference_line
from mlbench.report.layout import joined, languages_down, transposed
from mlbench.report.notes import Notes
from mlbench.report.pairs import PairTable
from mlbench.report.task_rows import TaskRows, task_rows
from mlbench.report.text import md_text
from mlbench.report.usage import INTRO as USAGE_INTRO


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table, every cell through ``md_text``: the one way report.md writes one
    (the prompt-templates section's too), so that no text in a cell can add a column or a line."""
    lines = ["| " + " | ".join(md_text(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(md_text(c) for c in row) + " |" for row in rows]
    return lines


def _alt(text: str) -> str:
    """An image's alt text: ``md_text``, and its brackets escaped (a ``]`` would end it and
    let the rest of a label link an image of its own)."""
    return md_text(text).replace("[", "\\[").replace("]", "\\]")


def _by_language(head: list[str], langs: list[str], rows: list[list[str]], down: bool) -> list[str]:
    """A table of ``head`` label columns then a column per language; ``down``: turned, a
    row per language (``layout.languages_down``: too many languages to run across)."""
    if not down:
        return md_table([*head, *map(lang_label, langs)], rows)
    paths, grid = transposed(rows, len(head))
    return md_table(["language", *map(joined, paths)], [[lang_label(lang), *cells] for lang, cells in zip(langs, grid)])


def _pair_section(pairs: Sequence[PairTable], ref_model: str | None, notes: Notes) -> list[str]:
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
        lines += [f"### {md_text(pc.heading(table))} {notes.ref(pc.note(table))}", ""]
        down = languages_down(len(table.langs), len(table.pairs))
        lines += _by_language(["models", ""], table.langs, rows, down)
        lines.append("")
    return lines


def _task_section(rows: TaskRows, notes: Notes, plots: Mapping[str, list[str]]) -> list[str]:
    """A task's scores, its gaps to its tables' reference, what was not tested and its figures."""
    ref_lang = rows.ref_lang
    lines = [f"## {md_text(rows.task)}", ""]
    models = "" if len(rows.models) > 1 else f"{md_text(rows.models[0])}; " if rows.models else ""
    each = f"n={rows.n} per cell unless shown" if rows.n is not None else "n per cell"
    lines += [f"Scores ({models}mean [95% CI]; {each}):", ""]
    # One orientation for a task's scores and gaps: turned where its languages outnumber its rows.
    down = languages_down(len(rows.langs), len(rows.values))
    lines += _by_language(rows.head, rows.langs, rows.values, down)
    lines.append("")
    if rows.gaps:
        definition = notes.ref(gap_definition(ref_lang))
        lines += [f"Gaps vs {ref_lang}: gap [95% CI, unadjusted], {P_ROW} {definition}:", ""]
        lines += _by_language(rows.gap_head, rows.others, rows.gaps, down)
        lines.append("")
    if rows.untested:
        lines += [f"No gap tested: {md_text('; '.join(rows.untested))}.", ""]
    figures = [
        " ".join(f"![{_alt(table.title)}]({image})" for image in plots.get(table.title, []))
        for table in rows.tables
        if plots.get(table.title)
    ]
    if figures:
        lines += [*figures, ""]
    return lines


def to_markdown(
    tables: list[ReportTable],
    notes: list[str],
    ref_lang: str,
    plots: Mapping[str, list[str]] | None = None,
    pairs: Sequence[PairTable] = (),
    ref_model: str | None = None,
    usage: tuple[list[str], list[list[str]]] = ([], []),
    ref_langs: Mapping[str, str] | None = None,
) -> str:
    """``notes``: the collection's (merged runs, mixed settings), listed with the tables'
    own; ``plots`` maps a table's title to the image files drawn for it (shown under its
    task's tables); ``pairs``: the model-against-model tables (none: no such section);
    ``usage``: the API usage table's header and rows (report/usage.py; no rows: no table);
    ``ref_langs``: each model's reference where they differ (``Report.ref_langs``)."""
    defined = Notes()
    lines = [
        "# mlbench report",
        "",
        f"Reference language: **{md_text(reference_line(ref_lang, ref_langs))}**. Values are means with "
        "bootstrap 95% CIs; each [n] refers to the Notes at the end.",
        "",
        *([USAGE_INTRO, "", *md_table(*usage), ""] if usage[1] else []),  # where runs counted tokens
    ]
    for rows in task_rows(tables, defined):
        lines += _task_section(rows, defined, plots or {})
    if pairs:
        lines += _pair_section(pairs, ref_model, defined)
    if defined or notes:
        lines += ["## Notes", "", *defined.lines(), *(f"- {md_text(note)}" for note in notes), ""]
    return "\n".join(lines)
