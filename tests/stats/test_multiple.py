"""Holm's correction against statsmodels and a hand-computed family."""

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from mlbench.stats.multiple import holm


def test_hand_computed():
    # Sorted: 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06 (monotone).
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


@pytest.mark.parametrize("seed", range(10))
def test_equals_statsmodels(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.2, size=int(rng.integers(1, 25))) ** 2
    expected = multipletests(p, method="holm")[1]
    assert holm(list(p)) == pytest.approx(list(expected), rel=1e-12)


def test_untested_entries_stay_out_of_the_family():
    adjusted = holm([0.01, None, 0.02])
    assert adjusted[1] is None
    assert adjusted[0] == pytest.approx(0.02) and adjusted[2] == pytest.approx(0.02)
