"""xlinghealth: see task.py."""

from mlbench.benchmarks.xlinghealth import task  # noqa: F401  (registers the task)
