"""ANOVA, Tukey HSD and t-tests against scipy and statsmodels on fixed data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multicomp import pairwise_tukeyhsd

from mlbench.stats.groups import (
    ALL_EQUAL,
    NO_SPREAD,
    NO_SPREAD_PAIR,
    PAIR_EQUAL,
    TOLERANCE,
    TOO_FEW_PAIR,
    one_way_anova,
    t_tests,
    tukey_hsd,
)

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
    too_few = t_tests({"en": [1.0], "es": [2.0, 3.0]})[0]
    assert math.isnan(too_few.t) and too_few.reject is None and too_few.note == TOO_FEW_PAIR


def _all_na(groups, note_anova, note_tukey, note_t):
    """Every statistic over ``groups`` is n/a, with the given reasons, and nothing is rejected."""
    anova = one_way_anova(groups)
    assert math.isnan(anova.f) and math.isnan(anova.p) and anova.note == note_anova
    for pair in tukey_hsd(groups):
        assert math.isnan(pair.p_adj) and math.isnan(pair.ci_low) and pair.reject is None
        assert pair.note == note_tukey
    for welch in (False, True):
        for test in t_tests(groups, welch=welch):
            assert math.isnan(test.t) and math.isnan(test.p) and test.reject is None and test.note == note_t


def test_identical_groups_are_not_tested():
    _all_na({lang: [0.75] * 10 for lang in ("en", "es", "zh", "hi")}, ALL_EQUAL, ALL_EQUAL, PAIR_EQUAL)
    assert all(pair.mean_diff == 0.0 for pair in tukey_hsd({"en": [0.75] * 3, "es": [0.75] * 4}))


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_rounding_noise_is_not_significant():
    # Temperature 0: every answer pair identical, similarities 1 up to the last bit. scipy
    # finds these "groups" different; the differences are rounding, so mlbench says n/a.
    below = float(np.nextafter(1.0, 0.0))
    noise = {"en": [1.0] * 10, "es": [below] * 5 + [1.0] * 5}
    assert stats.f_oneway(*noise.values()).pvalue < 0.05  # the trap
    _all_na(noise, ALL_EQUAL, ALL_EQUAL, PAIR_EQUAL)
    # ±1e-15 noise in four languages, and float32 embedding noise (about 1e-7) with an offset
    # that differs by language, as cosines of identical float32 vectors have.
    rng = np.random.default_rng(3)
    for scale in (1e-15, 1e-7):
        noisy = {
            lang: (1.0 + i * scale + rng.uniform(-scale, scale, 12)).tolist()
            for i, lang in enumerate(("en", "es", "zh", "hi"))
        }
        assert stats.f_oneway(*noisy.values()).pvalue < 0.05  # the trap
        assert stats.ttest_ind(noisy["en"], noisy["hi"]).pvalue < 0.05
        _all_na(noisy, ALL_EQUAL, ALL_EQUAL, PAIR_EQUAL)


def test_the_tolerance_follows_the_data_scale():
    # Lengths of about 300 words: noise of 1e-5 words is within 1e-6 · 300.
    rng = np.random.default_rng(4)
    lengths = {lang: (300.0 + rng.uniform(-1e-5, 1e-5, 8)).tolist() for lang in ("en", "es")}
    _all_na(lengths, ALL_EQUAL, ALL_EQUAL, PAIR_EQUAL)
    # The same spread in values near 0.5 is beyond 1e-6 · max(1, 0.5) = 1e-6: it is tested.
    small = {lang: (0.5 + rng.uniform(-1e-5, 1e-5, 8)).tolist() for lang in ("en", "es")}
    assert one_way_anova(small).note == "" and not math.isnan(one_way_anova(small).f)
    assert TOLERANCE == 1e-6  # the rule docs/benchmarks.md (XLingHealth) and the notes state


def test_constant_but_different_groups_would_give_an_infinite_statistic():
    groups = {"en": [1.0] * 6, "es": [0.5] * 6, "zh": [0.5 + 1e-16] * 3 + [0.5] * 3}
    assert stats.f_oneway(groups["en"], groups["es"]).statistic == math.inf  # scipy: F = inf, p = 0
    anova = one_way_anova(groups)
    assert math.isnan(anova.f) and anova.note == NO_SPREAD
    assert {p.note for p in tukey_hsd(groups)} == {NO_SPREAD}
    notes = {(t.a, t.b): t.note for t in t_tests(groups)}
    assert notes == {("en", "es"): NO_SPREAD_PAIR, ("en", "zh"): NO_SPREAD_PAIR, ("es", "zh"): PAIR_EQUAL}


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_an_equal_pair_among_varying_languages():
    # en and es identical (constant); zh varies: the en–es rows are n/a, the rest computed
    # and equal to scipy (the pooled variance includes the constant groups, as scipy's does).
    rng = np.random.default_rng(5)
    groups = {"en": [0.9] * 8, "es": [0.9] * 8, "zh": rng.normal(0.6, 0.1, 8).tolist()}
    anova = one_way_anova(groups)
    assert anova.note == "" and anova.f == pytest.approx(stats.f_oneway(*groups.values()).statistic, rel=1e-12)
    reference = stats.tukey_hsd(*groups.values())
    names = list(groups)
    for pair in tukey_hsd(groups):
        if (pair.a, pair.b) == ("en", "es"):
            assert pair.note == PAIR_EQUAL and pair.reject is None and pair.mean_diff == 0.0
            continue
        i, j = names.index(pair.a), names.index(pair.b)
        assert pair.note == "" and pair.p_adj == pytest.approx(reference.pvalue[i, j], abs=1e-9)
        assert pair.reject is True
    for test in t_tests(groups):
        if (test.a, test.b) == ("en", "es"):
            assert test.note == PAIR_EQUAL
            continue
        expected = stats.ttest_ind(groups[test.a], groups[test.b])
        assert test.note == "" and test.p == pytest.approx(expected.pvalue, rel=1e-9) and test.reject is True


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_a_real_gap_is_significant_and_equals_scipy_and_statsmodels():
    # hi answers 0.2 less consistently; en and es do not differ. One group has only rounding
    # noise in it, which must not stop the others being tested.
    rng = np.random.default_rng(6)
    groups = {
        "en": rng.normal(0.8, 0.05, 20).tolist(),
        "es": rng.normal(0.8, 0.05, 20).tolist(),
        "hi": rng.normal(0.6, 0.05, 20).tolist(),
        "zh": (0.8 + rng.uniform(-1e-15, 1e-15, 20)).tolist(),
    }
    anova = one_way_anova(groups)
    expected = stats.f_oneway(*groups.values())
    assert anova.note == "" and anova.p < 1e-6
    assert (anova.f, anova.p) == pytest.approx((expected.statistic, expected.pvalue), rel=1e-9)
    values = np.concatenate([np.asarray(v) for v in groups.values()])
    labels = np.concatenate([[name] * len(v) for name, v in groups.items()])
    reference = {(r[0], r[1]): r for r in pairwise_tukeyhsd(values, labels).summary().data[1:]}
    rejected = set()
    for pair in tukey_hsd(groups):
        row = reference[(pair.a, pair.b)]  # names already in alphabetical order
        assert pair.note == "" and pair.mean_diff == pytest.approx(row[2], abs=1e-4)
        assert pair.p_adj == pytest.approx(row[3], abs=1e-3) and pair.reject == bool(row[6])
        rejected |= {(pair.a, pair.b)} if pair.reject else set()
    assert rejected == {("en", "hi"), ("es", "hi"), ("hi", "zh")}
    for test in t_tests(groups):
        expected = stats.ttest_ind(groups[test.a], groups[test.b])
        assert test.note == "" and test.p == pytest.approx(expected.pvalue, rel=1e-9)
        assert test.reject == ("hi" in (test.a, test.b))


def test_a_value_that_is_not_a_number_is_refused_in_one_line():
    with pytest.raises(ValueError, match="group 'es' has a value that is not a finite number"):
        one_way_anova({"en": [0.1, 0.2], "es": [0.3, math.nan]})
