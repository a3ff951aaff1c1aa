"""Benchmarks from outside the package: ``mlbench run --include PATH`` (also judge, tasks).

``PATH`` is a Python file that registers ``Task`` subclasses with ``@register``, a
declarative benchmark file (a ``.toml`` with a ``[benchmark]`` table; see
``mlbench.benchmarks.declarative.spec``), or a folder: every ``.py`` file and every benchmark
``.toml`` directly in it. Each file is read once per process, however often it is named.

What was included is remembered by task name (``origin``), so that a run records the
file's path and sha256 in results.json, and ``mlbench judge`` of that run can include the
same file again by itself (``recorded_file``). The registry (``mlbench.benchmarks``) is
handed in rather than imported, so that it can offer these without an import cycle.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from mlbench.benchmarks.base import Task
from mlbench.benchmarks.declarative.spec import is_benchmark_file, read_spec
from mlbench.benchmarks.declarative.task import data_sources, declarative_task
from mlbench.data.catalog import SOURCES, add_sources
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonValue

Registry = dict[str, type[Task]]
Register = Callable[[type[Task]], type[Task]]

# task name → {"path": the file, "sha256": its bytes'}; what results.json records.
_ORIGINS: dict[str, dict[str, str]] = {}
# file (resolved) → the names of the tasks it added.
_INCLUDED: dict[Path, list[str]] = {}


def include(paths: Iterable[Path], tasks: Registry, register: Register) -> list[str]:
    """Load the benchmarks in ``paths`` into the registry ``tasks`` (through ``register``,
    which refuses a second class under a name); the names they define, in order."""
    names: list[str] = []
    for path in paths:
        names += _include_path(Path(path), tasks, register)
    return list(dict.fromkeys(names))


def origin(name: str) -> dict[str, str] | None:
    """The file task ``name`` was included from (path, sha256); None for a packaged one."""
    return _ORIGINS.get(name)


def recorded_file(name: str, recorded: JsonValue, where: str) -> Path | None:
    """The file a finished run's results.json records for its task (``config.include``),
    to include again; None when it records none. A file no longer there, or changed since
    (its code would run unseen, and may score otherwise), is an error naming it: passing
    it with --include is how a user says to load it as it is now."""
    if not isinstance(recorded, dict):
        return None
    recorded_path = recorded.get("path")
    if not isinstance(recorded_path, str):
        return None
    path = Path(recorded_path)
    if not path.exists():
        digest = str(recorded.get("sha256", ""))[:12]
        raise MlbenchError(
            f"{where}: benchmark {name!r} was included from {path} (sha256 {digest}…), which is not there "
            "now: pass --include PATH"
        )
    recorded_digest = str(recorded.get("sha256", ""))
    if recorded_digest and hashlib.sha256(path.read_bytes()).hexdigest() != recorded_digest:
        raise MlbenchError(
            f"{where}: benchmark {name!r} was included from {path}, which has changed since "
            f"(sha256 {recorded_digest[:12]}… then); to load it as it is now, pass --include {path}"
        )
    return path


def _include_path(path: Path, tasks: Registry, register: Register) -> list[str]:
    if not path.exists():
        raise MlbenchError(f"--include {path}: no such file or folder")
    if not path.is_dir():
        return _include_file(path, tasks, register, named=True)
    files = sorted(
        p
        for p in path.iterdir()
        if p.is_file() and (p.suffix == ".py" or (p.suffix == ".toml" and is_benchmark_file(p)))
    )
    names = [name for file in files for name in _include_file(file, tasks, register, named=False)]
    if not names:
        raise MlbenchError(
            f"--include {path}: no benchmark in this folder (a .py file that registers a Task, or a .toml "
            "file with a [benchmark] table)"
        )
    return names


def _include_file(path: Path, tasks: Registry, register: Register, *, named: bool) -> list[str]:
    resolved = path.resolve()
    if resolved in _INCLUDED:
        return _INCLUDED[resolved]
    if resolved.suffix == ".py":
        names = _import_python(resolved, tasks)
    elif resolved.suffix == ".toml":
        names = [_register_declarative(resolved, tasks, register)]
    else:
        raise MlbenchError(f"--include {path}: not a .py file, a benchmark .toml or a folder")
    if named and not names:
        raise MlbenchError(
            f"{path}: registers no benchmark (decorate a Task subclass with @register from mlbench.benchmarks)"
        )
    digest = hashlib.sha256(resolved.read_bytes()).hexdigest()
    for name in names:
        _ORIGINS[name] = {"path": str(resolved), "sha256": digest}
    _INCLUDED[resolved] = names
    return names


def register_declared(path: Path, tasks: Registry, register: Register) -> str:
    """Register a benchmark TOML that ships with mlbench (no origin is recorded: a run of
    it needs no --include to be judged or reported again)."""
    return _register_declarative(path, tasks, register, shipped=True)


def _register_declarative(path: Path, tasks: Registry, register: Register, *, shipped: bool = False) -> str:
    from mlbench.judges import judge_kinds

    spec = read_spec(path)
    unknown = [kind for kind in spec.judges if kind not in judge_kinds()]
    if unknown:
        raise MlbenchError(f"{path}: benchmark.judges: no judge {unknown[0]!r}; valid: {', '.join(judge_kinds())}")
    if spec.name in tasks:
        raise MlbenchError(
            f"{path}: a benchmark called {spec.name!r} exists already ({_where(tasks[spec.name])}); "
            "give this one another name"
        )
    sources = data_sources(spec, shipped=shipped)
    for source in sources:
        if source.name in SOURCES:
            raise MlbenchError(
                f"{path}: a data source called {source.name!r} exists already ({SOURCES[source.name].repo}); "
                "give this benchmark another name"
            )
    add_sources(*sources)
    register(declarative_task(spec))
    return spec.name


def _where(task: type[Task]) -> str:
    known = _ORIGINS.get(task.name)
    return known["path"] if known is not None else f"{task.__module__}.{task.__qualname__}"


def _import_python(path: Path, tasks: Registry) -> list[str]:
    """Import ``path`` under a name of its own (two files called ``task.py`` do not clash)
    and return the tasks it registered. Its folder is importable while it runs, so that it
    can import the modules beside it; a file that fails leaves no task behind."""
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:8]
    stem = re.sub(r"\W", "_", path.stem)
    module_name = f"mlbench_include_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    before = dict(tasks)
    # In sys.modules while it runs: dataclasses and Task.__init_subclass__ look it up.
    sys.modules[module_name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except BaseException as error:
        sys.modules.pop(module_name, None)
        tasks.clear()
        tasks.update(before)
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        raise _import_error(path, error) from None
    finally:
        sys.path.remove(str(path.parent))
    return [name for name, task in tasks.items() if before.get(name) is not task]


def _import_error(path: Path, error: BaseException) -> MlbenchError:
    """One line naming the file and, where it can, the line that failed."""
    if isinstance(error, SyntaxError):
        return MlbenchError(f"{error.filename or path}:{error.lineno}: syntax error ({error.msg})")
    if isinstance(error, MlbenchError):
        return MlbenchError(f"{path}: {error}")
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)]
    where = f"{path}:{lines[-1]}" if lines else str(path)
    message = " ".join(str(error).split())
    return MlbenchError(f"{where}: {type(error).__name__}" + (f": {message}" if message else ""))
