"""Benchmarks register themselves here; the pipeline and CLI only read the registry."""

from __future__ import annotations

from mlbench.errors import MlbenchError
from mlbench.tasks.base import Task

TASKS: dict[str, type[Task]] = {}


def register(task: type[Task]) -> type[Task]:
    TASKS[task.name] = task
    return task


def get_task(name: str) -> Task:
    _import_all()
    if name not in TASKS:
        raise MlbenchError(f"unknown task {name!r}; available: {', '.join(sorted(TASKS))}")
    return TASKS[name]()


def all_tasks() -> list[Task]:
    _import_all()
    return [TASKS[name]() for name in sorted(TASKS)]


def _import_all() -> None:
    # Importing a task module runs its @register.
    from mlbench.tasks import calmqa, msqad, truthfulqa_multi, veritasqa, xlinghealth  # noqa: F401
