"""Wilcoxon's signed-rank test against scipy and hand-computed cases."""

import numpy as np
import pytest
from scipy import stats

from mlbench.stats.signed_rank import wilcoxon


def test_hand_computed_exact_p():
    # Five positive differences with ranks 1..5: W- = 0, and only 1 of the 2^5 sign
    # patterns reaches it on each side: p = 2/32.
    r = wilcoxon([1.0, 2.0, 3.0, 4.0, 5.0], [0.0] * 5)
    assert (r.statistic, r.n, r.method, r.p) == (0.0, 5, "exact", 0.0625)
    # Differences -1, 2, 3: W- = 1; subsets of {1,2,3} with sum <= 1: {}, {1} -> 2/8, p = 0.5.
    r = wilcoxon([0.0, 2.0, 3.0], [1.0, 0.0, 0.0])
    assert (r.statistic, r.p) == (1.0, 0.5)


@pytest.mark.parametrize("seed", range(8))
def test_exact_equals_scipy_without_ties(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 51))
    a, b = rng.normal(size=n), rng.normal(size=n) + rng.uniform(-0.5, 0.5)
    ours = wilcoxon(a, b)
    theirs = stats.wilcoxon(a, b, method="exact")
    assert ours.method == "exact"
    assert ours.statistic == pytest.approx(float(theirs.statistic), rel=1e-12)
    assert ours.p == pytest.approx(float(theirs.pvalue), rel=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_normal_approximation_equals_scipy_with_ties_and_zeros(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(20, 400))
    # Rounded values: many tied |differences| and some zero differences, as BLEU gives.
    a, b = rng.normal(size=n).round(1), (rng.normal(size=n) + 0.1).round(1)
    ours = wilcoxon(a, b)
    theirs = stats.wilcoxon(a, b, method="asymptotic", zero_method="wilcox", correction=False)
    assert ours.method == "normal"
    assert ours.n == int(np.count_nonzero(a - b))
    assert ours.statistic == pytest.approx(float(theirs.statistic), rel=1e-12)
    assert ours.p == pytest.approx(float(theirs.pvalue), rel=1e-9)


def test_large_samples_without_ties_use_the_normal_approximation():
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=120), rng.normal(size=120)
    ours = wilcoxon(a, b)
    assert ours.method == "normal"
    assert ours.p == pytest.approx(float(stats.wilcoxon(a, b, method="asymptotic").pvalue), rel=1e-9)


def test_no_difference_gives_p_one():
    r = wilcoxon([0.3, 0.5], [0.3, 0.5])
    assert (r.n, r.p, r.method) == (0, 1.0, "no difference")


def test_unequal_lengths_are_refused():
    with pytest.raises(ValueError, match="equal lengths"):
        wilcoxon([1.0, 2.0], [1.0])
