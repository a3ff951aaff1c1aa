"""Pearson's chi-square goodness-of-fit on two yes/no counts, as the TruthfulQA-Multi
authors compare a machine translation with the human one
(``analysis/compare_to_MT_translation/statistical_test_MT.py`` in hitz-zentroa/truthfulqa-multi):
the machine translation's [yes, no] judge counts observed against the human translation's
as expected, one degree of freedom (``scipy.stats.chisquare(f_obs, f_exp)``).

It is not a paired test: it compares two proportions and ignores that the same questions
were asked, so it is reported beside McNemar's, named as theirs.

>>> round(authors_chi_square(observed=(60, 40), expected=(50, 50)).statistic, 6)
4.0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChiSquare:
    statistic: float | None
    p: float | None
    note: str = ""  # why there is no statistic
    n: int = 0  # the answers counted on the observed side (its yes + no)


def authors_chi_square(*, observed: tuple[int, int], expected: tuple[int, int]) -> ChiSquare:
    """Σ (observed − expected)² / expected over [yes, no], against χ² with 1 degree of
    freedom. The two totals must agree, as scipy requires; an expected count of 0 (every
    answer yes in one translation) leaves the statistic undefined."""
    n = sum(observed)
    if n != sum(expected):
        return ChiSquare(None, None, f"counts of {n} and {sum(expected)} answers: totals differ", n)
    if 0 in expected:
        return ChiSquare(None, None, "an expected count of 0", n)
    from scipy.stats import chi2  # scipy takes half a second to import: only when asked

    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    return ChiSquare(float(statistic), float(chi2.sf(statistic, df=1)), n=n)
