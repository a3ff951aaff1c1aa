"""ANOVA, Tukey HSD and t-tests against scipy and statsmodels on fixed data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multicomp import pairwise_tukeyhsd

from mlbench.stats.groups import one_way_anova, t_tests, tukey_hsd

RNG = np.random.default_rng(7)
# Unequal sizes (Tukey–Kramer) and one group shifted, like one language answering differently.
GROUPS = {
    "en": RNG.normal(0.50, 0.10, 30).tolist(),
    "es": RNG.normal(0.52, 0.12, 25).tolist(),
    "zh": RNG.normal(0.40, 0.08, 28).tolist(),
    "hi": RNG.normal(0.30, 0.15, 22).tolist(),
}


def test_anova_equals_scipy():
    result = one_way_anova(GROUPS)
    expected = stats.f_oneway(*GROUPS.values())
    assert result.f == pytest.approx(expected.statistic, rel=1e-12)
    assert result.p == pytest.approx(expected.pvalue, rel=1e-9)
    assert (result.df_between, result.df_within) == (3, 101)


def test_anova_by_hand():
    # Means 2, 4 and 6 with 3 values each: SSB = 3·(4+0+4) = 24, SSW = 3·2 = 6, F = (24/2)/(6/6) = 12.
    result = one_way_anova({"a": [1, 2, 3], "b": [3, 4, 5], "c": [5, 6, 7]})
    assert result.f == pytest.approx(12.0)
    assert result.p == pytest.approx(stats.f.sf(12.0, 2, 6))


def test_tukey_equals_statsmodels_and_scipy():
    pairs = tukey_hsd(GROUPS)
    values = np.concatenate([np.asarray(v) for v in GROUPS.values()])
    labels = np.concatenate([[name] * len(v) for name, v in GROUPS.items()])
    reference = pairwise_tukeyhsd(values, labels, alpha=0.05)
    table = {(row[0], row[1]): row for row in reference.summary().data[1:]}
    scipy_result = stats.tukey_hsd(*GROUPS.values())
    scipy_ci = scipy_result.confidence_interval(0.95)
    names = list(GROUPS)
    assert len(pairs) == 6
    for pair in pairs:
        # statsmodels orders each pair alphabetically; flip the sign when ours is the other way.
        key = tuple(sorted((pair.a, pair.b)))
        sign = 1 if key == (pair.a, pair.b) else -1
        row = table[key]
        assert pair.mean_diff == pytest.approx(sign * row[2], abs=1e-4)
        i, j = names.index(pair.a), names.index(pair.b)
        # scipy: statistic[i, j] = mean_i - mean_j; ours is mean_b - mean_a.
        assert pair.mean_diff == pytest.approx(-scipy_result.statistic[i, j], rel=1e-12)
        assert pair.p_adj == pytest.approx(scipy_result.pvalue[i, j], abs=1e-9)
        assert pair.ci_low == pytest.approx(-scipy_ci.high[i, j], rel=1e-9)
        assert pair.ci_high == pytest.approx(-scipy_ci.low[i, j], rel=1e-9)
        assert pair.reject == bool(row[6])
        lo, hi = sorted((sign * row[4], sign * row[5]))
        assert (pair.ci_low, pair.ci_high) == pytest.approx((lo, hi), abs=1e-4)


@pytest.mark.parametrize("welch", [False, True])
def test_t_tests_equal_scipy(welch):
    for test in t_tests(GROUPS, welch=welch):
        expected = stats.ttest_ind(GROUPS[test.a], GROUPS[test.b], equal_var=not welch)
        assert test.t == pytest.approx(expected.statistic, rel=1e-12)
        assert test.p == pytest.approx(expected.pvalue, rel=1e-9)
        assert test.reject == (expected.pvalue < 0.05)


def test_no_spread_gives_nan_not_an_error():
    same = {"en": [1.0, 1.0, 1.0], "es": [1.0, 1.0]}
    assert math.isnan(one_way_anova(same).f)
    assert all(math.isnan(p.p_adj) and not p.reject for p in tukey_hsd(same))
    assert all(math.isnan(t.p) for t in t_tests(same))
    assert math.isnan(t_tests({"en": [1.0], "es": [2.0, 3.0]})[0].t)
