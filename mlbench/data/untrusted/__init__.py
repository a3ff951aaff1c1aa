"""The readers of files a benchmark points at that are code or templates (an author's
task YAML, its Jinja, a ``utils.py``): read as data, never run, with bounded work (the
limits: ``mlbench.records.budgets``; docs/architecture.md, "Files from outside")."""
