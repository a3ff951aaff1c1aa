"""PERMANOVA (Anderson 2001): do groups of points differ, judged on a distance matrix?
(docs/protocols.md#msqad.) Equal to scikit-bio's ``permanova``, including its p-values for a seed:
the permutations are drawn in the same order from ``numpy.random.default_rng(seed)``.

pseudo-F = (S_A / (g − 1)) / (S_W / (n − g)), where S_T is the sum of squared distances
over pairs divided by n, S_W the same within each group divided by the group's size, and
S_A = S_T − S_W. p = (1 + #{F_perm ≥ F}) / (1 + permutations).

Every permutation's S_W is a quadratic form of the squared distances in the group
indicators, so a block of permutations is one matrix product instead of a loop over
pairs: a few seconds for 999 permutations of 4,000 points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PERMUTATION_BLOCK = 128  # permutations per matrix product (memory: block × n floats)


@dataclass(frozen=True)
class Permanova:
    pseudo_f: float
    p: float  # NaN when permutations == 0
    n: int
    groups: int
    permutations: int


def euclidean_distances(points: np.ndarray) -> np.ndarray:
    """The matrix of Euclidean distances between the rows of ``points``."""
    points = np.asarray(points, dtype=np.float64)
    squared = np.sum(points**2, axis=1)
    gram = points @ points.T
    d2 = np.maximum(squared[:, None] + squared[None, :] - 2.0 * gram, 0.0)
    np.fill_diagonal(d2, 0.0)
    return np.sqrt(d2)


def _within(d2: np.ndarray, labels: np.ndarray, inverse_sizes: np.ndarray, groups: int) -> np.ndarray:
    """S_W for each row of ``labels`` (permutations × n group indices)."""
    total = np.zeros(labels.shape[0])
    for g in range(groups):
        member = (labels == g).astype(np.float64)
        # Σ_{i<j in g} d²_ij = ½ · mᵀ D² m (the diagonal is 0)
        total += 0.5 * np.einsum("pi,pi->p", member @ d2, member) * inverse_sizes[g]
    return total


def permanova(
    distances: np.ndarray, grouping: Sequence[object], *, permutations: int = 999, seed: int = 0
) -> Permanova:
    """PERMANOVA of ``grouping`` (one label per row of the square ``distances``)."""
    d = np.asarray(distances, dtype=np.float64)
    n = d.shape[0]
    if d.shape != (n, n) or len(grouping) != n:
        raise ValueError(f"distances must be n×n with one group label per row; got {d.shape} and {len(grouping)}")
    if permutations < 0:
        raise ValueError("permutations must be ≥ 0")
    names, labels = np.unique(np.asarray(grouping, dtype=object).astype(str), return_inverse=True)
    groups = len(names)
    if groups < 2 or groups == n:
        raise ValueError("PERMANOVA needs at least two groups and a group with more than one member")
    d2 = d**2
    inverse_sizes = 1.0 / np.bincount(labels).astype(np.float64)
    s_total = d2.sum() / n / 2.0

    def pseudo_f(label_rows: np.ndarray) -> np.ndarray:
        s_within = _within(d2, label_rows, inverse_sizes, groups)
        return ((s_total - s_within) / (groups - 1)) / (s_within / (n - groups))

    with np.errstate(divide="ignore", invalid="ignore"):
        observed = float(pseudo_f(labels[None, :])[0])
    if permutations == 0 or math.isnan(observed):
        # No spread at all (every point the same): the statistic and its p are undefined.
        return Permanova(observed, math.nan, n, groups, permutations)
    rng = np.random.default_rng(seed)
    exceed = 0
    for start in range(0, permutations, PERMUTATION_BLOCK):
        block = np.stack([rng.permutation(labels) for _ in range(min(PERMUTATION_BLOCK, permutations - start))])
        with np.errstate(divide="ignore", invalid="ignore"):
            exceed += int(np.sum(pseudo_f(block) >= observed))
    return Permanova(observed, (exceed + 1) / (permutations + 1), n, groups, permutations)
