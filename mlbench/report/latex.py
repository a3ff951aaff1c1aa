"""The report as LaTeX tables (booktabs): one ``table`` per (task, metric), the values of
each model, then its gaps to the reference language; where models answered the same
questions, one more per (task, headline metric) comparing them (``pairs.py``). Needs
``\\usepackage{booktabs}``."""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlbench.report import pair_cells as pc
from mlbench.report.build import ReportTable
from mlbench.report.cells import (
    GAP_ROW,
    P_ROW,
    PAIRED_MARK,
    PAIRED_MEANING,
    cell_notes,
    digits,
    gaps_heading,
    gaps_note,
    has_gap,
    is_missing,
    lang_label,
    p_text,
    paired_n,
    shows_paired_n,
    stars,
)
from mlbench.report.gaps import Gap
from mlbench.report.layout import groups, languages_down, transposed
from mlbench.report.pairs import PairTable
from mlbench.report.text import one_line

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # pdflatex's default (OT1) text fonts print these as ¡, ¿ and an em dash.
    "<": "$<$",
    ">": "$>$",
    "|": r"\textbar{}",
}


def escape(text: str) -> str:
    """``text`` as LaTeX prints it: on one line (``text.one_line``: a control character is
    an error to pdflatex, "invalid character", and a blank line would end a caption's
    paragraph), each special character escaped."""
    return "".join(_SPECIAL.get(ch, ch) for ch in one_line(text))


def text(value: str) -> str:
    """Prose for a caption: escaped, and the characters pdflatex's default fonts lack
    (U+2212 minus, dagger) written as math."""
    out = escape(value)
    for char, latex in (("−", "$-$"), ("†", r"$^{\dagger}$")):
        out = out.replace(char, latex)
    return out


def _number(value: float, places: int) -> str:
    return "n/a" if math.isnan(value) else f"${value:.{places}f}$"


def _signed(value: float, places: int) -> str:
    """A gap with its sign, as the other formats write it (``$+0.030$``)."""
    return "n/a" if math.isnan(value) else f"${value:+.{places}f}$"


def _lang(lang: str) -> str:
    """A language column's header; a low-resource language's † as a LaTeX dagger (the
    UTF-8 character needs a font that has it)."""
    label = lang_label(lang)
    mark = r"$^{\dagger}$" if label != lang else ""
    return escape(lang) + mark


def _value(table: ReportTable, model: str, lang: str) -> str:
    cell = table.rows[model].get(lang)
    if cell is None or is_missing(cell):
        return "n/a"
    d = digits(table.descriptor)
    v = cell.value
    return f"{_number(v.value, d)} [{_number(v.ci_low, d)}, {_number(v.ci_high, d)}]"


def _gap(table: ReportTable | PairTable, gap: Gap | None) -> str:
    if gap is None or not has_gap(gap):
        return "--"
    assert gap.diff is not None and gap.ci_low is not None and gap.ci_high is not None
    d = digits(table.descriptor)
    unpaired = r"\textsuperscript{u}" if not gap.paired else ""
    return f"{_signed(gap.diff, d)}{unpaired} [{_signed(gap.ci_low, d)}, {_signed(gap.ci_high, d)}]"


def _paired_gap(table: ReportTable, model: str, lang: str) -> str:
    """``_gap``, with the gap's n where an aligned table pairs fewer questions than its column holds."""
    cell = table.cell(model, lang)
    marker = paired_n(table, cell)
    return _gap(table, table.gap(model, lang)) + (f" {text(marker)}" if marker else "")


def _p(gap: Gap | None) -> str:
    """The Holm-adjusted p with its stars, the star beside the number it comes from."""
    if gap is None or gap.p_holm is None:
        return "--"
    marker = stars(gap.p_holm)
    number = r"$<$0.001" if gap.p_holm < 0.001 else p_text(gap.p_holm)
    return number + (f"$^{{{marker}}}$" if marker else "")


def _table_head(first: str, langs: list[str]) -> list[str]:
    """A table's opening lines: a row label, a row kind, then a column per language."""
    return [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{ll" + "c" * len(langs) + "}",
        r"\toprule",
        " & ".join([first, "", *(_lang(lang) for lang in langs)]) + r" \\",
        r"\midrule",
    ]


