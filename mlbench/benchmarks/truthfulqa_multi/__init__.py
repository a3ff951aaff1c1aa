"""truthfulqa_multi: see task.py."""

from mlbench.benchmarks.truthfulqa_multi import task  # noqa: F401  (registers the task)
