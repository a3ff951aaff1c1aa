"""calmqa: see task.py."""

from mlbench.benchmarks.calmqa import task  # noqa: F401  (registers the task)
