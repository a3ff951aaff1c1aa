"""Binary classification metrics for verifiability (SPEC.md §3): macro precision, recall
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

THRESHOLD = 0.5  # a score of P(yes) ≥ 0.5 predicts "yes"


def _precision_recall_f1(labels: Sequence[int], predicted: Sequence[int], positive: int) -> tuple[float, float, float]:
    tp = sum(1 for y, p in zip(labels, predicted) if y == positive and p == positive)
    predicted_positive = sum(1 for p in predicted if p == positive)
    actual_positive = sum(1 for y in labels if y == positive)
    precision = tp / predicted_positive if predicted_positive else 0.0
    recall = tp / actual_positive if actual_positive else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve: the chance that a random positive scores above a random
    negative, ties counting one half (the Mann–Whitney form)."""
    positives = [s for y, s in zip(labels, scores, strict=True) if y == 1]
    negatives = [s for y, s in zip(labels, scores) if y == 0]
    if not positives or not negatives or len(set(scores)) == 1:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def classification_metrics(labels: Sequence[int], scores: Sequence[float]) -> dict[str, float | None]:
    """``precision``, ``recall``, ``f1`` (macro over the classes present in labels or
    predictions), ``accuracy`` and ``auc`` of scores in [0, 1] against 0/1 labels."""
    if len(labels) != len(scores):
        raise ValueError(f"{len(labels)} labels but {len(scores)} scores")
    if not labels:
        raise ValueError("classification metrics need at least one item")
    predicted = [int(s >= THRESHOLD) for s in scores]
    classes = sorted(set(labels) | set(predicted))
    per_class = [_precision_recall_f1(labels, predicted, c) for c in classes]
    return {
        "precision": sum(p for p, _, _ in per_class) / len(classes),
        "recall": sum(r for _, r, _ in per_class) / len(classes),
        "f1": sum(f for _, _, f in per_class) / len(classes),
        "accuracy": sum(y == p for y, p in zip(labels, predicted)) / len(labels),
        "auc": roc_auc(labels, scores),
    }
