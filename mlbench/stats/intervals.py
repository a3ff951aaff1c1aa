"""Confidence intervals for the mean of per-question values."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

import numpy as np

from mlbench.records import MetricValue

DEFAULT_RESAMPLES = 1000


def mean_stderr(values: Sequence[float]) -> float:
    """Standard error of the mean (sample std, ddof=1, over √n); 0 for fewer than 2 values."""
    n = len(values)
    if n < 2:
        return 0.0
    return float(np.std(np.asarray(values, dtype=float), ddof=1) / math.sqrt(n))


def bootstrap_ci(
    values: Sequence[float],
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean, resampling questions with replacement."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        raise ValueError("bootstrap_ci needs at least one value")
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, data.size, size=(resamples, data.size))
    means = data[indices].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def summarize(values: Sequence[float], *, seed: int = 0) -> MetricValue:
    """Mean with its 95% bootstrap interval and standard error."""
    low, high = bootstrap_ci(values, seed=seed)
    return MetricValue(
        value=float(np.mean(np.asarray(values, dtype=float))),
        ci_low=low,
        ci_high=high,
        stderr=mean_stderr(values),
    )


def bootstrap_statistics(
    units: int,
    statistics: Callable[[np.ndarray], Mapping[str, float | None] | None],
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> dict[str, tuple[float, float, float]]:
    """Percentile interval and standard error of named statistics of ``units`` questions,
    computed together on each resample (``statistics`` gets the resampled question
    indices). A statistic undefined (None) on a resample is left out of that resample;
    one never defined gets no interval."""
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {}
    for _ in range(resamples):
        values = statistics(rng.integers(0, units, size=units)) or {}
        for name, value in values.items():
            if value is not None:
                draws.setdefault(name, []).append(value)
    alpha = (1.0 - confidence) / 2.0
    out = {}
    for name, drawn in draws.items():
        data = np.asarray(drawn, dtype=float)
        low, high = np.quantile(data, [alpha, 1.0 - alpha])
        out[name] = (float(low), float(high), float(np.std(data, ddof=1)) if data.size > 1 else 0.0)
    return out


def bootstrap_mean_difference(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    paired: bool,
    confidence: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of mean(b) − mean(a). Paired: ``a[i]`` and ``b[i]`` are the same
    question, resampled together (the same draws as ``bootstrap_ci`` of the differences).
    Unpaired: each sample resampled on its own."""
    if paired:
        if len(a) != len(b):
            raise ValueError(f"paired values need equal lengths, got {len(a)} and {len(b)}")
        diffs = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
        means = _resampled_means(diffs, resamples, seed, 0)
    else:
        means = _resampled_means(np.asarray(b, dtype=float), resamples, seed, 1) - _resampled_means(
            np.asarray(a, dtype=float), resamples, seed, 0
        )
    return percentile_interval(means, confidence)


def percentile_interval(draws: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The two-sided percentile interval of ``draws``, as ``np.quantile``'s default
    (linear) method computes it, from a partial sort: a report takes thousands."""
    alpha = (1.0 - confidence) / 2.0
    last = draws.size - 1
    positions = (last * alpha, last * (1.0 - alpha))
    needed = sorted({k for p in positions for k in (math.floor(p), min(math.floor(p) + 1, last))})
    ordered = np.partition(draws, needed)
    bounds = []
    for position in positions:
        below = math.floor(position)
        above = min(below + 1, last)
        bounds.append(float(ordered[below] + (ordered[above] - ordered[below]) * (position - below)))
    return bounds[0], bounds[1]


def _resampled_means(values: np.ndarray, resamples: int, seed: int, stream: int) -> np.ndarray:
    if values.size == 0:
        raise ValueError("a bootstrap needs at least one value")
    return _resample_counts(values.size, resamples, seed, stream) @ values / values.size


@lru_cache(maxsize=8)
def _resample_counts(size: int, resamples: int, seed: int, stream: int) -> np.ndarray:
    """How often each of ``size`` questions is drawn in each resample. Kept: a report
    compares many languages and metrics over the same number of questions, and one
    matrix product per metric is much faster than indexing every resample."""
    rng = np.random.default_rng(seed if stream == 0 else [seed, stream])
    draws = rng.integers(0, size, size=(resamples, size))
    offsets = (np.arange(resamples) * size)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=resamples * size).reshape(resamples, size)
    counts = counts.astype(float)
    counts.flags.writeable = False
    return counts
