"""McNemar's test against a hand-computed table and statsmodels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from mlbench.stats.paired import mcnemar, mcnemar_counts


def test_a_hand_computed_small_table_uses_the_exact_p():
    # b = 7, c = 2: χ² = (7 − 2)² / 9 = 25/9; exact p = 2 · P(X ≤ 2), X ~ Bin(9, ½) = 2 · 46/512.
    result = mcnemar_counts(both=5, only_a=7, only_b=2, neither=3)
    assert result.chi2 == pytest.approx(25 / 9, abs=1e-12)
    assert result.p_exact == pytest.approx(92 / 512, abs=1e-12)
    assert result.test == "exact" and result.p == result.p_exact and not result.reject
    assert result.n == 17


def test_a_large_table_uses_chi_square_and_rejects_past_3_841():
    # b = 20, c = 8: χ² = 144 / 28 = 5.142857… > 3.841, so the null is rejected at 5%.
    result = mcnemar_counts(both=40, only_a=20, only_b=8, neither=32)
    assert result.chi2 == pytest.approx(144 / 28, abs=1e-12)
    assert result.test == "chi2" and result.p_exact is None and result.p == result.p_chi2
    assert result.p < 0.05 and result.reject
    # Just under the critical value: b = 18, c = 9 gives χ² = 81/27 = 3.0, not rejected.
    assert not mcnemar_counts(both=0, only_a=18, only_b=9, neither=0).reject


def test_no_discordant_pair_is_p_one_not_a_crash():
    result = mcnemar_counts(both=10, only_a=0, only_b=0, neither=4)
    assert math.isnan(result.chi2) and result.p == 1.0 and not result.reject


@pytest.mark.parametrize("seed", range(12))
def test_equal_to_statsmodels_on_random_tables(seed):
    rng = np.random.default_rng(seed)
    both, only_a, only_b, neither = (int(x) for x in rng.integers(0, 40, size=4))
    if only_a + only_b == 0:
        only_a = 1
    table = [[both, only_a], [only_b, neither]]
    ours = mcnemar_counts(both=both, only_a=only_a, only_b=only_b, neither=neither)
    chi2 = sm_mcnemar(table, exact=False, correction=False)
    exact = sm_mcnemar(table, exact=True)
    assert ours.chi2 == pytest.approx(chi2.statistic, rel=1e-12)
    assert ours.p_chi2 == pytest.approx(chi2.pvalue, rel=1e-9)
    if ours.p_exact is not None:
        assert ours.p_exact == pytest.approx(exact.pvalue, rel=1e-9)
        assert only_a + only_b < 25
    else:
        assert only_a + only_b >= 25


def test_paired_outcomes_are_counted_into_the_table():
    a = [True, True, False, False, True, False]
    b = [True, False, True, False, False, False]
    result = mcnemar(a, b)
    assert (result.both, result.only_a, result.only_b, result.neither) == (1, 2, 1, 2)
    with pytest.raises(ValueError, match="equal lengths"):
        mcnemar(a, b[:-1])
