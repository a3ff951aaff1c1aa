"""msqad: see task.py."""

from mlbench.benchmarks.msqad import task  # noqa: F401  (registers the task)
