import numpy as np
import pytest
from scipy import stats

from mlbench.stats.intervals import bootstrap_ci, mean_stderr, summarize


def test_bootstrap_is_deterministic_for_a_seed():
    values = list(np.random.default_rng(1).uniform(size=50))
    assert bootstrap_ci(values, seed=3) == bootstrap_ci(values, seed=3)
    assert bootstrap_ci(values, seed=3) != bootstrap_ci(values, seed=4)


def test_bootstrap_interval_brackets_the_mean():
    values = list(np.random.default_rng(2).normal(size=200))
    low, high = bootstrap_ci(values, seed=0)
    assert low < np.mean(values) < high
    # For a normal sample the percentile interval is close to mean ± 1.96·sem.
    sem = stats.sem(values)
    assert high - low == pytest.approx(2 * 1.96 * sem, rel=0.15)


def test_constant_values_give_a_point_interval():
    assert bootstrap_ci([1.0] * 10) == (1.0, 1.0)


def test_stderr_equals_scipy_sem():
    values = [0.0, 1.0, 1.0, 0.0, 1.0]
    assert mean_stderr(values) == pytest.approx(stats.sem(values))
    assert mean_stderr([3.0]) == 0.0


def test_summarize():
    m = summarize([0.0, 1.0, 1.0, 1.0], seed=0)
    assert m.value == 0.75
    assert m.ci_low <= 0.75 <= m.ci_high
