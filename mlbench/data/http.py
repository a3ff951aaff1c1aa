"""Downloads over HTTP(S) for the data cache: streamed, hashed while written, retried
when the connection drops, and failing with one line that says what to do."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonValue
from mlbench.records.options import whole_number

T = TypeVar("T")

CHUNK = 1 << 16
ATTEMPTS = 3
TIMEOUT_S = 30.0


class HttpStatusError(MlbenchError):
    def __init__(self, url: str, status: int) -> None:
        super().__init__(f"{url}: HTTP {status}")
        self.url, self.status = url, status


def offline() -> bool:
    """True when the user asked for no network (HF_HUB_OFFLINE=1 or MLBENCH_OFFLINE=1)."""
    return any(
        os.environ.get(name, "").strip().lower() in ("1", "true", "yes")
        for name in ("HF_HUB_OFFLINE", "MLBENCH_OFFLINE")
    )


def _open(url: str, headers: dict[str, str], timeout: float) -> http.client.HTTPResponse:
    request = urllib.request.Request(url, headers={"User-Agent": "mlbench", **headers})
    try:
        return urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - http(s) URLs we build
    except urllib.error.HTTPError as error:
        raise HttpStatusError(url, error.code) from None


def _retrying(url: str, attempt: Callable[[], T]) -> T:
    """Run ``attempt``; retry on a dropped connection or a server error (5xx)."""
    for number in range(1, ATTEMPTS + 1):
        try:
            return attempt()
        except HttpStatusError as error:
            if error.status < 500 or number == ATTEMPTS:
                raise
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            if number == ATTEMPTS:
                reason = getattr(error, "reason", None) or error
                raise MlbenchError(f"{url}: {reason}") from None
        time.sleep(0.5 * number)
    raise AssertionError("unreachable")


def get_json(url: str, headers: dict[str, str] | None = None, timeout: float = TIMEOUT_S) -> JsonValue:
    def attempt() -> JsonValue:
        with _open(url, headers or {}, timeout) as response:
            body = response.read()
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            raise MlbenchError(f"{url}: the answer is not JSON") from None

    return _retrying(url, attempt)


def download(
    url: str,
    dest: Path,
    headers: dict[str, str] | None = None,
    on_bytes: Callable[[int, int | None], None] | None = None,
    timeout: float = TIMEOUT_S,
) -> tuple[str, str, int]:
    """Stream ``url`` into ``dest``; returns (sha256, git blob sha1, size).

    A response shorter than its Content-Length is a dropped connection: retried, and the
    partial file never stays behind. ``on_bytes(n, total)`` reports progress."""
    dest.parent.mkdir(parents=True, exist_ok=True)

    def attempt() -> tuple[str, str, int]:
        sha256, size = hashlib.sha256(), 0
        with _open(url, headers or {}, timeout) as response, dest.open("wb") as out:
            length = response.headers.get("Content-Length")
            total = whole_number(length, signed=False) if length else None  # a server's text: ASCII digits only
            while chunk := response.read(CHUNK):
                out.write(chunk)
                sha256.update(chunk)
                size += len(chunk)
                if on_bytes:
                    on_bytes(len(chunk), total)
        if total is not None and size != total:
            if on_bytes:
                on_bytes(-size, total)  # start the bar of this file again
            raise http.client.IncompleteRead(b"", total - size)
        return sha256.hexdigest(), git_blob_sha1(dest), size

    try:
        return _retrying(url, attempt)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise


def git_blob_sha1(path: Path) -> str:
    """The id git gives the file's content (the hub reports it for files not in LFS)."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())  # noqa: S324 - git's id, not security
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
