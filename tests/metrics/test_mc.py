import math

import numpy as np
import pytest

from mlbench.metrics.mc import mc_metrics


def test_hand_computed_case():
    m = mc_metrics([-1.0, -3.0], [-2.0])
    e = math.exp
    assert m["mc1"] == 1.0
    assert m["mc2"] == pytest.approx((e(-1) + e(-3)) / (e(-1) + e(-3) + e(-2)), abs=1e-12)
    assert m["mc2"] == pytest.approx(0.7553, abs=1e-4)
    assert m["mc3"] == 0.5  # -1 beats -2, -3 does not
    assert m["lprob_max"] == -1.0
    assert m["lprob_diff"] == 1.0


def test_mc1_tie_policy():
    # TruthfulQA (lm-eval argmax picks index 0) counts a tie as correct; VeritasQA is strict.
    assert mc_metrics([-2.0], [-2.0, -5.0], mc1_ties="correct")["mc1"] == 1.0
    assert mc_metrics([-2.0], [-2.0, -5.0])["mc1"] == 0.0
    assert mc_metrics([-2.0], [-2.0, -5.0])["mc3"] == 0.0


def test_best_answer_missing_from_true_list():
    m = mc_metrics([-3.0, -4.0], [-1.0], best_ll=-0.5)
    assert m["mc1"] == 1.0  # the best answer beats every false option
    assert m["mc3"] == 0.0  # but no listed true option does
    assert m["lprob_max"] == -3.0
    assert m["lprob_diff"] == -2.0


def test_very_negative_loglikelihoods_do_not_underflow():
    m = mc_metrics([-1000.0, -1001.0], [-1002.0])
    # exp(-1000) is 0.0 in float64: the naive ratio would be 0/0 = nan.
    assert np.exp(np.array([-1000.0])).sum() == 0.0
    e = math.exp
    assert m["mc2"] == pytest.approx((1 + e(-1)) / (1 + e(-1) + e(-2)), abs=1e-12)


def test_mc2_matches_lm_eval_formula_for_moderate_values():
    rng = np.random.default_rng(0)
    for _ in range(50):
        true = rng.uniform(-30, -1, size=rng.integers(1, 6))
        false = rng.uniform(-30, -1, size=rng.integers(1, 6))
        p_true, p_false = np.exp(true), np.exp(false)
        reference = (p_true / (p_true.sum() + p_false.sum())).sum()
        assert mc_metrics(list(true), list(false))["mc2"] == pytest.approx(reference, abs=1e-12)


def test_mc3_counts_each_true_option():
    m = mc_metrics([-1.0, -2.0, -6.0, -7.0], [-5.0, -9.0])
    assert m["mc3"] == 0.5


def test_needs_both_kinds_of_options():
    with pytest.raises(ValueError):
        mc_metrics([], [-1.0])
    with pytest.raises(ValueError):
        mc_metrics([-1.0], [])
