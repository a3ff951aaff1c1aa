"""Agreement between two label columns: Cohen's κ (as scikit-learn computes it), percent
agreement and a bootstrap interval for κ, with missing labels counted, not dropped.

>>> round(cohen_kappa(["yes", "yes", "no", "no"], ["yes", "no", "no", "no"]), 4)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mlbench.records.jsontypes import JsonObject
from mlbench.stats.intervals import DEFAULT_RESAMPLES

# Spellings of a yes/no label that mean the same thing (human label files use all of them).
_YES_NO = {"yes": "yes", "y": "yes", "true": "yes", "1": "yes", "no": "no", "n": "no", "false": "no", "0": "no"}


def normalize_label(value: object) -> str | None:
    """One label in a comparable form: case and whitespace ignored, yes/no spellings
    (true/false, 1/0, y/n) unified; None for a missing label (empty, null, NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = " ".join(str(value).lower().split())
    if not text or text in ("nan", "null", "none"):
        return None
    return _YES_NO.get(text, text)


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float:
    """Cohen's κ of two equally long label lists: 1 − Σ w·observed / Σ w·expected with
    w = 1 off the diagonal, the same arithmetic as ``sklearn.metrics.cohen_kappa_score``.
    NaN when it is undefined (both raters used one and the same label throughout)."""
    if len(a) != len(b) or not a:
        raise ValueError("cohen_kappa needs two non-empty label lists of the same length")
    labels = sorted(set(a) | set(b))
    index = {label: i for i, label in enumerate(labels)}
    confusion = np.zeros((len(labels), len(labels)), dtype=np.int64)
    np.add.at(confusion, ([index[x] for x in a], [index[y] for y in b]), 1)
    return _kappa_from_confusion(confusion)


def _kappa_from_confusion(confusion: np.ndarray) -> float:
    sum0 = np.sum(confusion, axis=0)
    sum1 = np.sum(confusion, axis=1)
    expected = np.outer(sum0, sum1) / np.sum(sum0)
    weights = np.ones_like(confusion, dtype=int)
    weights.flat[:: confusion.shape[0] + 1] = 0
    denominator = np.sum(weights * expected)
    if denominator == 0:
        return math.nan
    return float(1 - np.sum(weights * confusion) / denominator)


@dataclass(frozen=True)
class Agreement:
    group: str
    n: int  # items with both labels
    missing_a: int  # items without a label in column a
    missing_b: int
    agreement: float  # share of the n items with equal labels
    kappa: float
    ci_low: float  # 95% percentile bootstrap interval of κ over items
    ci_high: float

    def to_json(self) -> JsonObject:
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in self.__dict__.items()}


def kappa_interval(
    a: Sequence[str], b: Sequence[str], *, seed: int = 0, resamples: int = DEFAULT_RESAMPLES
) -> tuple[float, float]:
    """Percentile bootstrap interval of κ, resampling items with replacement. Resamples in
    which κ is undefined (one label only) are left out; NaN when all are."""
    labels = sorted(set(a) | set(b))
    index = {label: i for i, label in enumerate(labels)}
    codes_a = np.array([index[x] for x in a])
    codes_b = np.array([index[y] for y in b])
    rng = np.random.default_rng(seed)
    kappas = []
    for rows in rng.integers(0, len(a), size=(resamples, len(a))):
        confusion = np.zeros((len(labels), len(labels)), dtype=np.int64)
        np.add.at(confusion, (codes_a[rows], codes_b[rows]), 1)
        kappas.append(_kappa_from_confusion(confusion))
    defined = np.array([k for k in kappas if not math.isnan(k)])
    if defined.size == 0:
        return math.nan, math.nan
    low, high = np.quantile(defined, [0.025, 0.975])
    return float(low), float(high)


def agreement(
    a: Sequence[object], b: Sequence[object], *, group: str = "all", seed: int = 0, resamples: int = DEFAULT_RESAMPLES
) -> Agreement:
    """κ, percent agreement and interval over the items where both labels are present;
    items missing a label are counted in ``missing_a`` / ``missing_b``."""
    if len(a) != len(b):
        raise ValueError("agreement needs two label columns of the same length")
    left = [normalize_label(x) for x in a]
    right = [normalize_label(y) for y in b]
    pairs = [(x, y) for x, y in zip(left, right) if x is not None and y is not None]
    missing_a = sum(x is None for x in left)
    missing_b = sum(y is None for y in right)
    if not pairs:
        return Agreement(group, 0, missing_a, missing_b, math.nan, math.nan, math.nan, math.nan)
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    low, high = kappa_interval(xs, ys, seed=seed, resamples=resamples)
    share = sum(x == y for x, y in pairs) / len(pairs)
    return Agreement(group, len(pairs), missing_a, missing_b, share, cohen_kappa(xs, ys), low, high)
