"""Is a metric's difference between languages real? One-way ANOVA across the languages,
then Tukey's HSD and unpaired t-tests for every pair (docs/protocols.md#xlinghealth; the shapes of
XLingEval's Tables 2, A12 and A13), per question group (dataset), metric and setting.

The result is named tables of flat rows, saved in results.json under
``cross_language`` and rendered in table.md; NaN (no spread, too few questions)
becomes None, shown as n/a. Every row ends with ``note``: empty when the statistic was
computed, else why it is n/a (e.g. "n/a: every value equal (within 1e-6 × max(1, largest
absolute value))" for identical answers at temperature 0, whose sim_sent is 1 ± 2e-7 from
float32 embeddings; the tolerance rule is in ``mlbench.stats.groups``), so the reason is in
results.json and in table.md's column.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlbench.metrics.names import base_name, expand_order
from mlbench.records import SampleRecord
from mlbench.records.jsontypes import Tables
from mlbench.stats.groups import one_way_anova, t_tests, tukey_hsd


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def compare_languages(records_by_lang: dict[str, list[SampleRecord]], metrics: Sequence[str]) -> Tables:
    """``anova``, ``tukey`` and ``t_tests`` rows for every metric of ``metrics`` (and each
    of its ``@`` settings) that at least two languages have, per group of questions."""
    tables: Tables = {"anova": [], "tukey": [], "t_tests": []}
    groups = sorted({r.group or "all" for records in records_by_lang.values() for r in records})
    for group in groups:
        mine = {lang: [r for r in records if (r.group or "all") == group] for lang, records in records_by_lang.items()}
        present = {name for records in mine.values() for r in records for name in r.metrics}
        for metric in expand_order(metrics, present):
            values = {
                lang: [r.metrics[metric] for r in records if metric in r.metrics] for lang, records in mine.items()
            }
            values = {lang: v for lang, v in values.items() if v}
            if len(values) < 2:
                continue
            setting = metric.split("@", 1)[1] if "@" in metric else ""
            where = {"group": group, "metric": base_name(metric), "temperature": setting}
            anova = one_way_anova(values)
            tables["anova"].append(
                {
                    **where,
                    "n": ", ".join(f"{lang} {len(v)}" for lang, v in values.items()),
                    "F": _number(anova.f),
                    "p": _number(anova.p),
                    "df_between": anova.df_between,
                    "df_within": anova.df_within,
                    "note": anova.note,
                }
            )
            for pair in tukey_hsd(values):
                tables["tukey"].append(
                    {
                        **where,
                        "pair": f"{pair.a}–{pair.b}",
                        "mean_diff": _number(pair.mean_diff),
                        "ci_low": _number(pair.ci_low),
                        "ci_high": _number(pair.ci_high),
                        "p_adj": _number(pair.p_adj),
                        "reject": pair.reject,
                        "note": pair.note,
                    }
                )
            for test in t_tests(values):
                tables["t_tests"].append(
                    {
                        **where,
                        "pair": f"{test.a}–{test.b}",
                        "t": _number(test.t),
                        "p": _number(test.p),
                        "df": _number(test.df),
                        "reject": test.reject,
                        "note": test.note,
                    }
                )
    return {name: rows for name, rows in tables.items() if rows}
