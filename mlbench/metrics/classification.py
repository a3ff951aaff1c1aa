"""Binary classification metrics for verifiability (docs/protocols.md#xlinghealth): macro precision, recall
and F1 over the two classes, accuracy, and ROC AUC. Pure functions over labels and scores.

Macro averages follow scikit-learn (``average="macro"``, ``zero_division=0``): a class the
model never predicts has precision 0. AUC is ``None`` (reported as n/a) when it has no
meaning: only one class among the labels, or scores that are all equal, which rank nothing.

>>> classification_metrics([1, 0, 0, 1], [0.9, 0.2, 0.6, 0.4])["accuracy"]
0.5
>>> roc_auc([1, 0, 0, 1], [0.9, 0.2, 0.6, 0.4])
0.75
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

THRESHOLD = 0.5  # a score of P(yes) ≥ 0.5 predicts "yes"


def roc_auc(labels: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float | None:
    """Area under the ROC curve: the chance that a random positive scores above a random
    negative, ties counting one half (the Mann–Whitney form, from average ranks)."""
    from scipy.stats import rankdata

    y = np.asarray(labels, dtype=int)
    s = np.asarray(scores, dtype=float)
    if y.shape != s.shape:
        raise ValueError(f"{y.size} labels but {s.size} scores")
    positives = int(y.sum())
    negatives = y.size - positives
    if positives == 0 or negatives == 0 or np.all(s == s[0]):
        return None
    rank_sum = float(rankdata(s)[y == 1].sum())
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def classification_metrics(
    labels: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray
) -> dict[str, float | None]:
    """``precision``, ``recall``, ``f1`` (macro over the classes present in labels or
    predictions), ``accuracy`` and ``auc`` of scores in [0, 1] against 0/1 labels."""
    y = np.asarray(labels, dtype=int)
    s = np.asarray(scores, dtype=float)
    if y.shape != s.shape:
        raise ValueError(f"{y.size} labels but {s.size} scores")
    if y.size == 0:
        raise ValueError("classification metrics need at least one item")
    predicted = (s >= THRESHOLD).astype(int)
    precisions, recalls, f1s = [], [], []
    for positive in sorted(set(y.tolist()) | set(predicted.tolist())):
        tp = int(((y == positive) & (predicted == positive)).sum())
        predicted_positive, actual_positive = int((predicted == positive).sum()), int((y == positive).sum())
        precision = tp / predicted_positive if predicted_positive else 0.0
        recall = tp / actual_positive if actual_positive else 0.0
        precisions.append(precision)
        recalls.append(recall)
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return {
        "precision": float(np.mean(precisions)),
        "recall": float(np.mean(recalls)),
        "f1": float(np.mean(f1s)),
        "accuracy": float((y == predicted).mean()),
        "auc": roc_auc(y, s),
    }
