"""PERMANOVA against scikit-bio: the same pseudo-F and, for a seed, the same p-value.

scikit-bio is imported inside the tests: it loads numba's llvmlite, whose objects break
vLLM's scan of every loaded module when the vLLM tests run later in the same session.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from mlbench.stats.permanova import euclidean_distances, permanova


def _skbio(distances, grouping, permutations, seed):
    from skbio import DistanceMatrix
    from skbio.stats.distance import permanova as skbio_permanova

    result = skbio_permanova(DistanceMatrix(distances), grouping, permutations=permutations, seed=seed)
    return result["test statistic"], result["p-value"]


def test_euclidean_distances_equal_scipy():
    points = np.random.default_rng(0).normal(size=(30, 7))
    assert np.allclose(euclidean_distances(points), cdist(points, points), atol=1e-12)


def test_groups_that_differ_get_a_small_p_equal_to_skbio():
    rng = np.random.default_rng(1)
    points = np.vstack([rng.normal(0.0, 1.0, size=(40, 16)), rng.normal(0.8, 1.0, size=(40, 16))])
    grouping = ["en"] * 40 + ["zh"] * 40
    distances = euclidean_distances(points)
    ours = permanova(distances, grouping, permutations=999, seed=7)
    f, p = _skbio(distances, grouping, 999, 7)
    assert ours.pseudo_f == pytest.approx(f, rel=1e-9)
    assert ours.p == p == 0.001  # no permutation reaches the observed F
    assert (ours.n, ours.groups, ours.permutations) == (80, 2, 999)


def test_groups_from_one_distribution_get_a_large_p_equal_to_skbio():
    rng = np.random.default_rng(2)
    points = rng.normal(size=(80, 16))
    grouping = ["de"] * 40 + ["es"] * 40
    distances = euclidean_distances(points)
    ours = permanova(distances, grouping, permutations=999, seed=3)
    f, p = _skbio(distances, grouping, 999, 3)
    assert ours.pseudo_f == pytest.approx(f, rel=1e-9)
    assert ours.p == p and ours.p > 0.05  # not significant at 5%


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_three_unequal_groups_and_blocks_of_permutations_equal_skbio(seed):
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(45, 5))
    points[:12] += 0.4
    grouping = ["a"] * 12 + ["b"] * 20 + ["c"] * 13
    distances = euclidean_distances(points)
    # 300 permutations run as several blocks; the order of draws must match skbio's loop.
    ours = permanova(distances, grouping, permutations=300, seed=seed)
    f, p = _skbio(distances, grouping, 300, seed)
    assert ours.pseudo_f == pytest.approx(f, rel=1e-9) and ours.p == p


def test_no_permutations_and_no_spread_give_nan_p():
    points = np.random.default_rng(4).normal(size=(10, 3))
    assert math.isnan(permanova(euclidean_distances(points), ["x"] * 5 + ["y"] * 5, permutations=0).p)
    same = np.zeros((10, 3))
    flat = permanova(euclidean_distances(same), ["x"] * 5 + ["y"] * 5, permutations=99)
    assert math.isnan(flat.pseudo_f) and math.isnan(flat.p)


def test_bad_input_is_refused():
    distances = euclidean_distances(np.eye(4))
    with pytest.raises(ValueError):
        permanova(distances, ["a", "a", "a", "a"])
    with pytest.raises(ValueError):
        permanova(distances, ["a", "b"])
