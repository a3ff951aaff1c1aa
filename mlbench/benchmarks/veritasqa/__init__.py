"""veritasqa: see task.py."""

from mlbench.benchmarks.veritasqa import task  # noqa: F401  (registers the task)
