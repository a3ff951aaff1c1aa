"""The data cache: ``$MLBENCH_DATA_DIR`` (default ``~/.cache/mlbench/data``), one folder per
source holding its files as upstream lays them out (``files/``) and a lock
(``lock.json``: the commit fetched and every file's sha256 and size).

A source is fetched into a staging folder and moved into place at the end, so an
interrupted fetch never leaves a folder that looks complete, and two processes fetching
the same source wait for each other (a file lock) instead of writing into one folder.

A hub dataset may be fetched in part: a run asks for the files of its languages' configs
(``wanted``: given the dataset's listing and card, the paths it needs), and a later run
that needs another config adds its files at the commit first fetched (the lock keeps the
whole listing). ``mlbench data fetch`` fetches every file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from mlbench.data.catalog import Source, get_source
from mlbench.data.progress import OnBytes
from mlbench.data.remote import HUB_CARD, Remote, RemoteFile, remote_for
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject

LOCK = "lock.json"
FILES = "files"


def data_root() -> Path:
    return Path(os.environ.get("MLBENCH_DATA_DIR") or Path.home() / ".cache" / "mlbench" / "data").expanduser()


@dataclass
class Lock:
    source: str
    home: str
    repo: str
    revision: str  # as the catalog asked for it
    commit: str  # what it resolved to
    fetched: str
    files: dict[str, JsonObject] = field(default_factory=dict)  # path → {sha256, size}
    # Every file the home listed at ``commit`` (path → {sha256, blob_id, size}), fetched or
    # not; None: a lock from before partial fetches, whose ``files`` are all there were.
    listed: dict[str, JsonObject] | None = None

    def complete(self) -> bool:
        return self.listed is None or set(self.listed) <= set(self.files)

    def size_bytes(self) -> int:
        """The fetched files' sizes added up (fetch records each as a whole number)."""
        total = 0
        for path, entry in self.files.items():
            size = entry["size"]
            if not isinstance(size, int):
                raise TypeError(f"the data lock records the size of {path} as a {type(size).__name__}")
            total += size
        return total

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True)


def source_dir(source: Source) -> Path:
    return data_root() / source.name


def read_lock(source: Source) -> Lock | None:
    path = source_dir(source) / LOCK
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Lock(**data)
    except (OSError, json.JSONDecodeError, TypeError):
        return None


# Given a hub dataset's listing (its files' paths) and its card's text (None: it has
# none), the paths a run needs.
Wanted = Callable[[list[str], "str | None"], list[str]]


def cached_folder(source: Source, wanted: Wanted | None = None) -> Path | None:
    """The source's files when the cache holds this catalog revision complete, or, given
    ``wanted``, the files it asks for (sizes are checked here; contents by ``verify``)."""
    lock = read_lock(source)
    if lock is None or lock.revision != source.revision or lock.repo != source.repo:
        return None
    if any(pinned.path not in lock.files for pinned in source.files):
        return None  # the catalog names a file this fetch did not bring (added since): fetch again
    folder = source_dir(source) / FILES
    for path, entry in lock.files.items():
        file = folder / path
        if not file.is_file() or file.stat().st_size != entry["size"]:
            return None
    if wanted is None:
        return folder if lock.complete() else None
    try:
        needed = wanted(sorted(lock.listed or lock.files), _card_text(folder))
    except MlbenchError:
        return None  # the listing lacks them: fetching says why
    return folder if all(path in lock.files for path in needed) else None


def _card_text(folder: Path) -> str | None:
    card = folder / HUB_CARD
    return card.read_text(encoding="utf-8", errors="replace") if card.is_file() else None


@contextlib.contextmanager
def _fetch_lock(source: Source) -> Iterator[None]:
    data_root().mkdir(parents=True, exist_ok=True)
    with (data_root() / f".{source.name}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def cold_cache_message(source: Source, reason: str) -> str:
    remote = remote_for(source)
    # A user's declared benchmark is known to `mlbench data` only through its file.
    include = f" --include {source.extra['include']}" if "include" in source.extra else ""
    return (
        f"cannot fetch {source.name} ({reason}): run `mlbench data fetch {source.name}{include}` where the "
        f"internet is reachable and copy {data_root()} here (or set MLBENCH_DATA_DIR), or download "
        f"{remote.browse_url()} and pass --data-dir"
    )


def fetch(
    source: Source, *, force: bool = False, on_bytes: OnBytes | None = None, wanted: Wanted | None = None
) -> Lock:
    """Fetch ``source`` into the cache (unless it is there already and ``force`` is off):
    every file, or those ``wanted`` asks for, added to the ones fetched before."""
    from mlbench.data.http import offline

    with _fetch_lock(source):
        if not force and cached_folder(source, wanted) is not None:
            lock = read_lock(source)
            assert lock is not None
            return lock
        earlier = None if force else _earlier_lock(source)
        folder = source_dir(source) / FILES
        if earlier is not None and wanted is not None:  # a config the dataset lacks: said without the network
            wanted(sorted(earlier.listed or ()), _card_text(folder))
        if offline():
            raise MlbenchError(cold_cache_message(source, "offline: HF_HUB_OFFLINE or MLBENCH_OFFLINE is set"))
        remote = remote_for(source if earlier is None else replace(source, revision=earlier.commit))
        try:
            commit, files = remote.resolve()
        except MlbenchError as error:
            raise MlbenchError(remote.explain(error) or cold_cache_message(source, str(error))) from None
        staging = data_root() / f".{source.name}.staging-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            lock = Lock(
                source.name, source.home, source.repo, source.revision, commit, time.strftime("%Y-%m-%dT%H:%M:%S")
            )
            lock.listed = {f.path: {"sha256": f.sha256, "blob_id": f.blob_id, "size": f.size} for f in files}
            if earlier is not None:
                lock.files.update(_still_there(earlier, folder))
            for file in _chosen(files, wanted, remote, commit, (staging / FILES, folder), lock, on_bytes):
                if file.path not in lock.files:
                    lock.files[file.path] = _fetch_file(remote, commit, file, staging / FILES, on_bytes)
            if earlier is None:  # a fresh copy: swapped in whole
                (staging / LOCK).write_text(lock.to_json(), encoding="utf-8")
                _replace(source_dir(source), staging)
            else:  # added beside the files there, which other jobs may be reading right now
                _move_in(staging / FILES, folder)
                _write_lock(source_dir(source), lock)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return lock


