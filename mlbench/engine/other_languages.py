"""The hint of a multi-task run's missing language: another task of the run has it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mlbench.errors import MlbenchError
from mlbench.languages import match_language

if TYPE_CHECKING:
    from mlbench.benchmarks.base import Task, TaskOptions


def elsewhere(requested: Sequence[str], available: Sequence[str], others: Sequence[tuple[Task, TaskOptions]]) -> str:
    """``; truthfulqa_multi has it: run the tasks separately, or use --lang all (each task
    runs its own languages)`` where another task of the run has a language of ``requested``
    that ``available`` (the task's) lacks; "" where none has."""
    missing = [name for name in requested if match_language(name, available) is None]
    having: dict[str, list[str]] = {}  # task → the missing languages it has
    for task, options in others:
        try:
            available = task.available_languages(options)
        except MlbenchError:  # its own mistake is said when its turn comes
            continue
        found = [name for name in missing if match_language(name, available) is not None]
        if found:
            having[task.name] = found
    if not having:
        return ""
    if len(missing) == 1:
        has = f"{', '.join(having)} {'has' if len(having) == 1 else 'have'} it"
    else:
        has = "; ".join(f"{name} has {', '.join(found)}" for name, found in having.items())
    return f"; {has}: run the tasks separately, or use --lang all (each task runs its own languages)"
