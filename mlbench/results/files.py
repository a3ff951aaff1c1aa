"""Where a run's files live and how they are written: the run folder's name, the lock
that cluster jobs share, and atomic replacement."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.records.version import NewerSchema, check_version


def model_slug(model: str) -> str:
    """A folder name for a model: ``org/name`` → ``org__name``; a local path → its last part.
    Never ``.``, ``..``, empty or with a separator: the run's files must stay under --output."""
    path = Path(model).expanduser()
    if path.exists() or model.startswith((".", "/", "~")):
        # abspath, not resolve: `..` and `.` name the folder they stand for, and a symlinked
        # model folder keeps the name the user gave it.
        name = Path(os.path.abspath(path)).name
    else:
        name = model.replace("/", "__")
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", name)
    return slug if slug.strip(".") else "model"  # "" (the root folder), "." or "..": no folder of its own


def samples_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f"samples_{lang}.jsonl"


def language_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f"results_{lang}.json"


def results_path(run_dir: Path) -> Path:
    return run_dir / "results.json"


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step: a reader sees the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as error:
        # A full disk (or quota) leaves a half-written temp file: remove it, so that the
        # folder holds only the old complete file, and end with one line, not a traceback.
        tmp.unlink(missing_ok=True)
        reason = error.strerror or str(error)
        raise MlbenchError(f"could not write {path}: {reason}; {path.name} is left as it was") from None


@contextmanager
def run_dir_lock(run_dir: Path) -> Iterator[None]:
    """An exclusive lock on the run folder: cluster jobs writing other languages of the same
    model and task take turns rebuilding results.json instead of overwriting each other."""
    import fcntl

    with (run_dir / ".results.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def check_versions(run_dir: Path) -> None:
    """Refuse a run folder holding a file a newer mlbench wrote (its results files and the
    first line of each samples file), before a run writes anything beside it: the run
    could not merge with it, and would leave the folder half replaced."""
    paths = [*sorted(run_dir.glob("results*.json")), *sorted(run_dir.glob("samples_*.jsonl"))]
    for path in paths:
        try:
            with path.open(encoding="utf-8") as handle:
                text = handle.readline() if path.suffix == ".jsonl" else handle.read()
            check_version(json.loads(text), str(path))
        except NewerSchema as error:
            raise MlbenchError(str(error)) from None
        except (OSError, ValueError):
            continue  # a damaged file: the readers name it when they get to it
