"""Comparing a metric across languages (docs/protocols.md#xlinghealth): one-way ANOVA, Tukey's HSD for every
pair, and unpaired t-tests. The statistics are computed here from group means and
variances; scipy supplies only the F, studentized-range and t distributions. The tests
check every number against scipy and statsmodels.

A group with fewer than two values, or data with no spread at all, gives NaN statistics
(shown as n/a) rather than an error.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05


@dataclass(frozen=True)
class Anova:
    f: float
    p: float
    df_between: int
    df_within: int


@dataclass(frozen=True)
class TukeyPair:
    """Tukey–Kramer comparison of two groups; ``mean_diff`` = mean(b) − mean(a), the sign
    statsmodels' ``pairwise_tukeyhsd`` uses."""

    a: str
    b: str
    mean_diff: float
    ci_low: float
    ci_high: float
    p_adj: float
    reject: bool


@dataclass(frozen=True)
class TTest:
    """Unpaired two-sample t-test of a against b (Student's, pooled variance, unless Welch)."""

    a: str
    b: str
    t: float
    p: float
    df: float
    reject: bool


def _arrays(groups: Mapping[str, Sequence[float]]) -> dict[str, np.ndarray]:
    return {name: np.asarray(values, dtype=float) for name, values in groups.items()}


def _within(data: dict[str, np.ndarray]) -> tuple[float, int]:
    """Sum of squares within groups and its degrees of freedom."""
    ss = sum(float(((v - v.mean()) ** 2).sum()) for v in data.values() if v.size)
    return ss, sum(v.size for v in data.values()) - len(data)


def one_way_anova(groups: Mapping[str, Sequence[float]]) -> Anova:
    """F test that every group has the same mean."""
    from scipy import stats

    data = _arrays(groups)
    k, total = len(data), sum(v.size for v in data.values())
    if k < 2 or any(v.size == 0 for v in data.values()) or total <= k:
        return Anova(math.nan, math.nan, k - 1, total - k)
    grand = np.concatenate(list(data.values())).mean()
    ss_between = sum(v.size * (v.mean() - grand) ** 2 for v in data.values())
    ss_within, df_within = _within(data)
    if ss_within == 0:
        return Anova(math.nan, math.nan, k - 1, df_within)
    f = (ss_between / (k - 1)) / (ss_within / df_within)
    return Anova(float(f), float(stats.f.sf(f, k - 1, df_within)), k - 1, df_within)


def tukey_hsd(groups: Mapping[str, Sequence[float]], *, alpha: float = ALPHA) -> list[TukeyPair]:
    """Every pair (in the groups' order) with the Tukey–Kramer interval and adjusted p."""
    from scipy import stats

    data = _arrays(groups)
    k = len(data)
    ss_within, df_within = _within(data)
    mse = ss_within / df_within if df_within > 0 else math.nan
    q_crit = float(stats.studentized_range.ppf(1 - alpha, k, df_within)) if df_within > 0 and k >= 2 else math.nan
    pairs = []
    for a, b in itertools.combinations(data, 2):
        diff = float(data[b].mean() - data[a].mean())
        se = math.sqrt(mse / 2 * (1 / data[a].size + 1 / data[b].size)) if mse > 0 else math.nan
        if math.isnan(se):
            pairs.append(TukeyPair(a, b, diff, math.nan, math.nan, math.nan, False))
            continue
        p = float(stats.studentized_range.sf(abs(diff) / se, k, df_within))
        pairs.append(TukeyPair(a, b, diff, diff - q_crit * se, diff + q_crit * se, p, p < alpha))
    return pairs


def t_tests(groups: Mapping[str, Sequence[float]], *, welch: bool = False, alpha: float = ALPHA) -> list[TTest]:
    """A two-sided unpaired t-test for every pair of groups, in the groups' order."""
    from scipy import stats

    data = _arrays(groups)
    tests = []
    for a, b in itertools.combinations(data, 2):
        x, y = data[a], data[b]
        n1, n2 = x.size, y.size
        if n1 < 2 or n2 < 2:
            tests.append(TTest(a, b, math.nan, math.nan, math.nan, False))
            continue
        v1, v2 = x.var(ddof=1), y.var(ddof=1)
        if welch:
            se = math.sqrt(v1 / n1 + v2 / n2)
            df = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1)) if se else math.nan
        else:
            df = n1 + n2 - 2
            pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
            se = math.sqrt(pooled * (1 / n1 + 1 / n2))
        if se == 0:
            tests.append(TTest(a, b, math.nan, math.nan, float(df), False))
            continue
        t = float((x.mean() - y.mean()) / se)
        p = float(2 * stats.t.sf(abs(t), df))
        tests.append(TTest(a, b, t, p, float(df), p < alpha))
    return tests
