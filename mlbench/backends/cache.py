"""A persistent request cache (sqlite) in front of any backend.

Keyed by the backend's fingerprint and the full request, so an identical rerun costs no
forward passes, and a run killed mid-way loses nothing it had already computed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

from mlbench.backends.base import Backend, ProgressCallback
from mlbench.schema import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

R = TypeVar("R")


def _request_key(fingerprint: str, kind: str, request: Any) -> str:
    payload = {"fingerprint": fingerprint, "kind": kind, "request": asdict(request)}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _generation_from_json(data: dict[str, Any]) -> Generation:
    return Generation(**{**data, "alternatives": tuple(data.get("alternatives", ()))})


class CachedBackend:
    """Wraps ``inner``; answers from the cache and sends only the misses on."""

    def __init__(self, inner: Backend, path: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.fingerprint = inner.fingerprint
        path.parent.mkdir(parents=True, exist_ok=True)
        # Several jobs of one cluster run may share the file: wait for locks, don't fail.
        self._db = sqlite3.connect(path, timeout=120)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS requests (key TEXT PRIMARY KEY, value TEXT)")
        self._db.commit()
        self.hits = 0
        self.misses = 0

    def _lookup(self, keys: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT key, value FROM requests WHERE key IN ({marks})", chunk)
            found.update(rows.fetchall())
        return found

    def _through(
        self, kind: str, requests: list[Any], compute: Any, decode: Any, progress: ProgressCallback | None
    ) -> list[Any]:
        keys = [_request_key(self.fingerprint, kind, r) for r in requests]
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
                    rows.append((keys[i], json.dumps(asdict(result))))
            self._db.executemany("INSERT OR REPLACE INTO requests VALUES (?, ?)", rows)
            self._db.commit()
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
        return {**getattr(self.inner, "describe", lambda: {})(), "cache_hits": self.hits, "cache_misses": self.misses}

    def close(self) -> None:
        self._db.close()
        inner_close = getattr(self.inner, "close", None)
        if inner_close is not None:
            inner_close()
