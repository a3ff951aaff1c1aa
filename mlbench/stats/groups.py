"""Comparing a metric across languages (docs/protocols.md#xlinghealth): one-way ANOVA, Tukey's HSD for every
pair, and unpaired t-tests. The statistics are computed here from group means and
variances; scipy supplies only the F, studentized-range and t distributions. The tests
check every number against scipy and statsmodels.

Values equal within a tolerance are equal. Two values x, y count as equal when
|x − y| ≤ TOLERANCE · scale, where scale = max(1, largest |value| of the comparison) and
TOLERANCE = 1e-6. Why 1e-6 and not 1e-9: sim_sent comes from float32 embeddings, and
identical answers at temperature 0 score 1 ± 2e-7 (measured; the topic cosines 1 ± 1e-15),
which 1e-9 would take for real spread; any real spread between questions is orders of
magnitude larger than 1e-6. A group whose values all lie within that tolerance is constant, and a statistic
whose variance comes from such groups is rounding noise, not evidence:

- every value equal → n/a ("every value equal");
- every group constant but the groups differ → F or t would be infinite → n/a;
- a pair whose values are all equal → that pair's Tukey row and t-test are n/a.

Each result carries ``note``, empty when the statistic was computed and otherwise the
reason it is n/a (starting "n/a: "); its statistics are then NaN and ``reject`` is None.
Too few values (a group with fewer than two, for a t-test) are n/a the same way, never
an error. A mean difference within the tolerance is reported as 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05
# Relative tolerance under which two values are the same value (see the module docstring).
TOLERANCE = 1e-6
_WITHIN = f"within 1e{round(math.log10(TOLERANCE))} × max(1, largest absolute value)"
ALL_EQUAL = f"n/a: every value equal ({_WITHIN})"
PAIR_EQUAL = f"n/a: every value of the pair equal ({_WITHIN})"
NO_SPREAD = f"n/a: no spread within any language ({_WITHIN}): F would be infinite"
NO_SPREAD_PAIR = f"n/a: no spread within either language ({_WITHIN}): t would be infinite"
TOO_FEW = "n/a: too few values (each language needs one, and one language two)"
TOO_FEW_PAIR = "n/a: a language with fewer than two values"
TOO_FEW_GROUPS = "n/a: fewer than two languages"


@dataclass(frozen=True)
class Anova:
    f: float
    p: float
    df_between: int
    df_within: int
    note: str = ""  # why F and p are n/a; empty when they were computed


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
    reject: bool | None  # None when n/a
    note: str = ""


@dataclass(frozen=True)
class TTest:
    """Unpaired two-sample t-test of a against b (Student's, pooled variance, unless Welch)."""

    a: str
    b: str
    t: float
    p: float
    df: float
    reject: bool | None  # None when n/a
    note: str = ""


def _arrays(groups: Mapping[str, Sequence[float]]) -> dict[str, np.ndarray]:
    data = {name: np.asarray(values, dtype=float) for name, values in groups.items()}
    for name, values in data.items():
        if not np.all(np.isfinite(values)):
            raise ValueError(f"group {name!r} has a value that is not a finite number")
    return data


def tolerance(data: Mapping[str, np.ndarray]) -> float:
    """The absolute tolerance of a comparison: TOLERANCE times max(1, the largest |value|),
    so that metrics in [0, 1] and lengths in words alike are judged on their own scale."""
    largest = max((float(np.abs(v).max()) for v in data.values() if v.size), default=0.0)
    return TOLERANCE * max(1.0, largest)


def _constant(values: np.ndarray, tol: float) -> bool:
    """Every value within ``tol`` of every other (an empty group is not constant)."""
    return bool(values.size) and float(values.max() - values.min()) <= tol


def _all_equal(arrays: Sequence[np.ndarray], tol: float) -> bool:
    joined = np.concatenate(list(arrays))
    return _constant(joined, tol)


def _no_spread_note(data: Mapping[str, np.ndarray], tol: float) -> str:
    """ALL_EQUAL or NO_SPREAD when no group has spread beyond ``tol`` (the within-group
    variance is zero up to rounding, so F and the Tukey intervals are meaningless); else ""."""
    if not all(_constant(v, tol) for v in data.values()):
        return ""
    return ALL_EQUAL if _all_equal(list(data.values()), tol) else NO_SPREAD


def _within(data: dict[str, np.ndarray]) -> tuple[float, int]:
    """Sum of squares within groups and its degrees of freedom."""
    ss = sum(float(((v - v.mean()) ** 2).sum()) for v in data.values() if v.size)
    return ss, sum(v.size for v in data.values()) - len(data)


def _difference(diff: float, tol: float) -> float:
    # A difference of rounding noise (−9.99e-16 between identical answers) is shown as 0.
    return 0.0 if abs(diff) <= tol else diff


def one_way_anova(groups: Mapping[str, Sequence[float]]) -> Anova:
    """F test that every group has the same mean."""
    from scipy import stats

    data = _arrays(groups)
    k, total = len(data), sum(v.size for v in data.values())
    if k < 2:
        return Anova(math.nan, math.nan, k - 1, total - k, TOO_FEW_GROUPS)
    if any(v.size == 0 for v in data.values()) or total <= k:
        return Anova(math.nan, math.nan, k - 1, total - k, TOO_FEW)
    ss_within, df_within = _within(data)
    note = _no_spread_note(data, tolerance(data))
    if note or ss_within == 0:
        return Anova(math.nan, math.nan, k - 1, df_within, note or NO_SPREAD)
    grand = np.concatenate(list(data.values())).mean()
    ss_between = sum(v.size * (v.mean() - grand) ** 2 for v in data.values())
    f = (ss_between / (k - 1)) / (ss_within / df_within)
    return Anova(float(f), float(stats.f.sf(f, k - 1, df_within)), k - 1, df_within)


def tukey_hsd(groups: Mapping[str, Sequence[float]], *, alpha: float = ALPHA) -> list[TukeyPair]:
    """Every pair (in the groups' order) with the Tukey–Kramer interval and adjusted p."""
    from scipy import stats

    data = _arrays(groups)
    k = len(data)
    if k < 2:
        return []  # no pair
    tol = tolerance(data)
    ss_within, df_within = _within(data)
    # The pooled variance is shared by every pair: with no spread in any group, no pair has a test.
    shared_note = TOO_FEW if df_within <= 0 or any(v.size == 0 for v in data.values()) else _no_spread_note(data, tol)
    mse = ss_within / df_within if not shared_note else math.nan
    q_crit = float(stats.studentized_range.ppf(1 - alpha, k, df_within)) if not shared_note else math.nan
    pairs = []
    for a, b in itertools.combinations(data, 2):
        x, y = data[a], data[b]
        diff = _difference(float(y.mean() - x.mean()), tol) if x.size and y.size else math.nan
        # A pair of identical values has nothing to test even where other languages vary.
        note = shared_note or (PAIR_EQUAL if _all_equal([x, y], tol) else "")
        if note:
            pairs.append(TukeyPair(a, b, diff, math.nan, math.nan, math.nan, None, note))
            continue
        se = math.sqrt(mse / 2 * (1 / x.size + 1 / y.size))
        p = float(stats.studentized_range.sf(abs(diff) / se, k, df_within))
        pairs.append(TukeyPair(a, b, diff, diff - q_crit * se, diff + q_crit * se, p, p < alpha))
    return pairs


def t_tests(groups: Mapping[str, Sequence[float]], *, welch: bool = False, alpha: float = ALPHA) -> list[TTest]:
    """A two-sided unpaired t-test for every pair of groups, in the groups' order."""
    from scipy import stats

    data = _arrays(groups)
    tol = tolerance(data)
    tests = []
    for a, b in itertools.combinations(data, 2):
        x, y = data[a], data[b]
        n1, n2 = x.size, y.size
        if n1 < 2 or n2 < 2:
            tests.append(TTest(a, b, math.nan, math.nan, math.nan, None, TOO_FEW_PAIR))
            continue
        df_student = float(n1 + n2 - 2)
        # Both groups constant: the standard error is rounding noise, so t is 0/0 or ±infinite.
        if _constant(x, tol) and _constant(y, tol):
            note = PAIR_EQUAL if _all_equal([x, y], tol) else NO_SPREAD_PAIR
            tests.append(TTest(a, b, math.nan, math.nan, math.nan if welch else df_student, None, note))
            continue
        v1, v2 = x.var(ddof=1), y.var(ddof=1)
        if welch:
            se = math.sqrt(v1 / n1 + v2 / n2)
            df = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
        else:
            df = df_student
            pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
            se = math.sqrt(pooled * (1 / n1 + 1 / n2))
        t = float((x.mean() - y.mean()) / se)
        p = float(2 * stats.t.sf(abs(t), df))
        tests.append(TTest(a, b, t, p, float(df), p < alpha))
    return tests
