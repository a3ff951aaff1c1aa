"""Verifiability results of a language: pooled classification metrics per temperature."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import f1_score, roc_auc_score

from mlbench.benchmarks.xlinghealth.verifiability import tempered_yes, verifiability_metrics
from mlbench.records import SampleRecord


def _logprob_record(log_odds: list[float], temperatures=(0.0, 1.0)):
    candidates = [{"answer_id": str(i), "label": int(i == 0), "log_odds": v} for i, v in enumerate(log_odds)]
    block = {"scoring": "logprob", "temperatures": list(temperatures), "candidates": candidates}
    return SampleRecord("q", outputs={"verifiability": block})


def test_tempered_yes():
    assert tempered_yes(math.log(3), 1.0) == pytest.approx(0.75)
    assert tempered_yes(math.log(3), 0.5) == pytest.approx(0.9)  # 3² : 1
    assert (tempered_yes(0.2, 0.0), tempered_yes(-0.2, 0.0), tempered_yes(0.0, 0.0)) == (1.0, 0.0, 0.5)
    assert tempered_yes(-800.0, 0.25) == 0.0 and tempered_yes(800.0, 0.25) == 1.0


def test_pooled_metrics_equal_sklearn_over_all_candidates():
    rng = np.random.default_rng(3)
    records = [_logprob_record(rng.normal(0, 2, 5).tolist()) for _ in range(40)]
    metrics, counts = verifiability_metrics(records, seed=0)
    labels = [c["label"] for r in records for c in r.outputs["verifiability"]["candidates"]]
    odds = [c["log_odds"] for r in records for c in r.outputs["verifiability"]["candidates"]]
    scores = [tempered_yes(v, 1.0) for v in odds]
    predicted = [int(s >= 0.5) for s in scores]
    assert metrics["verify_f1@1"].value == pytest.approx(f1_score(labels, predicted, average="macro"))
    assert metrics["verify_auc@1"].value == pytest.approx(roc_auc_score(labels, scores))
    # τ = 0: the same decisions, AUC from the hard 0/1 scores.
    assert metrics["verify_f1@0"].value == pytest.approx(metrics["verify_f1@1"].value)
    assert metrics["verify_auc@0"].value == pytest.approx(roc_auc_score(labels, predicted))
    low, high = metrics["verify_auc@1"].ci_low, metrics["verify_auc@1"].ci_high
    assert low < metrics["verify_auc@1"].value < high and counts == {}


def test_a_language_answering_yes_to_everything_has_auc_na():
    records = [_logprob_record([2.0, 1.0, 3.0, 0.5, 1.5]) for _ in range(5)]
    metrics, _ = verifiability_metrics(records, seed=0)
    assert "verify_auc@0" not in metrics  # every decision is Yes: nothing ranked
    assert metrics["verify_accuracy@0"].value == pytest.approx(0.2)
    assert metrics["verify_recall@0"].value == pytest.approx(0.5)  # class 1 all found, class 0 none
    assert "verify_auc@1" in metrics  # the probabilities still rank the candidates


def test_generated_words_and_unparsed_ones_are_counted():
    candidates = [
        {"answer_id": "0", "label": 1, "words": {"0": "yes", "1": "unparsed"}},
        {"answer_id": "1", "label": 0, "words": {"0": "no", "1": "yes"}},
    ]
    block = {"scoring": "generate", "temperatures": [0, 1], "candidates": candidates}
    record = SampleRecord("q", outputs={"verifiability": block})
    metrics, counts = verifiability_metrics([record], seed=0)
    assert metrics["verify_accuracy@0"].value == 1.0 and metrics["verify_auc@0"].value == 1.0
    assert metrics["verify_accuracy@1"].value == 0.0  # the one readable word at τ=1 is wrong
    assert counts == {"unparsed_verifiability": 1}
    assert verifiability_metrics([SampleRecord("q")], seed=0) == ({}, {})
