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


def test_paired_bootstrap_of_a_difference_is_the_bootstrap_of_the_differences():
    import numpy as np

    from mlbench.stats.intervals import bootstrap_mean_difference

    rng = np.random.default_rng(4)
    a, b = rng.random(300), rng.random(300) + 0.1
    paired = bootstrap_mean_difference(a, b, paired=True, seed=3)
    assert paired == pytest.approx(bootstrap_ci(b - a, seed=3), rel=1e-12)
    # Deterministic with a seed, different with another.
    assert bootstrap_mean_difference(a, b, paired=True, seed=3) == paired
    assert bootstrap_mean_difference(a, b, paired=True, seed=4) != paired


def test_unpaired_bootstrap_resamples_each_sample_on_its_own():
    import numpy as np

    from mlbench.stats.intervals import bootstrap_mean_difference

    a = np.zeros(50)
    b = np.r_[np.ones(25), np.zeros(25)]
    low, high = bootstrap_mean_difference(a, b, paired=False, seed=0)
    # a has no spread, so the interval is b's own bootstrap interval, drawn from b's own
    # random stream (not a's: equal sizes must not share their draws).
    draws = np.random.default_rng([0, 1]).integers(0, 50, size=(1000, 50))
    assert (low, high) == pytest.approx(tuple(np.quantile(b[draws].mean(axis=1), [0.025, 0.975])), rel=1e-12)
    assert 0.3 < low < 0.5 < high < 0.7
    assert bootstrap_mean_difference(a, b, paired=False, seed=0) == (low, high)
    with pytest.raises(ValueError, match="equal lengths"):
        bootstrap_mean_difference([1.0], [1.0, 2.0], paired=True)
