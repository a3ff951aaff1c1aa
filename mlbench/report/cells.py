"""How the report writes its numbers, the same in every format: a value with its interval,
a gap with its interval, p-values and the significance marker.

>>> stars(0.0004), stars(0.004), stars(0.04), stars(0.4), stars(None)
('***', '**', '*', '', '')
>>> signed(-0.0523, 3)
'−0.052'
"""

from __future__ import annotations

from mlbench.report.build import Cell, ReportTable
from mlbench.report.gaps import TEST_NAMES, Gap
from mlbench.tables import decimals, format_value

LEGEND = (
    "Gaps are the language minus the reference language on the questions both answered, "
    "with a paired bootstrap 95% CI; p from McNemar (yes/no outcomes) or Wilcoxon "
    "signed-rank (continuous), Holm-corrected over the languages of a row. "
    "* p<0.05, ** p<0.01, *** p<0.001 after correction; (u) unpaired comparison."
)


def digits(metric: str) -> int:
    """The decimals of the run tables' compact form: 2 for BLEU and log-probabilities, 3
    for proportions and similarities."""
    return decimals(metric, compact=True)


def stars(p_holm: float | None) -> str:
    if p_holm is None:
        return ""
    return "***" if p_holm < 0.001 else "**" if p_holm < 0.01 else "*" if p_holm < 0.05 else ""


def signed(value: float, places: int) -> str:
    """A number with its sign, a true minus sign for negatives."""
    text = f"{value:+.{places}f}"
    return text.replace("-", "−")


def value_text(metric: str, cell: Cell) -> str:
    return format_value(metric, cell.value, compact=True)


def gap_text(metric: str, gap: Gap | None) -> str:
    """``−0.052 [−0.081, −0.020] **``; ``n/a`` when no gap could be computed."""
    if gap is None or gap.diff is None or gap.ci_low is None or gap.ci_high is None:
        return "n/a"
    d = digits(metric)
    marker = stars(gap.p_holm) + ("" if gap.paired else " (u)")
    return f"{signed(gap.diff, d)} [{signed(gap.ci_low, d)}, {signed(gap.ci_high, d)}] {marker}".rstrip()


def p_text(p: float | None) -> str:
    if p is None:
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def test_label(gap: Gap | None) -> str:
    return TEST_NAMES.get(gap.test, "") if gap is not None else ""


def gaps_heading(table: ReportTable) -> str:
    """``Gap vs en (McNemar)``: the tests a table's gaps used, named once above it."""
    used = dict.fromkeys(
        test_label(cell.gap) for cells in table.rows.values() for cell in cells.values() if cell.gap and cell.gap.test
    )
    return f"Gap vs {table.ref_lang}" + (f" ({', '.join(used)})" if used else "")
