"""A stable identity for a model: what the request cache is keyed on.

A local model is identified by the full content of its files (a folder's files, or one
GGUF file): a weight changed in place, even one tensor of the same size, gives another
fingerprint, so the cache never answers for an older model. Hashing tens of GB takes
minutes, so each file's hash is remembered under its path, size, modification time and
inode (``file_hashes.json`` in the cache folder) and a rerun only looks at those.

A hub id is identified the same way, through the snapshot the local hub cache resolves it
to (``refs/main``): its commit and its files' content. A name alone would keep answering
from the cache after the snapshot moved to a new revision with other weights.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from mlbench.resources import cache_folder

_BLOCK = 1 << 22


def _stat_key(path: Path) -> str:
    info = path.stat()
    return f"{path.resolve()}|{info.st_size}|{info.st_mtime_ns}|{info.st_ino}"


def _read_memo(memo: Path) -> dict[str, str]:
    try:
        data = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # missing or damaged: hashes are simply computed again
    return data if isinstance(data, dict) else {}


# This process's hashes, and the files being hashed now: the HF backend hashes a model's
# files in a thread while its weights load, and a GGUF file is also hashed by its loader;
# a second caller waits for the first instead of reading the file again (and an
# unwritable memo does not make the fingerprint hash everything twice).
_LOCK = threading.Lock()
_HASHED: dict[str, str] = {}
_HASHING: dict[str, threading.Event] = {}


def file_sha256(path: Path, memo: Path | None = None) -> str:
    """SHA-256 of ``path``'s content, remembered in ``memo`` (default: the cache folder's
    ``file_hashes.json``) under the file's path, size, mtime and inode."""
    memo = memo or cache_folder() / "file_hashes.json"
    key = _stat_key(path)
    while True:
        with _LOCK:
            if key in _HASHED:
                return _HASHED[key]
            running = _HASHING.get(key)
            if running is None:
                _HASHING[key] = threading.Event()
                break
        running.wait()  # another thread is hashing this file; if it failed, this one tries
    try:
        value = _remembered_or_hashed(path, memo, key)
        with _LOCK:
            _HASHED[key] = value
        return value
    finally:
        with _LOCK:
            _HASHING.pop(key).set()


def _remembered_or_hashed(path: Path, memo: Path, key: str) -> str:
    known = _read_memo(memo)
    if key in known:
        return known[key]
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_BLOCK):
            digest.update(block)
    value = digest.hexdigest()
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        # Another job may have added its own; files gone since (temporary folders) are dropped.
        fresh = {k: v for k, v in _read_memo(memo).items() if Path(k.rsplit("|", 3)[0]).exists()}
        fresh[key] = value
        partial = memo.with_name(f".{memo.name}.{os.getpid()}.{threading.get_ident()}")
        partial.write_text(json.dumps(fresh), encoding="utf-8")
        partial.replace(memo)
    except OSError:
        pass  # a read-only cache folder only costs the hashing next time
    return value


def _folder_files(path: Path) -> dict[str, str]:
    files = sorted(f for f in path.iterdir() if f.is_file() and not f.name.startswith("."))
    return {f.name: file_sha256(f) for f in files}


def hub_snapshot(repo_id: str) -> Path | None:
    """The folder the local hub cache resolves ``repo_id`` to now (what transformers and
    vLLM load offline), or None when the cache holds no snapshot of it."""
    try:
        from huggingface_hub import snapshot_download

        # local_files_only: the fingerprint is taken after the loader fetched what it
        # needed, and must never reach the network itself.
        return Path(snapshot_download(repo_id, local_files_only=True))
    except (ImportError, OSError, ValueError):
        return None  # not downloaded, or not a hub id at all (a served model's name)


def files_identity(location: str, *, resolve_hub: bool = True) -> dict[str, object]:
    """What identifies a model or tokenizer given as ``location``: the content hashes of
    a local folder's files or of one local file; for a hub id, its resolved commit and
    snapshot files (with ``resolve_hub``), else the hub id alone."""
    path = Path(location).expanduser()
    if path.is_dir():
        return {"files": _folder_files(path)}
    if path.is_file():
        return {"file": {path.name: file_sha256(path)}}
    snapshot = hub_snapshot(location) if resolve_hub else None
    if snapshot is None:
        return {"hub_id": location}
    return {"hub_id": location, "revision": snapshot.name, "files": _folder_files(snapshot)}


def model_fingerprint(
    model: str, settings: dict[str, object], tokenizer: str | None = None, *, resolve_hub: bool = True
) -> str:
    """Hash of the model's files (or hub id and revision), of a separate ``tokenizer`` when
    one is given, and of the settings that change its numbers (backend, dtype, ...).
    ``resolve_hub=False`` for a served model, whose name is not looked up in the hub cache."""
    parts: dict[str, object] = {"settings": settings, **files_identity(model, resolve_hub=resolve_hub)}
    if tokenizer is not None:
        parts["tokenizer"] = files_identity(tokenizer, resolve_hub=resolve_hub)
    blob = json.dumps(parts, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