def _down_head(langs: list[str], rows: list[list[str]]) -> list[str]:
    """``rows`` (a label, a row kind, a cell per language) turned a row per language: a
    column per row, grouped under its model (``layout.languages_down``). The opening
    lines and the body; the caller closes the tabular."""
    paths, grid = transposed(rows, 2)
    firsts = list(dict.fromkeys(path[0] for path in paths))
    order = sorted(range(len(paths)), key=lambda i: firsts.index(paths[i][0]))  # a model's columns side by side
    paths, grid = [paths[i] for i in order], [[row[i] for i in order] for row in grid]
    spans, rules, start = [], [], 2
    for label, n in groups(paths):
        spans.append(rf"\multicolumn{{{n}}}{{c}}{{{label}}}")
        rules.append(rf"\cmidrule(lr){{{start}-{start + n - 1}}}")
        start += n
    lines = [r"\begin{table}[t]", r"\centering", r"\small", r"\begin{tabular}{l" + "c" * len(paths) + "}", r"\toprule"]
    lines += [
        " & ".join(["", *spans]) + r" \\",
        "".join(rules),
        " & ".join(["Language", *(p[1] for p in paths)]) + r" \\",
    ]
    lines.append(r"\midrule")
    return lines + [" & ".join([_lang(lang), *cells]) + r" \\" for lang, cells in zip(langs, grid)]


def _value_rows(table: ReportTable) -> list[list[str]]:
    """The rows of ``table_to_latex`` languages across: a model's values, its gaps and
    their p (none for the reference language's column)."""
    rows = [
        [escape(model), text("mean [95% CI]"), *(_value(table, model, lang) for lang in table.langs)]
        for model in table.rows
    ]
    if table.per_question and len(table.langs) > 1:
        for model in table.rows:
            gaps = ["--" if lang == table.ref_lang else _paired_gap(table, model, lang) for lang in table.langs]
            ps = ["--" if lang == table.ref_lang else _p(table.gap(model, lang)) for lang in table.langs]
            rows += [[escape(model), text(GAP_ROW), *gaps], ["", text(P_ROW), *ps]]
    return rows


def table_to_latex(table: ReportTable) -> str:
    rows = _value_rows(table)
    if languages_down(len(table.langs), len(table.rows)):
        lines = _down_head(table.langs, rows)
    else:
        lines = _table_head("Model", table.langs) + [" & ".join(row) + r" \\" for row in rows[: len(table.rows)]]
        if rows[len(table.rows) :]:
            heading = text(f"{gaps_heading(table)}: gap [95% CI, not adjusted for multiplicity], Holm-adjusted p")
            lines += [r"\midrule", rf"\multicolumn{{{2 + len(table.langs)}}}{{l}}{{\emph{{{heading}}}}} \\"]
            lines += [" & ".join(row) + r" \\" for row in rows[len(table.rows) :]]
    caption = f"{escape(table.task)}: {escape(table.metric)}, mean [95\\% CI] per language."
    if table.per_question and len(table.langs) > 1:
        caption += " " + text(gaps_note(table))
    caption += "".join(" " + text(note.rstrip(".") + ".") for note in cell_notes(table))
    if shows_paired_n(table):
        caption += " " + text(f"{PAIRED_MARK}: {PAIRED_MEANING}.")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}"]
    return "\n".join(lines)


def pairs_to_latex(table: PairTable, ref_model: str | None) -> str:
    """The pairs of models of one task on one metric: per pair, the difference row, the
    Holm p row and the MDD row, a column per language."""
    d = digits(table.descriptor)
    rows = []
    for pair in table.pairs:
        cells = [pair.cell(lang) for lang in table.langs]
        gaps = [_gap(table, c.gap if c else None) for c in cells]
        ps = [_p(c.gap if c else None) for c in cells]
        mdds = [f"{_number(c.mdd, d)} ($n$={c.gap.n})" if c and c.mdd is not None else "--" for c in cells]
        rows += [[text(pair.label), text(pc.DIFF_ROW), *gaps], ["", text(P_ROW), *ps], ["", text(pc.MDD_ROW), *mdds]]
    if languages_down(len(table.langs), len(table.pairs)):
        lines = _down_head(table.langs, rows)
    else:
        lines = _table_head("Models", table.langs) + [" & ".join(row) + r" \\" for row in rows]
    compared = f"model against model per language, {pc.which_pairs(ref_model)}."
    caption = f"{escape(table.task)}: {escape(table.metric)}, {text(compared)} {text(pc.note(table))}"
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}"]
    return "\n".join(lines)


def to_latex(tables: list[ReportTable], pairs: Sequence[PairTable] = (), ref_model: str | None = None) -> str:
    """Every table, then the model-against-model tables (none for a report of one model)."""
    header = "% mlbench report: needs \\usepackage{booktabs}\n"
    parts = [table_to_latex(t) for t in tables] + [pairs_to_latex(t, ref_model) for t in pairs]
    return header + "\n\n".join(parts) + "\n"
