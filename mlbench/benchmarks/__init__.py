"""The benchmarks mlbench knows, found rather than listed.

Every sub-package here is a benchmark (its task, loader, data sources, prompts, options,
statistics and figures) and registers its ``Task`` classes when imported; every
``declared/*.toml`` is a benchmark written in the declarative format, read as ``--include``
reads a user's (without recording a file: it ships with mlbench). Benchmarks
installed by other packages are found through the ``mlbench.benchmarks`` entry-point
group, and ``mlbench run --include PATH`` adds those in a file or folder outside any
package (see ``mlbench.benchmarks.include``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from importlib.metadata import entry_points
from pathlib import Path

from mlbench.benchmarks.base import Task
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.metrics.catalog import Declared, use_benchmarks
from mlbench.records.jsontypes import JsonValue

ENTRY_POINT_GROUP = "mlbench.benchmarks"
TASKS: dict[str, type[Task]] = {}
_discovered = False


def register(task: type[Task]) -> type[Task]:
    """Class decorator: make ``task`` known by its name. A second class under the same
    name is refused, so a user benchmark cannot silently replace a built-in one."""
    existing = TASKS.get(task.name)
    if existing is not None and existing is not task and _qualified(existing) != _qualified(task):
        raise MlbenchError(f"two benchmarks are called {task.name!r}: {_qualified(existing)} and {_qualified(task)}")
    TASKS[task.name] = task
    return task


def get_task(name: str) -> Task:
    discover()
    if name not in TASKS:
        given = clipped(repr(name))
        raise MlbenchError(f"unknown task {given}{did_you_mean(name, TASKS)}; available: {', '.join(sorted(TASKS))}")
    return TASKS[name]()


def all_tasks() -> list[Task]:
    discover()
    return [TASKS[name]() for name in sorted(TASKS)]


# Packages of mlbench/benchmarks that are not a benchmark: the engine that reads benchmark
# files (declared/*.toml, --include) into tasks.
NOT_BENCHMARKS = frozenset({"declarative"})


def discover() -> None:
    """Import every built-in benchmark package and every installed entry point, once."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and module.name not in NOT_BENCHMARKS:
            importlib.import_module(f"{__name__}.{module.name}")
    from mlbench.benchmarks.include import register_declared

    for path in sorted((Path(__file__).parent / "declared").glob("*.toml")):
        register_declared(path, TASKS, register)
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as error:  # a broken plug-in names itself instead of a traceback
            raise MlbenchError(
                f"benchmark entry point {entry.name!r} ({entry.value}) failed to load: {error}"
            ) from None
        if isinstance(loaded, type) and issubclass(loaded, Task):
            register(loaded)


def include_files(paths: Iterable[Path]) -> list[str]:
    """Load the user's benchmarks in ``paths`` (``--include``: .py files, benchmark .toml
    files, folders of them); the names of the tasks they define."""
    paths = list(paths)
    if not paths:
        return []
    from mlbench.benchmarks.include import include

    discover()  # first: a user benchmark may not take a built-in one's name
    return include(paths, TASKS, register)


def included_from(name: str) -> dict[str, str] | None:
    """The file (path, sha256) task ``name`` was included from; None for any other task."""
    from mlbench.benchmarks.include import origin

    return origin(name)


def task_of_run(name: str, recorded: JsonValue, where: str) -> Task:
    """The task of a finished run (results.json at ``where``), including again the file its
    ``config.include`` records when the task is not known (a user's benchmark)."""
    from mlbench.benchmarks.include import recorded_file

    discover()
    if name not in TASKS:
        path = recorded_file(name, recorded, where)
        if path is None:
            raise MlbenchError(f"{where}: unknown benchmark {name!r}; if it is your own, pass --include PATH")
        include_files([path])
    return get_task(name)


def _declarations() -> list[Declared]:
    """Every known benchmark's metric descriptors and headline, for the metric catalog."""
    discover()
    return [Declared(name, cls.metric_descriptors, cls.headline_metrics) for name, cls in TASKS.items()]


use_benchmarks(_declarations)


def _qualified(task: type[Task]) -> str:
    return f"{task.__module__}.{task.__qualname__}"
