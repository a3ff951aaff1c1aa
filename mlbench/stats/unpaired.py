"""Tests for two independent samples: ``mlbench report``'s fallback when two languages do
not share their questions (CaLMQA's culturally specific questions). Fisher's exact test
for yes/no outcomes, Mann–Whitney U for continuous ones.

>>> fisher_exact(yes_a=8, n_a=10, yes_b=2, n_b=10).p < 0.05
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class UnpairedTest:
    name: str  # "fisher" | "mann-whitney"
    statistic: float
    p: float


def fisher_exact(*, yes_a: int, n_a: int, yes_b: int, n_b: int) -> UnpairedTest:
    """Two-sided Fisher's exact test on the 2×2 table of yes/no counts of two samples."""
    from scipy import stats  # only for unpaired data: scipy.stats takes half a second to import

    table = [[yes_a, n_a - yes_a], [yes_b, n_b - yes_b]]
    result = stats.fisher_exact(table, alternative="two-sided")
    return UnpairedTest("fisher", float(result.statistic), float(result.pvalue))


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> UnpairedTest:
    """Two-sided Mann–Whitney U of ``a`` against ``b``; p = 1 when every value is the same
    (nothing to rank)."""
    if len(set(a) | set(b)) <= 1:
        return UnpairedTest("mann-whitney", len(a) * len(b) / 2, 1.0)
    from scipy import stats

    result = stats.mannwhitneyu(a, b, alternative="two-sided")
    return UnpairedTest("mann-whitney", float(result.statistic), float(result.pvalue))
