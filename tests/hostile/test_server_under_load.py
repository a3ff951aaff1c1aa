"""Issue 32: a server under load answers 429 with Retry-After, hangs past the request
timeout, or closes the connection mid-answer. Each is retried a bounded number of times;
a request that still fails is a failed sample (kept for --resume) told in one line, never
a traceback and never an answer made from a partial body."""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

import mlbench.backends.openai as openai_backend
from mlbench.backends.openai import OpenAIBackend
from mlbench.cli.main import app
from mlbench.records import GenerationRequest, LoglikelihoodRequest, Prompt
from tests.backends.fake_server import Cut, FakeServer, Hang, completion

BUSY = (429, {"error": {"message": "too many requests"}}, {"Retry-After": "2"})
HANG = (200, Hang(30, completion("late")), {})
HANG_IN_BODY = (200, Hang(30, completion("late"), after_headers=True), {})
CUT = (200, Cut(completion("a long answer that never arrives in full"), keep=12), {})


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The backoff waits asked for, none of them waited (the fake server hangs on an Event)."""
    asked: list[float] = []
    monkeypatch.setattr(openai_backend.time, "sleep", asked.append)
    return asked


def _generate(url: str, **options) -> tuple[OpenAIBackend, object]:
    backend = OpenAIBackend("served", base_url=url, backoff_s=0.01, max_retries=2, warn=lambda line: None, **options)
    [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
    backend.close()
    return backend, generation


def test_a_server_that_keeps_answering_429_is_waited_on_as_asked_then_the_sample_fails(waits):
    with FakeServer(lambda path, body: BUSY) as server:
        backend, generation = _generate(server.url)
    assert waits == [2.0, 2.0]  # Retry-After each time, and no more retries than max_retries
    assert len(server.requests) == 3
    assert generation.finish_reason == "error" and generation.text == ""
    assert generation.error == "HTTP 429: too many requests (after 3 attempts)"


@pytest.mark.parametrize("answer", [HANG, HANG_IN_BODY], ids=["before-headers", "mid-body"])
def test_a_server_that_hangs_past_the_timeout_is_retried_then_the_sample_fails(waits, answer):
    with FakeServer(lambda path, body: answer) as server:
        backend, generation = _generate(server.url, timeout_s=0.2)
    assert len(server.requests) == 3 and len(waits) == 2
    assert generation.finish_reason == "error" and generation.text == ""
    # The line says which limit ran out and how to change it.
    assert generation.error == "timed out after 0.2 s (-M request_timeout) (after 3 attempts)"


def test_a_server_that_closes_the_connection_mid_answer_is_retried(waits):
    answers = iter([CUT, CUT, (200, completion("whole"), {})])
    with FakeServer(lambda path, body: next(answers)) as server:
        backend, generation = _generate(server.url)
    assert generation.text == "whole" and generation.error is None
    assert len(server.requests) == 3 and backend.stats["retries"] == 2


def test_a_server_that_always_closes_mid_answer_fails_the_sample_without_a_partial_answer(waits):
    with FakeServer(lambda path, body: CUT) as server:
        backend, generation = _generate(server.url)
    assert len(server.requests) == 3
    assert generation.finish_reason == "error" and generation.text == "" and not generation.alternatives
    assert generation.error == "the connection broke off before the whole answer came (after 3 attempts)"


def test_a_connection_closed_mid_answer_fails_an_mc_option_not_the_run(tiny_model, waits):
    with FakeServer(lambda path, body: CUT) as server:
        backend = OpenAIBackend(str(tiny_model), base_url=server.url, max_retries=1, warn=lambda line: None)
        [result] = backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA:"), " No.")])
    assert result.error == "the connection broke off before the whole answer came (after 2 attempts)"


@pytest.mark.parametrize(
    ("answer", "cause"),
    [
        (BUSY, "HTTP 429: too many requests"),
        (HANG, "timed out after 0.2 s (-M request_timeout)"),
        (CUT, "the connection broke off before the whole answer came"),
    ],
    ids=["429", "hang", "cut"],
)
def test_a_run_against_a_failing_server_ends_in_one_line_and_resumes(tiny_model, tmp_path, waits, answer, cause):
    healthy = itertools.count()

    def run(server: FakeServer, *extra: str):
        return CliRunner().invoke(
            app,
            ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--mode", "gen", "--sample",
             "--limit", "2", "--output", str(tmp_path), "--no-cache", "--backend", "openai",
             "-M", f"base_url={server.url}", "-M", "request_timeout=0.2", *extra],
        )  # fmt: skip

    # One server for both runs: its URL is part of the model's identity, which --resume checks.
    with FakeServer(lambda path, body: answer) as server:
        result = run(server)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("mlbench: error:")]
        assert errors == [
            f"mlbench: error: veritasqa en: 2 of 2 samples failed (first: gen: {cause} (after 6 attempts)); "
            "kept in the results; rerun with --resume to retry them"
        ]
        run_dir = tmp_path / tiny_model.name / "veritasqa"
        lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
        assert [line["outputs"]["error"] for line in lines] == [f"gen: {cause} (after 6 attempts)"] * 2
        assert not any(line.get("metrics") for line in lines)

        # The server is back: --resume asks again for just the failed samples, and scores them.
        server.handler = lambda path, body: (next(healthy), (200, completion("Yes."), {}))[1]
        result = run(server, "--resume")
    assert result.exit_code == 0, result.output
    assert next(healthy) == 2
    # Appended: the last line of each sample is its record.
    latest = {line["id"]: line for line in map(json.loads, (run_dir / "samples_en.jsonl").read_text().splitlines())}
    assert len(latest) == 2 and all("error" not in line["outputs"] and line["metrics"] for line in latest.values())
