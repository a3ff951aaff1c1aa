"""The minimum detectable difference: the normal approximation against statsmodels'
power solver, Connor's McNemar sample size solved back, and the cases without one."""

import math

import pytest
from scipy import optimize, stats
from statsmodels.stats.power import NormalIndPower

from mlbench.stats.power import mdd_mcnemar, mdd_mean_difference


def connor_n(delta: float, discordant: float, alpha: float, power: float) -> float:
    z_a, z_b = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    return (z_a * math.sqrt(discordant) + z_b * math.sqrt(discordant - delta**2)) ** 2 / delta**2


@pytest.mark.parametrize(("n", "alpha", "power"), [(30, 0.05, 0.8), (817, 0.05, 0.8), (100, 0.01, 0.9)])
def test_mean_difference_is_the_normal_approximation(n, alpha, power):
    sd = 0.27
    hand = (stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)) * sd / math.sqrt(n)
    assert mdd_mean_difference(sd, n, alpha=alpha, power=power) == pytest.approx(hand, rel=1e-12)
    # statsmodels solves the same normal power for a one-sample design (ratio=0), counting
    # the far tail too, which moves it by far less than a part in 10^4.
    solved = NormalIndPower().solve_power(nobs1=n, alpha=alpha, power=power, ratio=0, alternative="two-sided")
    assert mdd_mean_difference(sd, n, alpha=alpha, power=power) == pytest.approx(solved * sd, rel=1e-4)


@pytest.mark.parametrize(("n", "discordant"), [(20, 0.3), (200, 0.15), (817, 0.05), (100, 0.9)])
def test_mcnemar_solves_connors_sample_size(n, discordant):
    mdd = mdd_mcnemar(discordant, n)
    assert connor_n(mdd, discordant, 0.05, 0.8) == pytest.approx(n, rel=1e-9)
    # The same root found numerically, on the branch where a larger difference needs fewer pairs.
    root = optimize.brentq(lambda d: connor_n(d, discordant, 0.05, 0.8) - n, 1e-6, math.sqrt(discordant) * (1 - 1e-12))
    assert mdd == pytest.approx(root, rel=1e-9)


def test_mcnemar_tends_to_the_normal_form_for_many_questions():
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert mdd_mcnemar(0.2, 100_000) == pytest.approx(z * math.sqrt(0.2 / 100_000), rel=1e-3)


def test_no_mdd_without_a_spread_or_questions():
    assert mdd_mean_difference(0.0, 100) is None
    assert mdd_mean_difference(0.3, 1) is None
    assert mdd_mean_difference(math.nan, 100) is None
    assert mdd_mcnemar(0.0, 100) is None
    assert mdd_mcnemar(0.5, 1) is None
    # Below z_0.975² − z_0.8² ≈ 3.1 pairs, Connor's equation has no solution.
    assert mdd_mcnemar(0.5, 3) is None and mdd_mcnemar(0.5, 4) is not None
