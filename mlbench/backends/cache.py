"""A persistent request cache (sqlite) in front of any backend.

Keyed by the backend's fingerprint and the full request, so an identical rerun costs no
forward passes, and a run killed mid-way loses nothing it had already computed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, TypeVar

from mlbench.backends.base import Backend, ForwardingBackend, ProgressCallback
from mlbench.errors import MlbenchError, terminal_line
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

R = TypeVar("R")


def _request_key(fingerprint: str, kind: str, request: Any) -> str:
    fields = asdict(request)
    if not fields["prompt"]["tokenizer_bos"]:
        del fields["prompt"]["tokenizer_bos"]  # at its default, the key the cache had before the field
    payload = {"fingerprint": fingerprint, "kind": kind, "request": fields}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


# Any: a row this cache wrote, Generation's own fields (json.loads is untyped).
def _generation_from_json(data: dict[str, Any]) -> Generation:
    return Generation(**{**data, "alternatives": tuple(data.get("alternatives", ()))})


def _open(path: Path) -> sqlite3.Connection:
    # Several jobs of one cluster run may share the file: wait for locks, don't fail.
    db = sqlite3.connect(path, timeout=120)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS requests (key TEXT PRIMARY KEY, value TEXT)")
        db.commit()
        db.execute("SELECT key FROM requests LIMIT 1").fetchall()
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def check_cache_file(path: Path) -> None:
    """Open (creating) the cache file before a model loads: a folder it cannot write (read
    only, another user's) is then one line, not an sqlite error after minutes of loading."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _open(path).close()
    except OSError as error:
        reason = error.strerror or str(error)
    except sqlite3.DatabaseError as error:
        if _corrupt(error):
            return  # damage: the cache moves the file aside and starts afresh
        reason = str(error)
    else:
        return
    raise MlbenchError(f"the cache {path} cannot be written ({reason}): pass --no-cache, or another --cache-dir")


def _corrupt(error: sqlite3.DatabaseError) -> bool:
    """Damage (not a database, malformed image), as opposed to a lock or a full disk, which
    OperationalError reports and which moving the file aside would not cure."""
    return not isinstance(error, sqlite3.OperationalError)


class CachedBackend(ForwardingBackend):
    """Wraps ``inner``; answers from the cache and sends only the misses on. The inner
    backend's ``prefetch`` is told of every request of a later call (those answered from the
    cache then never reach it), and its ``render`` is what a sample records."""

    def __init__(self, inner: Backend, path: Path, seed: int = 0) -> None:
        super().__init__(inner)
        self.seed = seed  # the run's --seed: what a sampled request that names none is drawn with
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = _open(path)
        except sqlite3.DatabaseError as error:
            if not _corrupt(error):
                raise
            self._db = self._start_afresh(error)
        self.hits = 0
        self.misses = 0

    def _start_afresh(self, error: sqlite3.DatabaseError) -> sqlite3.Connection:
        """A cache is only a cache: a damaged file (a job killed mid-write on a full disk,
        a truncated copy) is moved aside, kept for a look, and the run goes on with an empty one."""
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):  # the journal belongs to the damaged file, not the new one
            part = self.path.with_name(self.path.name + suffix)
            if part.exists():
                part.replace(aside.with_name(aside.name + suffix))
        print(
            terminal_line(
                f"mlbench: warning: the request cache {self.path} is damaged ({error}); moved it to {aside.name} "
                "and started an empty one"
            ),
            file=sys.stderr,
        )
        return _open(self.path)

    def _lookup(self, keys: list[str]) -> dict[str, str]:
        try:
            return self._select(keys)
        except sqlite3.DatabaseError as error:
            # Damage can hide in pages the open did not read.
            if not _corrupt(error):
                raise
            self._db = self._start_afresh(error)
            return {}

    def _select(self, keys: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT key, value FROM requests WHERE key IN ({marks})", chunk)
            found.update(rows.fetchall())
        return found

    def _store(self, rows: list[tuple[str, str]]) -> None:
        try:
            self._db.executemany("INSERT OR REPLACE INTO requests VALUES (?, ?)", rows)
            self._db.commit()
        except sqlite3.DatabaseError as error:
            if not _corrupt(error):
                raise
            self._db = self._start_afresh(error)
            self._db.executemany("INSERT OR REPLACE INTO requests VALUES (?, ?)", rows)
            self._db.commit()

    def _seeded(self, request: Any) -> Any:
        """The request as its answer depends on it: a sampled generation that names no seed
        is drawn with the run's, so another --seed must not be answered from this one's."""
        if isinstance(request, GenerationRequest) and request.temperature > 0 and request.seed is None:
            return replace(request, seed=self.seed)
        return request

    def _through(
        self, kind: str, requests: list[Any], compute: Any, decode: Any, progress: ProgressCallback | None
    ) -> list[Any]:
        keys = [_request_key(self.fingerprint, kind, self._seeded(r)) for r in requests]
        cached = self._lookup(keys)
        missing = [i for i, k in enumerate(keys) if k not in cached]
        self.hits += len(requests) - len(missing)
        self.misses += len(missing)
        if progress and len(missing) < len(requests):
            progress(len(requests) - len(missing))
        results: dict[int, Any] = {}
        if missing:
            fresh = compute([requests[i] for i in missing], progress)
            rows = []
            for i, result in zip(missing, fresh):
                results[i] = result
                # A failure (API error, context overflow) is retried next time, not remembered.
                if result.error is None:
                    # Without its usage: an answer from the cache costs nothing again.
                    stored = {k: v for k, v in asdict(result).items() if k != "usage"}
                    rows.append((keys[i], json.dumps(stored)))
            self._store(rows)
        return [results[i] if i in results else decode(json.loads(cached[keys[i]])) for i in range(len(requests))]

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        return self._through(
            "loglikelihood", requests, self.inner.loglikelihood, lambda d: LoglikelihoodResult(**d), progress
        )

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        return self._through("generate", requests, self.inner.generate, _generation_from_json, progress)

    def describe(self) -> dict[str, object]:
        return {**self.inner.describe(), "cache_hits": self.hits, "cache_misses": self.misses}

    def close(self) -> None:
        self._db.close()
        self.inner.close()
