"""Pure metric functions: numbers and strings in, numbers out. No I/O, no models."""

from mlbench.metrics.bleu import bleu_metrics, bleu_score, close_answer, normalize_references
from mlbench.metrics.mc import mc_metrics

__all__ = ["bleu_metrics", "bleu_score", "close_answer", "mc_metrics", "normalize_references"]
