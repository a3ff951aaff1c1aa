"""The data cache: ``$MLBENCH_DATA_DIR`` (default ``~/.cache/mlbench/data``), one folder per
source holding its files as upstream lays them out (``files/``) and a lock
(``lock.json``: the commit fetched and every file's sha256 and size).

A source is fetched whole into a staging folder and moved into place at the end, so an
interrupted fetch never leaves a folder that looks complete, and two processes fetching
the same source wait for each other (a file lock) instead of writing into one folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mlbench.data.catalog import Source, get_source
from mlbench.data.progress import OnBytes
from mlbench.data.remote import Remote, RemoteFile, remote_for
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


def cached_folder(source: Source) -> Path | None:
    """The source's files when the cache holds this catalog revision complete (sizes are
    checked here; contents by ``verify``)."""
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
    return folder


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


def fetch(source: Source, *, force: bool = False, on_bytes: OnBytes | None = None) -> Lock:
    """Fetch ``source`` into the cache (unless it is there already and ``force`` is off)."""
    from mlbench.data.http import offline

    with _fetch_lock(source):
        if not force and cached_folder(source) is not None:
            lock = read_lock(source)
            assert lock is not None
            return lock
        if offline():
            raise MlbenchError(cold_cache_message(source, "offline: HF_HUB_OFFLINE or MLBENCH_OFFLINE is set"))
        remote = remote_for(source)
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
            for file in files:
                lock.files[file.path] = _fetch_file(remote, commit, file, staging / FILES, on_bytes)
            (staging / LOCK).write_text(lock.to_json(), encoding="utf-8")
            _replace(source_dir(source), staging)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return lock


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


def source_folder(name: str, on_bytes: OnBytes | None = None) -> Path:
    """The folder of source (or task) ``name`` laid out as upstream ships it; fetched on
    first use."""
    source = get_source(name)
    folder = cached_folder(source)
    if folder is not None:
        return folder
    if on_bytes is None:
        from mlbench.data.progress import download_progress

        with download_progress(source.name) as report:
            fetch(source, on_bytes=report)
    else:
        fetch(source, on_bytes=on_bytes)
    folder = cached_folder(source)
    assert folder is not None
    return folder
