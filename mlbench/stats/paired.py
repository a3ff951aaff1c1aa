"""McNemar's test for paired binary outcomes: did the same questions get refused in one
language and not in the other? (docs/protocols.md#msqad; also the paired test of ``mlbench report``.)

The statistic is the uncorrected χ² = (b − c)² / (b + c) on the discordant counts, with
one degree of freedom; below ``exact_below`` discordant pairs the exact two-sided
binomial p is used instead, as statsmodels recommends for small tables.

>>> r = mcnemar_counts(both=5, only_a=7, only_b=2, neither=3)
>>> round(r.chi2, 4), r.test, round(r.p, 4)
(2.7778, 'exact', 0.1797)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ALPHA = 0.05
EXACT_BELOW = 25


@dataclass(frozen=True)
class McNemar:
    both: int  # yes in A and in B
    only_a: int  # b: yes in A, no in B
    only_b: int  # c: no in A, yes in B
    neither: int
    chi2: float  # NaN when there is no discordant pair
    p_chi2: float  # NaN when there is no discordant pair
    p_exact: float | None  # only when b + c < exact_below
    p: float  # the p the decision uses: exact when computed, else χ²
    test: str  # "exact" | "chi2"
    reject: bool

    @property
    def n(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither


def mcnemar_counts(
    *, both: int, only_a: int, only_b: int, neither: int, alpha: float = ALPHA, exact_below: int = EXACT_BELOW
) -> McNemar:
    """McNemar's test on a 2×2 table of paired yes/no outcomes."""
    discordant = only_a + only_b
    if discordant:
        chi2 = (only_a - only_b) ** 2 / discordant
        # The χ² tail with one degree of freedom is the two-sided normal tail of √χ².
        p_chi2 = math.erfc(math.sqrt(chi2 / 2.0))
    else:
        chi2 = p_chi2 = math.nan
    p_exact = None
    if discordant < exact_below:
        # Two-sided binomial p at 1/2: twice the smaller tail, counted in integers, capped at 1.
        tail = sum(math.comb(discordant, k) for k in range(min(only_a, only_b) + 1))
        p_exact = min(1.0, 2.0 * tail / 2**discordant) if discordant else 1.0
    p = p_exact if p_exact is not None else p_chi2
    return McNemar(
        both, only_a, only_b, neither, chi2, p_chi2, p_exact, p, "exact" if p_exact is not None else "chi2", p < alpha
    )


def mcnemar(a: Sequence[bool], b: Sequence[bool], *, alpha: float = ALPHA, exact_below: int = EXACT_BELOW) -> McNemar:
    """McNemar's test on paired outcomes: ``a[i]`` and ``b[i]`` belong to the same question."""
    if len(a) != len(b):
        raise ValueError(f"paired outcomes need equal lengths, got {len(a)} and {len(b)}")
    both = sum(1 for x, y in zip(a, b) if x and y)
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    return mcnemar_counts(
        both=both,
        only_a=only_a,
        only_b=only_b,
        neither=len(a) - both - only_a - only_b,
        alpha=alpha,
        exact_below=exact_below,
    )
