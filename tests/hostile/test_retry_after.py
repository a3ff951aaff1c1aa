"""Issue 35, item 15: a 429 whose Retry-After is no usable wait (negative, NaN, infinite,
garbage) is retried with the usual backoff; it used to reach ``time.sleep`` and crash."""

from __future__ import annotations

import itertools
import math

import pytest

import mlbench.backends.openai as openai_backend
from mlbench.backends.openai import MAX_RETRY_AFTER_S, OpenAIBackend
from mlbench.records import GenerationRequest, Prompt
from tests.backends.fake_server import FakeServer, completion


def _generate_after_429(retry_after: str, monkeypatch) -> tuple[str, list[float]]:
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError(f"sleep length must be a finite non-negative number, not {seconds}")  # as time.sleep

    monkeypatch.setattr(openai_backend.time, "sleep", sleep)
    calls = itertools.count()

    def handler(path, body):
        if next(calls) == 0:
            return 429, {"error": {"message": "slow down"}}, {"Retry-After": retry_after}
        return 200, completion("fine"), {}

    with FakeServer(handler) as server:
        backend = OpenAIBackend("served", base_url=server.url, backoff_s=0.01)
        [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
    return generation.text, waits


@pytest.mark.parametrize("value", ["-1", "nan", "NaN", "-inf", "inf", "1e400", "soon", "", "Wed, 99 Foo 20xx"])
def test_an_unusable_retry_after_falls_back_to_the_backoff(value, monkeypatch):
    text, [wait] = _generate_after_429(value, monkeypatch)
    assert text == "fine"
    assert 0 <= wait <= 0.01 * 1.5  # the first backoff step, not the header's value


@pytest.mark.parametrize(("value", "expected"), [("2", 2.0), ("0", 0.0), ("3600", MAX_RETRY_AFTER_S)])
def test_a_usable_retry_after_is_waited_at_most_a_minute(value, expected, monkeypatch):
    assert _generate_after_429(value, monkeypatch) == ("fine", [expected])


def test_a_retry_after_date_already_past_retries_at_once(monkeypatch):
    assert _generate_after_429("Wed, 21 Oct 2015 07:28:00 GMT", monkeypatch) == ("fine", [0.0])
