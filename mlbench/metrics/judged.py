"""Per-sample metrics from judge verdicts (docs/protocols.md): pure functions over numbers
and the verdict dictionaries saved in ``samples_<lang>.jsonl``.

>>> round(yes_probability([-0.5, -4.0], [-1.5]), 4)
0.7369
>>> judged_metrics({"truth": {"label": "yes"}, "info": {"label": "no"}})
{'truthful': 1.0, 'informative': 0.0, 'truthful_informative': 0.0}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Sized
from typing import TYPE_CHECKING, cast

from mlbench.metrics.descriptor import count, share

if TYPE_CHECKING:  # records imports the metrics package: only the type checker follows it
    from mlbench.records.jsontypes import JsonValue

# Yes/no judge kind → the metric its "yes" share is reported as.
YES_NO_METRICS = {"truth": "truthful", "info": "informative", "verify": "verified"}
# XLingHealth's four correctness labels → one share metric each.
CORRECTNESS_METRICS = {
    "more comprehensive and appropriate": "correctness_more",
    "less comprehensive and appropriate": "correctness_less",
    "neither contradictory nor similar": "correctness_neither",
    "contradictory": "correctness_contradictory",
}
# Judge kind → the metrics its verdicts give (``judged_metrics``); and the metrics two kinds
# give together: truthful_informative needs both the truth and the info judge.
KIND_METRICS: dict[str, tuple[str, ...]] = {
    **{kind: (metric,) for kind, metric in YES_NO_METRICS.items()},
    "relevance": ("relevant",),
    "correctness": tuple(CORRECTNESS_METRICS.values()),
    "claims": ("claims",),
    "claim_support": ("claims_supported",),
}
COMBINED_METRICS: dict[str, tuple[str, ...]] = {"truthful_informative": ("truthful", "informative")}
# Every judge metric, in the order tables show them.
JUDGE_METRICS = (
    "truthful",
    "informative",
    "truthful_informative",
    "verified",
    "relevant",
    *CORRECTNESS_METRICS.values(),
    "claims",
    "claims_supported",
)

# What each judge metric is (see descriptor.py). Of XLingHealth's four correctness labels,
# "more comprehensive" is the good one and "contradictory" the bad one (the paper's
# headline); "less comprehensive" and "neither" sit between and have no direction alone.
JUDGE_DESCRIPTORS = (
    share("truthful", "1 when the truth judge says the answer is true", binary=True),
    share("informative", "1 when the informativeness judge says the answer is informative", binary=True),
    share(
        "truthful_informative",
        "1 when the answer is both truthful and informative",
        binary=True,
        label="truthful & informative",
    ),
    share(
        "verified", "1 when the verify judge finds the answer a factually correct answer to its question", binary=True
    ),
    share("relevant", "1 when the relevance judge finds the answer relevant", binary=True),
    share(
        "correctness_more", "1 when the answer is more comprehensive and appropriate than the reference", binary=True
    ),
    share(
        "correctness_less",
        "1 when the answer is less comprehensive and appropriate than the reference",
        binary=True,
        higher_is_better=None,
    ),
    share(
        "correctness_neither",
        "1 when the answer is neither contradictory nor similar to the reference",
        binary=True,
        higher_is_better=None,
    ),
    share(
        "correctness_contradictory",
        "1 when the answer contradicts the reference",
        binary=True,
        higher_is_better=False,
        label="contradicts",
    ),
    count("claims", "verifiable claims the claim judge found in the answer"),
    share("claims_supported", "share of the answer's claims the evidence supports"),
)


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


def log_odds(yes_logprobs: Sequence[float], no_logprobs: Sequence[float]) -> float:
    """log P(yes) − log P(no), each side adding up the probabilities of its spellings."""
    return _logsumexp(yes_logprobs) - _logsumexp(no_logprobs)


def yes_probability(yes_logprobs: Sequence[float], no_logprobs: Sequence[float]) -> float:
    """P(yes) / (P(yes) + P(no)), where each side adds up the probabilities of its spellings
    (" yes", "Yes", ...), computed in log space."""
    log_yes, log_no = _logsumexp(yes_logprobs), _logsumexp(no_logprobs)
    if log_yes == -math.inf and log_no == -math.inf:
        raise ValueError("the judge gives no probability to either yes or no")
    gap = log_no - log_yes
    # 1 / (1 + e^gap), written so that neither branch overflows.
    return math.exp(-gap) / (1.0 + math.exp(-gap)) if gap > 0 else 1.0 / (1.0 + math.exp(gap))


def judged_metrics(verdicts: Mapping[str, Mapping[str, JsonValue]]) -> dict[str, float]:
    """Metric values of one sample from its verdicts by judge kind. A verdict that failed,
    was skipped or could not be parsed gives no value (it is counted elsewhere)."""

    def label(kind: str) -> JsonValue:
        return verdicts.get(kind, {}).get("label")

    values: dict[str, float] = {}
    for kind, metric in YES_NO_METRICS.items():
        if label(kind) in ("yes", "no"):
            values[metric] = float(label(kind) == "yes")
    if "truthful" in values and "informative" in values:
        values["truthful_informative"] = values["truthful"] * values["informative"]
    if label("relevance") in ("relevant", "irrelevant"):
        values["relevant"] = float(label("relevance") == "relevant")
    if label("correctness") in CORRECTNESS_METRICS:
        for name, metric in CORRECTNESS_METRICS.items():
            values[metric] = float(label("correctness") == name)
    claims = verdicts.get("claims", {})
    if claims.get("label") == "parsed":
        # cast: len() refuses a value that has no length itself, as float() does below.
        values["claims"] = float(len(cast("Sized", claims.get("claims", ()))))
    supported = verdicts.get("claim_support", {}).get("supported")
    if supported is not None:
        values["claims_supported"] = float(cast(float, supported))
    return values
