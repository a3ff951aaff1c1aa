"""Where a run's files live and how they are written: the run folder's name, the lock
that cluster jobs share, and atomic replacement."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.records.json_read import JsonInputError, parse_json
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


_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def check_output_file(path: Path, flag: str = "") -> None:
    """Refuse to write ``path`` (given with ``flag``, if a user named it) unless it is a
    regular file, or absent from a folder that exists. An atomic write renames a new file
    over whatever is there: over /dev/null or a named pipe it would replace the node itself,
    and a plain write to a pipe waits for a reader forever."""
    named = f"{flag} {path}" if flag else str(path)
    try:
        mode = path.stat().st_mode  # through a link: a link to a device is refused too
    except (FileNotFoundError, NotADirectoryError):  # absent, or under something not a folder
        if not path.parent.is_dir():
            problem = "is not a folder" if path.parent.exists() else "does not exist; create it first"
            raise MlbenchError(f"{named}: {path.parent} {problem}") from None
        return
    except OSError as error:
        raise MlbenchError(f"cannot write {named}: {error.strerror or error}") from None
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise MlbenchError(f"{named} is a folder; name a file in it, e.g. {path / 'out.json'}")
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise MlbenchError(f"{named} is {kind}, not a file mlbench writes: give the path of a file")


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step: a reader sees the old file or the new one."""
    check_output_file(path)
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
            check_version(parse_json(text, str(path)), str(path))
        except NewerSchema as error:
            raise MlbenchError(str(error)) from None
        except (OSError, ValueError, JsonInputError):
            continue  # a damaged file: the readers name it when they get to it
