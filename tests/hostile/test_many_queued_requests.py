"""Issue 32, item 5: 200 requests queued against a server under load stay within
``-M max_concurrency`` and leave no thread or socket behind, however the server misbehaves;
a request that ends the call (bad key, Ctrl-C) does not wait for the queued ones."""

from __future__ import annotations

import os
import threading
import time

import pytest

import mlbench.backends.openai as openai_backend
from mlbench.backends.openai import OpenAIBackend
from mlbench.errors import MlbenchError
from mlbench.records import GenerationRequest, Prompt
from tests.backends.fake_server import Cut, FakeServer, Hang, completion

LIMIT = 8
REQUESTS = [GenerationRequest(Prompt(text=f"Q{i}"), 5) for i in range(200)]


def _open() -> tuple[int, int]:
    return len(os.listdir("/proc/self/fd")), threading.active_count()


def _settled(before: tuple[int, int]) -> tuple[int, int]:
    """Descriptors and threads once the server's own threads have ended (they close their
    sockets a moment after answering), polled for up to 5 s."""
    deadline = time.monotonic() + 5
    while any(now > then for now, then in zip(_open(), before)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return _open()


def _busy(answer: tuple[int, object, dict[str, str]]) -> tuple[int, object, dict[str, str]]:
    """``answer`` a few ms late, so that requests overlap (an Event's wait: tests replace time.sleep)."""
    threading.Event().wait(0.005)
    return answer


def _healthy(path: str, body: dict) -> tuple[int, object, dict[str, str]]:
    return _busy((200, completion(body["prompt"]), {}))


def _flaky() -> object:
    """A server under load: each prompt's first try is refused with a 429, hangs, or is cut
    mid-answer (one in four each); its retry is answered."""
    seen: set[str] = set()
    lock = threading.Lock()

    def handler(path: str, body: dict) -> tuple[int, object, dict[str, str]]:
        prompt = body["prompt"]
        with lock:
            first = prompt not in seen
            seen.add(prompt)
        kind = int(prompt[1:]) % 4 if first else 3
        if kind == 0:
            return 429, {"error": {"message": "busy"}}, {"Retry-After": "1"}
        if kind == 1:
            return 200, Hang(30, completion("late")), {}
        if kind == 2:
            return 200, Cut(completion(prompt)), {}
        return _busy((200, completion(prompt), {}))

    return handler


@pytest.mark.parametrize(
    ("make_handler", "timeout_s"),
    [(lambda: _healthy, 30.0), (_flaky, 0.3)],  # short only where the server hangs: CI's cores are busy
    ids=["healthy", "flaky"],
)
def test_200_queued_requests_stay_within_the_limit_and_leak_nothing(monkeypatch, make_handler, timeout_s):
    monkeypatch.setattr(openai_backend.time, "sleep", lambda seconds: None)  # backoff; the server hangs on an Event
    OpenAIBackend("warm-up", base_url="http://127.0.0.1:9/v1").close()  # httpx's imports and TLS setup, once
    before = _open()
    with FakeServer(make_handler()) as server:
        backend = OpenAIBackend(
            "served", base_url=server.url, max_concurrency=LIMIT, timeout_s=timeout_s, warn=lambda line: None
        )
        generations = backend.generate(REQUESTS)
        backend.close()
    assert [g.text for g in generations] == [r.prompt.text for r in REQUESTS]
    assert 1 < server.max_in_flight <= LIMIT
    assert backend.stats["requests"] >= len(server.requests) >= 200 and backend.stats["failed"] == 0
    assert _settled(before) == before


def _slowly(answer: tuple[int, object, dict[str, str]]) -> tuple[int, object, dict[str, str]]:
    threading.Event().wait(0.05)
    return answer


def test_a_bad_key_with_200_requests_queued_stops_without_sending_them():
    before = _open()
    with FakeServer(lambda path, body: _slowly((401, {"error": {"message": "Invalid API key"}}, {}))) as server:
        backend = OpenAIBackend("served", base_url=server.url, max_concurrency=LIMIT)
        with pytest.raises(MlbenchError, match="HTTP 401: Invalid API key"):
            backend.generate(REQUESTS)
        backend.close()
    # About what was in flight when the first 401 came back (a margin for busy CI cores), not the 200.
    assert len(server.requests) <= 4 * LIMIT
    assert _settled(before) == before


def test_ctrl_c_with_200_requests_queued_does_not_wait_for_them():
    def interrupted(done: int) -> None:
        raise KeyboardInterrupt  # pressed as the first answers come in

    before = _open()
    with FakeServer(lambda path, body: _slowly((200, completion("ok"), {}))) as server:
        backend = OpenAIBackend("served", base_url=server.url, max_concurrency=LIMIT)
        with pytest.raises(KeyboardInterrupt):
            backend.generate(REQUESTS, progress=interrupted)
        backend.close()
    assert len(server.requests) <= 4 * LIMIT
    assert _settled(before) == before
