"""Wilcoxon's signed-rank test for paired continuous outcomes (MC2, BLEU, similarity of
the same question in two languages; docs/protocols.md#comparing-languages).

Zero differences are dropped (Wilcoxon's own rule, scipy's default ``zero_method``);
the absolute differences are ranked with ties averaged. The statistic is the smaller
rank sum. The p-value is exact (the null distribution of the positive rank sum, counted
by dynamic programming) when at most ``EXACT_UP_TO`` differences remain and none tie,
and otherwise from the normal approximation with the tie correction and no continuity
correction: the same two rules as ``scipy.stats.wilcoxon(method="exact" | "asymptotic")``.

>>> r = wilcoxon([1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 0.0, 0.0, 0.0, 0.0])
>>> r.statistic, r.method, r.p
(0.0, 'exact', 0.0625)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

EXACT_UP_TO = 50


@dataclass(frozen=True)
class SignedRank:
    statistic: float  # min(W+, W-)
    n: int  # non-zero differences
    p: float
    method: str  # "exact" | "normal" | "no difference"
    z: float | None = None  # only for the normal approximation


def wilcoxon(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> SignedRank:
    """Two-sided signed-rank test of ``a[i] - b[i]`` (same question, two conditions).
    All differences zero means no evidence of a difference: p = 1."""
    if len(a) != len(b):
        raise ValueError(f"paired values need equal lengths, got {len(a)} and {len(b)}")
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[d != 0]
    n = int(d.size)
    if n == 0:
        return SignedRank(0.0, 0, 1.0, "no difference")
    # Average ranks of |d|: a run of t tied values at ranks e-t+1..e all get e - (t-1)/2.
    _, where, tie_sizes = np.unique(np.abs(d), return_inverse=True, return_counts=True)
    ranks = (np.cumsum(tie_sizes) - (tie_sizes - 1) / 2.0)[where]
    w_plus = float(ranks[d > 0].sum())
    statistic = min(w_plus, n * (n + 1) / 2 - w_plus)
    if n <= EXACT_UP_TO and (tie_sizes == 1).all():
        return SignedRank(statistic, n, _exact_p(int(statistic), n), "exact")
    mean = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - float((tie_sizes**3 - tie_sizes).sum()) / 48
    z = (statistic - mean) / math.sqrt(variance)
    return SignedRank(statistic, n, min(1.0, math.erfc(abs(z) / math.sqrt(2.0))), "normal", z)


def _exact_p(statistic: int, n: int) -> float:
    """2 · P(W ≤ statistic) under the null, where W is the sum of a random subset of the
    ranks 1..n (each rank's sign a fair coin), capped at 1."""
    top = n * (n + 1) // 2
    ways = np.zeros(top + 1)
    ways[0] = 1.0
    for rank in range(1, n + 1):
        ways[rank:] = ways[rank:] + ways[:-rank].copy()
    lower = ways[: statistic + 1].sum() / 2.0**n
    return min(1.0, 2.0 * float(lower))
