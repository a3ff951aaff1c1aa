"""How the report writes its numbers and labels, the same in every format: a value with its
interval, a gap with its interval, the Holm-adjusted p and its stars, the notes.

Numbers follow ``tables.decimals`` (the metric's descriptor: 3 decimals on a 0–1 scale, 2
for BLEU, log-probs and counts), as the run tables do; p-values have 3 decimals or read
``<0.001``. Each function takes the table's descriptor (``ReportTable.descriptor``: what
the runs' results.json say) or a metric name, looked up in the catalog.

The star and the gap's interval are two labelled things, not one procedure: the star is
the test's (McNemar or Wilcoxon signed-rank, Holm-adjusted; see ``gaps.py``), the interval
is a bootstrap CI of the mean difference, not adjusted for multiplicity. Every format
prints the Holm-adjusted p beside the interval and says that the two can disagree: once
per file in Markdown and HTML (``gap_definition``, in the notes the tables refer to), in
each table's caption in LaTeX (``gaps_note``), whose tables stand alone in a paper.

>>> stars(0.0004), stars(0.004), stars(0.04), stars(0.4), stars(None)
('***', '**', '*', '', '')
>>> signed(-0.0523, 3)
'−0.052'
>>> p_text(0.0421), p_text(0.0004), p_text(None)
('0.042', '<0.001', 'n/a')
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from mlbench.metrics.catalog import describe
from mlbench.metrics.descriptor import Metric
from mlbench.report.alignment import references_differ
from mlbench.report.build import Cell, ReportTable
from mlbench.report.gaps import TEST_NAMES, Gap
from mlbench.report.slices import base_task
from mlbench.results.tables import decimals, format_value, language_label, low_resource_note

# The interval of a gap, named the same in every format (CSV/JSON: ``gap_ci95_unadjusted``).
INTERVAL_LABEL = "95% bootstrap CI of the mean difference, not adjusted for multiplicity"
GAP_ROW = "gap [95% CI, unadjusted]"
P_ROW = "p (Holm)"

# What each test compares, for the note under a gap table: none of them is a test of the
# mean difference the interval is about.
TEST_QUANTITIES = {
    "mcnemar": "McNemar's test compares the discordant questions, those right in one language only",
    "wilcoxon": "Wilcoxon's signed-rank test compares the ranks of the paired differences, not their mean",
    "fisher": "Fisher's exact test compares the two shares as independent samples",
    "mann-whitney": "the Mann–Whitney U test compares the ranks of two independent samples",
}


def digits(metric: str | Metric) -> int:
    """The decimals of ``metric`` (``tables.decimals``, the one rule of every table)."""
    return decimals(metric)


def stars(p_holm: float | None) -> str:
    if p_holm is None:
        return ""
    return "***" if p_holm < 0.001 else "**" if p_holm < 0.01 else "*" if p_holm < 0.05 else ""


def signed(value: float, places: int) -> str:
    """A number with its sign, a true minus sign for negatives."""
    text = f"{value:+.{places}f}"
    return text.replace("-", "−")


def lang_label(lang: str) -> str:
    """A column's language: its code, with † when it is a low-resource language."""
    return language_label(lang)


def is_missing(cell: Cell) -> bool:
    return bool(cell.missing) or math.isnan(cell.value.value)


def value_text(metric: str | Metric, cell: Cell) -> str:
    """``0.412 [0.380, 0.445]``; ``n/a`` for a value that could not be computed."""
    return "n/a" if is_missing(cell) else format_value(metric, cell.value)


def has_gap(gap: Gap | None) -> bool:
    return gap is not None and gap.diff is not None and gap.ci_low is not None and gap.ci_high is not None


def gap_text(metric: str | Metric, gap: Gap | None) -> str:
    """``−0.052 [−0.081, −0.020]`` (``(u)`` when unpaired); ``n/a`` when no gap could be
    computed. No stars here: they belong to the p-value (``p_cell``)."""
    if gap is None or not has_gap(gap):
        return "n/a"
    assert gap.diff is not None and gap.ci_low is not None and gap.ci_high is not None
    d = digits(metric)
    text = f"{signed(gap.diff, d)} [{signed(gap.ci_low, d)}, {signed(gap.ci_high, d)}]"
    return text if gap.paired else f"{text} (u)"


# Beside a gap of an aligned table (``ReportTable.paired_only``) tested on fewer questions
# than its column holds: how many, in every format (CSV and JSON: ``gap_n``).
PAIRED_MARK = "(gap on N)"
PAIRED_MEANING = "the gap's n, the questions it pairs with the reference, where fewer than its column's n"


def paired_n(table: ReportTable, cell: Cell | None) -> str:
    """``(gap on 10)`` beside a gap of a paired-only table whose n is not its column's;
    "" elsewhere (an ordinary table's n: the column's, or the gap's note says otherwise)."""
    gap = cell.gap if cell is not None else None
    if cell is None or gap is None or not table.paired_only or not gap.paired or gap.n == cell.n:
        return ""  # no gap, or none tried on paired questions (no reference), or on the column's n
    return f"(gap on {gap.n})"


def shows_paired_n(table: ReportTable) -> bool:
    """Whether some gap of ``table`` carries ``paired_n``'s marker (its meaning is then noted)."""
    return any(paired_n(table, cell) for cells in table.rows.values() for cell in cells.values())


def with_paired_n(text: str, table: ReportTable, cell: Cell | None) -> str:
    marker = paired_n(table, cell)
    return f"{text} {marker}" if marker else text


