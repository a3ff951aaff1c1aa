"""The report as LaTeX tables (booktabs): one ``table`` per (task, metric), the values of
each model, then its gaps to the reference language. Needs ``\\usepackage{booktabs}``."""

from __future__ import annotations

from mlbench.report.build import ReportTable
from mlbench.report.cells import digits, stars
from mlbench.report.gaps import Gap

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
}


def escape(text: str) -> str:
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def _number(value: float, places: int) -> str:
    return f"${value:.{places}f}$"


def _value(table: ReportTable, model: str, lang: str) -> str:
    cell = table.rows[model].get(lang)
    if cell is None:
        return "--"
    d = digits(table.metric)
    v = cell.value
    return f"{_number(v.value, d)} [{_number(v.ci_low, d)}, {_number(v.ci_high, d)}]"


def _gap(table: ReportTable, gap: Gap | None) -> str:
    if gap is None or gap.diff is None or gap.ci_low is None or gap.ci_high is None:
        return "--"
    d = digits(table.metric)
    marker = stars(gap.p_holm)
    sup = f"$^{{{marker}}}$" if marker else ""
    unpaired = r"\textsuperscript{u}" if not gap.paired else ""
    return f"{_number(gap.diff, d)}{sup}{unpaired} [{_number(gap.ci_low, d)}, {_number(gap.ci_high, d)}]"


def table_to_latex(table: ReportTable) -> str:
    width = 1 + len(table.langs)
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{l" + "c" * len(table.langs) + "}",
        r"\toprule",
        " & ".join(["Model", *(escape(lang) for lang in table.langs)]) + r" \\",
        r"\midrule",
    ]
    for model in table.rows:
        lines.append(" & ".join([escape(model), *(_value(table, model, lang) for lang in table.langs)]) + r" \\")
    if table.per_question and len(table.langs) > 1:
        lines += [r"\midrule", rf"\multicolumn{{{width}}}{{l}}{{\emph{{Gap vs {escape(table.ref_lang)}}}}} \\"]
        for model in table.rows:
            gaps = ["--" if lang == table.ref_lang else _gap(table, table.gap(model, lang)) for lang in table.langs]
            lines.append(" & ".join([escape(model), *gaps]) + r" \\")
    caption = f"{escape(table.task)}: {escape(table.metric)}, mean [95\\% CI] per language"
    if table.per_question:
        caption += f"; gaps vs {escape(table.ref_lang)}, Holm-corrected"
        caption += " $^{*}p<0.05$, $^{**}p<0.01$, $^{***}p<0.001$"
    caption += "."
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}"]
    return "\n".join(lines)


def to_latex(tables: list[ReportTable]) -> str:
    header = "% mlbench report: needs \\usepackage{booktabs}\n"
    return header + "\n\n".join(table_to_latex(t) for t in tables) + "\n"