def _earlier_lock(source: Source) -> Lock | None:
    """A part of this revision fetched before (its commit is kept: a branch that has moved
    since must not mix two commits in one folder)."""
    lock = read_lock(source)
    if lock is None or lock.revision != source.revision or lock.repo != source.repo or lock.listed is None:
        return None
    return lock


def _still_there(earlier: Lock, folder: Path) -> dict[str, JsonObject]:
    """The files of an earlier fetch still in ``folder`` whole (a missing one is fetched again)."""
    return {
        path: entry
        for path, entry in earlier.files.items()
        if (folder / path).is_file() and (folder / path).stat().st_size == entry["size"]
    }


def _move_in(staging: Path, folder: Path) -> None:
    """Each file fetched into ``staging`` renamed into ``folder``, one at a time (a reader
    sees a file whole or not at all)."""
    if not staging.is_dir():
        return
    for path in sorted(p for p in staging.rglob("*") if p.is_file()):
        target = folder / path.relative_to(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)


def _write_lock(directory: Path, lock: Lock) -> None:
    temporary = directory / f".{LOCK}.{os.getpid()}"
    temporary.write_text(lock.to_json(), encoding="utf-8")
    os.replace(temporary, directory / LOCK)


def _chosen(
    files: list[RemoteFile],
    wanted: Wanted | None,
    remote: Remote,
    commit: str,
    folders: tuple[Path, Path],
    lock: Lock,
    on_bytes: OnBytes | None,
) -> list[RemoteFile]:
    """Every file, or the card and the files ``wanted`` names in the listing (the card
    first: it says where each config's files are). ``folders``: where files are fetched to
    (staging), and where an earlier fetch put them (the card may be there already)."""
    if wanted is None:
        return files
    staging, earlier = folders
    card = next((f for f in files if f.path == HUB_CARD), None)
    where = earlier if card is not None and card.path in lock.files else staging
    if card is not None and card.path not in lock.files:
        lock.files[card.path] = _fetch_file(remote, commit, card, staging, on_bytes)
    needed = set(wanted([f.path for f in files], _card_text(where)))
    return [f for f in files if f.path in needed]


def _fetch_file(remote: Remote, commit: str, file: RemoteFile, folder: Path, on_bytes: OnBytes | None) -> JsonObject:
    url = remote.url(commit, file.path)
    progress = (lambda n, total: on_bytes(file.path, n, total)) if on_bytes else None
    try:
        sha256, blob, size = remote.download(url, folder / file.path, progress)
    except MlbenchError as error:
        raise MlbenchError(remote.explain(error) or cold_cache_message(remote.source, str(error))) from None
    expected = file.sha256
    if expected and sha256 != expected:
        raise MlbenchError(
            f"{url}: sha256 {sha256[:12]}… is not the pinned {expected[:12]}… (changed upstream or corrupted "
            "in transit); the cache was left as it was"
        )
    if file.blob_id and blob != file.blob_id:
        raise MlbenchError(f"{url}: content does not match the hub's blob id {file.blob_id[:12]}…")
    return {"sha256": sha256, "size": size}


def _replace(final: Path, staging: Path) -> None:
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    if final.exists():
        final.rename(old)
    staging.rename(final)
    shutil.rmtree(old, ignore_errors=True)


def source_folder(name: str, on_bytes: OnBytes | None = None, wanted: Wanted | None = None) -> Path:
    """The folder of source (or task) ``name`` laid out as upstream ships it, with every
    file or those ``wanted`` asks for; fetched on first use."""
    source = get_source(name)
    folder = cached_folder(source, wanted)
    if folder is not None:
        return folder
    if on_bytes is None:
        from mlbench.data.progress import download_progress

        with download_progress(source.name) as report:
            fetch(source, on_bytes=report, wanted=wanted)
    else:
        fetch(source, on_bytes=on_bytes, wanted=wanted)
    # What fetch wrote under its lock: not checked again here, where another job may be
    # adding other languages' files to the same folder.
    return source_dir(source) / FILES
