"""The unpaired fallback tests, on hand-computed cases."""

import math

import pytest

from mlbench.stats.unpaired import fisher_exact, mann_whitney


def test_fisher_exact_hand_computed():
    # 8/10 vs 2/10 yes. Tables with margins 10,10 / 10,10 as extreme as this one: a = 0..2 and
    # a = 8..10; P(a) = C(10,a) C(10,10-a) / C(20,10).
    total = math.comb(20, 10)
    tail = sum(math.comb(10, a) * math.comb(10, 10 - a) for a in (0, 1, 2)) / total
    result = fisher_exact(yes_a=8, n_a=10, yes_b=2, n_b=10)
    assert result.p == pytest.approx(2 * tail, rel=1e-9)
    assert result.statistic == pytest.approx((8 * 8) / (2 * 2))


def test_fisher_exact_same_rates_is_not_significant():
    assert fisher_exact(yes_a=5, n_a=10, yes_b=5, n_b=10).p == pytest.approx(1.0)


def test_mann_whitney_hand_computed():
    # Every b above every a: U = 0; exactly 2 of the C(6,3) = 20 orderings are this extreme.
    result = mann_whitney([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    assert result.statistic == 0.0
    assert result.p == pytest.approx(2 / 20)


def test_mann_whitney_constant_values():
    assert mann_whitney([0.5, 0.5], [0.5]).p == 1.0
