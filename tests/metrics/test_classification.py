"""Verifiability metrics against scikit-learn on fixed labels and scores."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, precision_recall_fscore_support, roc_auc_score

from mlbench.metrics.classification import classification_metrics, roc_auc


def _sklearn(labels, scores):
    predicted = [int(s >= 0.5) for s in scores]
    p, r, f, _ = precision_recall_fscore_support(labels, predicted, average="macro", zero_division=0)
    return {"precision": p, "recall": r, "f1": f, "accuracy": accuracy_score(labels, predicted)}


@pytest.mark.parametrize("seed", range(20))
def test_equal_to_sklearn_on_random_verifiability_data(seed):
    rng = np.random.default_rng(seed)
    labels = ([1, 0, 0, 0, 0] * 8)[: 20 + seed]  # one positive per four negatives, as in XLingHealth
    scores = rng.random(len(labels)).round(2).tolist()  # rounding makes ties
    ours = classification_metrics(labels, scores)
    for name, value in _sklearn(labels, scores).items():
        assert ours[name] == pytest.approx(value, abs=1e-12), name
    assert ours["auc"] == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


def test_hand_computed_case():
    # Predictions 1,0,1,0 against labels 1,0,0,1: class 1 P=1/2 R=1/2; class 0 P=1/2 R=1/2.
    # AUC: positives 0.9, 0.4 vs negatives 0.2, 0.6 -> pairs won 1 + 1 + 0 + 1 = 3 of 4.
    metrics = classification_metrics([1, 0, 0, 1], [0.9, 0.2, 0.6, 0.4])
    assert metrics == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "accuracy": 0.5, "auc": 0.75}


def test_every_answer_yes_gives_auc_na_and_sklearn_prf():
    labels = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    scores = [1.0] * len(labels)  # a language where the model says "Yes" to everything
    ours = classification_metrics(labels, scores)
    assert ours["auc"] is None
    for name, value in _sklearn(labels, scores).items():
        assert ours[name] == pytest.approx(value, abs=1e-12), name
    assert ours["precision"] == pytest.approx(0.1)  # class 1: 2/10, class 0 never predicted: 0


def test_single_class_gives_auc_na():
    assert roc_auc([1, 1, 1], [0.2, 0.5, 0.9]) is None
    with pytest.raises(ValueError):
        classification_metrics([1, 0], [0.5])
