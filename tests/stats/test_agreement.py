"""Cohen's κ against scikit-learn and a table worked by hand; labels, gaps and intervals."""

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from mlbench.stats.agreement import agreement, cohen_kappa, kappa_interval, normalize_label


def test_kappa_by_hand():
    # 2x2 table over 20 items: yes/yes 8, yes/no 2, no/yes 3, no/no 7.
    # p_o = 15/20 = 0.75; p_e = (10*11 + 10*9) / 400 = 0.5; κ = (0.75 - 0.5) / 0.5 = 0.5
    a = ["yes"] * 10 + ["no"] * 10
    b = ["yes"] * 8 + ["no"] * 2 + ["yes"] * 3 + ["no"] * 7
    assert cohen_kappa(a, b) == pytest.approx(0.5, abs=1e-12)


def test_kappa_equals_sklearn_exactly():
    rng = np.random.default_rng(7)
    for _ in range(500):
        n, k = int(rng.integers(1, 80)), int(rng.integers(1, 5))
        a = [f"l{x}" for x in rng.integers(0, k, n)]
        # Correlated raters, so that κ spans its range.
        b = [x if rng.random() < 0.6 else f"l{rng.integers(0, k)}" for x in a]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn warns where κ is undefined
            expected = cohen_kappa_score(a, b)
        got = cohen_kappa(a, b)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), (a, b)


def test_kappa_is_undefined_when_both_raters_use_one_label():
    assert math.isnan(cohen_kappa(["yes"] * 5, ["yes"] * 5))
    assert cohen_kappa(["yes", "no"], ["no", "yes"]) == -1.0


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("Yes", "yes"), ("  YES ", "yes"), ("true", "yes"), (1, "yes"), (1.0, "yes"), (True, "yes"), ("y", "yes"),
        ("No", "no"), ("0", "no"), (False, "no"), ("False", "no"),
        ("More  Comprehensive", "more comprehensive"), ("", None), (None, None), (float("nan"), None), ("  ", None),
    ],
)  # fmt: skip
def test_labels_ignore_case_and_whitespace(raw, expected):
    assert normalize_label(raw) == expected


def test_missing_labels_are_counted_not_dropped_silently():
    result = agreement(["yes", "no", None, "yes", ""], ["YES", "no", "no", None, "no "])
    assert (result.n, result.missing_a, result.missing_b) == (2, 2, 1)
    assert result.agreement == 1.0
    empty = agreement([None], ["yes"])
    assert empty.n == 0 and math.isnan(empty.kappa)


def test_interval_is_seeded_and_holds_kappa():
    a = ["yes"] * 30 + ["no"] * 30
    b = ["yes"] * 25 + ["no"] * 5 + ["yes"] * 8 + ["no"] * 22
    first = agreement(a, b, seed=3)
    assert first == agreement(a, b, seed=3)
    assert first.ci_low < first.kappa < first.ci_high
    assert agreement(a, b, seed=4).ci_low != first.ci_low
    assert first.kappa == pytest.approx(cohen_kappa_score(a, b))


def test_interval_is_nan_when_every_resample_is_degenerate():
    low, high = kappa_interval(["yes"], ["yes"])
    assert math.isnan(low) and math.isnan(high)
