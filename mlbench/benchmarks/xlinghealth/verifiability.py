"""Verifiability results of a language (docs/protocols.md#xlinghealth): macro precision, recall, F1,
accuracy and AUC over every (question, candidate) pair, per temperature, with intervals
from resampling questions (a question's five candidates stay together).

Per temperature τ, a candidate's score is:
- log-prob scoring: P_τ(Yes) = 1 / (1 + e^(−(log P(Yes) − log P(No)) / τ)), the chance of
  sampling Yes rather than No at τ; at τ = 0 the greedy decision (1, 0, or 0.5 on a tie).
  The decision (score ≥ 0.5) is the same at every τ, so only AUC at τ = 0 differs.
- generate scoring: 1 for a parsed Yes, 0 for No; an unparsed word is left out and counted.
"""

from __future__ import annotations

import math

import numpy as np

from mlbench.metrics.classification import classification_metrics
from mlbench.metrics.descriptor import share
from mlbench.metrics.names import at, temperature_key
from mlbench.records import MetricValue, SampleRecord
from mlbench.records.json_shapes import json_list, json_number, json_object, json_objects
from mlbench.records.jsontypes import JsonObject
from mlbench.stats.intervals import bootstrap_statistics

VERIFY_METRICS = ("verify_precision", "verify_recall", "verify_f1", "verify_accuracy", "verify_auc")
# What each is (see mlbench/metrics/descriptor.py): pooled over a language's candidates,
# so there is no per-question value to test a gap on.
_WORD_SCORES = {"yes": 1.0, "no": 0.0}
_YES_NO = "the model's Yes/No on whether a candidate answer is correct"
VERIFY_DESCRIPTORS = tuple(
    share(name, description, computed_with="verifiability", missing_reason=reason)
    for name, description, reason in (
        ("verify_precision", f"macro precision of {_YES_NO}", ""),
        ("verify_recall", f"macro recall of {_YES_NO}", ""),
        ("verify_f1", f"macro F1 of {_YES_NO}", ""),
        ("verify_accuracy", f"accuracy of {_YES_NO}", ""),
        (
            "verify_auc",
            "ROC AUC of the model's Yes scores against which candidates are correct",
            "AUC undefined: the candidates are all of one class or all scored the same "
            "(at temperature 0, e.g. every decision Yes)",
        ),
    )
)


def tempered_yes(log_odds: float, temperature: float) -> float:
    if temperature == 0:
        return 1.0 if log_odds > 0 else 0.0 if log_odds < 0 else 0.5
    scaled = log_odds / temperature
    return 1.0 / (1.0 + math.exp(-scaled)) if scaled >= 0 else math.exp(scaled) / (1.0 + math.exp(scaled))


def candidate_scores(block: JsonObject, key: str) -> list[tuple[int, float | None]]:
    """(label, score) of each candidate of one question at temperature ``key``; the score
    is None for a word that could not be read."""
    pairs: list[tuple[int, float | None]] = []
    for candidate in json_objects(block["candidates"], "a verifiability block's candidates"):
        label = int(json_number(candidate["label"], "a candidate's label"))
        if block["scoring"] == "logprob":
            pairs.append(
                (label, tempered_yes(json_number(candidate["log_odds"], "a candidate's log_odds"), float(key)))
            )
        else:
            word = json_object(candidate["words"], "a candidate's words").get(key)
            pairs.append((label, _WORD_SCORES.get(word) if isinstance(word, str) else None))
    return pairs


def verifiability_metrics(records: list[SampleRecord], seed: int) -> tuple[dict[str, MetricValue], dict[str, int]]:
    """``verify_<metric>@<τ>`` for the language, and the count of unparsed words."""
    blocks = [
        json_object(r.outputs["verifiability"], "a verifiability block")
        for r in records
        if "verifiability" in r.outputs
    ]
    if not blocks:
        return {}, {}
    keys = sorted(
        {
            temperature_key(json_number(t, "a temperature"))
            for b in blocks
            for t in json_list(b["temperatures"], "a verifiability block's temperatures")
        },
        key=float,
    )
    metrics: dict[str, MetricValue] = {}
    unparsed = 0
    for key in keys:
        per_question = [candidate_scores(b, key) for b in blocks]
        unparsed += sum(score is None for pairs in per_question for _, score in pairs)
        scored = [[(y, s) for y, s in pairs if s is not None] for pairs in per_question]
        metrics.update(_with_intervals(scored, key, seed))
    return metrics, ({"unparsed_verifiability": unparsed} if unparsed else {})


def _with_intervals(per_question: list[list[tuple[int, float]]], key: str, seed: int) -> dict[str, MetricValue]:
    labels = [np.asarray([y for y, _ in pairs], dtype=int) for pairs in per_question]
    scores = [np.asarray([s for _, s in pairs], dtype=float) for pairs in per_question]

    def metrics_of(indices: np.ndarray) -> dict[str, float | None] | None:
        y = np.concatenate([labels[i] for i in indices]) if len(indices) else np.zeros(0)
        if y.size == 0:
            return None
        return classification_metrics(y, np.concatenate([scores[i] for i in indices]))

    point = metrics_of(np.arange(len(per_question)))
    if point is None:
        return {}
    intervals = bootstrap_statistics(len(per_question), metrics_of, seed=seed)
    out = {}
    for name, value in point.items():
        if value is None:
            continue  # AUC undefined (one class, or every score equal): shown as n/a
        low, high, stderr = intervals.get(name, (value, value, 0.0))
        out[at(f"verify_{name}", key)] = MetricValue(value, low, high, stderr)
    return out
