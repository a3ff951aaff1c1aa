"""The descriptors of the metrics every benchmark shares: multiple choice, BLEU, the
surface checks of generated answers and the judges' metrics. A benchmark declares its own
beside the code that computes them and lists them in ``Task.metric_descriptors``;
``mlbench.metric_catalog`` puts the two together.
"""

from __future__ import annotations

from mlbench.metrics.bleu import BLEU_METRICS
from mlbench.metrics.descriptor import Metric, by_name
from mlbench.metrics.judged import JUDGE_DESCRIPTORS
from mlbench.metrics.mc import MC_METRICS
from mlbench.metrics.surface import SURFACE_DESCRIPTORS

SHARED_METRICS: dict[str, Metric] = by_name((*MC_METRICS, *BLEU_METRICS, *SURFACE_DESCRIPTORS, *JUDGE_DESCRIPTORS))
