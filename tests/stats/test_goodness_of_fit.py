"""The TruthfulQA-Multi authors' test of a machine translation against the human one:
scipy's chisquare of the MT's [yes, no] counts against the human's as expected
(statistical_test_MT.py), reproduced on planted counts."""

from __future__ import annotations

import pytest
from scipy.stats import chisquare

from mlbench.stats.goodness_of_fit import authors_chi_square

# [yes, no] counts of 817 judged answers: MT observed, human expected, as their script lists them.
PLANTED = [((430, 387), (452, 365)), ((300, 517), (301, 516)), ((817, 0), (700, 117)), ((12, 8), (5, 15))]


@pytest.mark.parametrize(("observed", "expected"), PLANTED)
def test_equals_scipy_chisquare_with_the_human_counts_expected(observed, expected):
    theirs = chisquare(list(observed), list(expected))
    ours = authors_chi_square(observed=observed, expected=expected)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.p == pytest.approx(theirs.pvalue, rel=1e-9)


def test_by_hand():
    # (60-50)²/50 + (40-50)²/50 = 4; P(χ²₁ > 4) = 0.0455
    result = authors_chi_square(observed=(60, 40), expected=(50, 50))
    assert result.statistic == pytest.approx(4.0) and result.p == pytest.approx(0.04550026, abs=1e-8)
    assert result.n == 100  # the answers counted, which the report shows beside the p


def test_not_symmetric_the_expected_side_matters():
    one = authors_chi_square(observed=(12, 8), expected=(5, 15))
    other = authors_chi_square(observed=(5, 15), expected=(12, 8))
    assert one.statistic != pytest.approx(other.statistic)


def test_an_expected_count_of_zero_or_unequal_totals_give_no_statistic():
    assert authors_chi_square(observed=(3, 2), expected=(5, 0)).note == "an expected count of 0"
    unequal = authors_chi_square(observed=(3, 2), expected=(5, 1))
    assert unequal.p is None and "totals differ" in unequal.note
    with pytest.raises(ValueError):  # scipy refuses them too
        chisquare([3, 2], [5, 1])