def p_text(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def p_cell(gap: Gap | None) -> str:
    """The Holm-adjusted p and its stars: ``0.004 **``; ``n/a`` when nothing was tested."""
    if gap is None or gap.p_holm is None:
        return "n/a"
    return f"{p_text(gap.p_holm)} {stars(gap.p_holm)}".rstrip()


def test_label(gap: Gap | None) -> str:
    return TEST_NAMES.get(gap.test, "") if gap is not None else ""


def _tests(table: ReportTable) -> list[str]:
    gaps = [cell.gap for cells in table.rows.values() for cell in cells.values() if cell.gap and cell.gap.test]
    return list(dict.fromkeys(gap.test for gap in gaps if gap is not None))


def used_tests(table: ReportTable, model: str | None = None) -> list[str]:
    """The tests a table's gaps (of ``model`` only, when given) ran, as ``TEST_NAMES`` keys."""
    if model is None:
        return _tests(table)
    gaps = [cell.gap for cell in table.rows.get(model, {}).values() if cell.gap and cell.gap.test]
    return list(dict.fromkeys(gap.test for gap in gaps if gap is not None))


def metric_heading(table: ReportTable) -> str:
    """``truthful_informative (truthful & informative)``: the metric's name, the one
    identifier of every output, with its descriptor's label where it declares one (a
    results.json written before labels were saved: the catalog's)."""
    name, _, setting = table.metric.partition("@")
    label = table.descriptor.label or describe(name, base_task(table.task)).label
    if not label or label == name:
        return table.metric
    return f"{table.metric} ({label}{'@' + setting if setting else ''})"


def reference_line(ref_lang: str, ref_langs: Mapping[str, str] | None) -> str:
    """``en``; where the models' references differ, each model's: ``en, per model: a: en
    (truthfulqa_multi), b: en (truthfulqa_multi_mt)``."""
    if not ref_langs or not references_differ(ref_langs):
        return ref_lang
    return f"{ref_lang}, per model: " + ", ".join(f"{model}: {name}" for model, name in ref_langs.items())


def gap_definition(ref_lang: str) -> str:
    """What a gap, its interval and its p are: the note every gap table of a file refers to."""
    return (
        f"Gap: language − {ref_lang} on the questions both answered ((u): unpaired, when they share too few), "
        f"with its {INTERVAL_LABEL}. p (Holm): the test's p, Holm-adjusted over the languages of one model "
        "on one metric (* p<0.05, ** p<0.01, *** p<0.001). The test and the interval measure different things "
        "and are not adjusted alike, so they can disagree: a star with an interval that includes 0, "
        "or no star with one that excludes it."
    )


def define_test(test: str) -> str:
    """``McNemar: McNemar's test compares the discordant questions, ...``: one test, once per file."""
    quantity = TEST_QUANTITIES.get(test, "")
    return f"{TEST_NAMES.get(test, test)}: {quantity}." if quantity else TEST_NAMES.get(test, test)


def gap_cell(metric: str | Metric, gap: Gap | None) -> str:
    """A gap and its Holm-adjusted p in one cell: ``−0.052 [−0.081, −0.020], p 0.004 **``;
    ``n/a`` where nothing was computed."""
    if gap is None or not has_gap(gap):
        return "n/a"
    p = p_cell(gap)
    return gap_text(metric, gap) + ("" if p == "n/a" else f", p {p}")


def untested_reason(table: ReportTable, model: str) -> str | None:
    """Why none of ``model``'s gaps on this table was computed, or None where one was."""
    gaps = [table.gap(model, lang) for lang in table.langs if lang != table.ref_lang]
    if any(has_gap(gap) for gap in gaps):
        return None
    notes = [gap.note for gap in gaps if gap is not None and gap.note]
    if notes:
        return notes[0]
    if not table.per_question:
        return "a pooled metric, no per-question values"
    return f"no {table.ref_lang} values" if table.ref_lang not in table.langs else "no other language"


def gaps_heading(table: ReportTable) -> str:
    """``Gap vs en (McNemar)``: the tests a table's gaps used, named once above it."""
    used = [TEST_NAMES[test] for test in _tests(table)]
    return f"Gap vs {table.ref_lang}" + (f" ({', '.join(used)})" if used else "")


def gaps_note(table: ReportTable) -> str:
    """A LaTeX gap table's caption note: what the interval is, what the star and p test,
    and that the two can disagree."""
    quantities = [TEST_QUANTITIES[test] for test in _tests(table) if test in TEST_QUANTITIES]
    tested = "; ".join(quantities) if quantities else "no test could be run"
    return (
        f"Gap: language − {table.ref_lang}, with its {INTERVAL_LABEL}. "
        f"p (Holm) and stars: the test's p, Holm-adjusted over the languages of a model "
        f"(* p<0.05, ** p<0.01, *** p<0.001). It tests a different quantity than the interval "
        f"({tested}), so they can disagree: a star with an interval that includes 0, "
        f"or no star with one that excludes it."
    )


def missing_notes(table: ReportTable) -> list[str]:
    """Why a table's cells are n/a: ``n/a (m1 es, m1 ca): reason.``, one note per reason."""
    reasons: dict[str, list[str]] = {}
    for model, cells in table.rows.items():
        for lang, cell in cells.items():
            if cell.missing:
                reasons.setdefault(cell.missing, []).append(f"{model} {lang}")
    return [f"n/a ({', '.join(where)}): {reason}." for reason, where in reasons.items()]


def cell_notes(table: ReportTable) -> list[str]:
    """The notes of a table's values: why a cell is n/a, and the † of low-resource
    languages."""
    return missing_notes(table) + low_resource_note(table.langs)


def untested_models(table: ReportTable) -> dict[str, str]:
    """Each model of ``table`` none of whose gaps was computed, with why (``untested_reason``)."""
    return {model: why for model in table.rows if (why := untested_reason(table, model)) is not None}
