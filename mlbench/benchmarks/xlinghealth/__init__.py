"""xlinghealth: the task (task.py), its data sources (sources.py) and what they use."""

from mlbench.benchmarks.xlinghealth import sources, task  # noqa: F401  (registers the sources and the task)
