"""Issue 35, item 10: a server whose error text echoes the API key: the key reaches no
samples file, no warning and no error line (openai backend, served judges, search client)."""

from __future__ import annotations

import json

import httpx
import pytest
from typer.testing import CliRunner

import mlbench.backends.openai as openai_backend
from mlbench.backends.openai import OpenAIBackend
from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from mlbench.judges.evidence import SearchClient, SearchError
from mlbench.records import GenerationRequest, Prompt
from tests.backends.fake_server import FakeServer

KEY = "sk-live-0123456789abcdef"


def echo(status: int, headers_too: bool = False):
    """A server that answers ``status`` quoting the key it was sent (and its header)."""

    def handler(path, body):
        message = f"key {KEY} has no quota"
        if headers_too:
            message += " (request had Authorization: Bearer sk-other-0000000000 and 'x-api-key': 'k3y-9999')"
        return status, {"error": {"message": message}}, {}

    return handler


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("SERVER_KEY", KEY)
    monkeypatch.setattr(openai_backend.time, "sleep", lambda seconds: None)
    return "SERVER_KEY"


def test_a_failed_request_records_and_warns_without_the_key(key):
    warnings: list[str] = []
    with FakeServer(echo(500, headers_too=True)) as server:
        backend = OpenAIBackend("served", base_url=server.url, api_key_env=key, max_retries=1, warn=warnings.append)
        [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"  # the requests still carry it
    assert generation.finish_reason == "error" and warnings
    for text in (generation.error, *warnings):
        assert "REDACTED has no quota" in text, text
        assert KEY not in text and "sk-other" not in text and "k3y-9999" not in text, text


@pytest.mark.parametrize("status", [401, 400])
def test_a_refused_request_names_no_key(key, status):
    with FakeServer(echo(status)) as server:
        backend = OpenAIBackend("served", base_url=server.url, api_key_env=key)
        if status == 401:  # stops the run
            with pytest.raises(MlbenchError) as raised:
                backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
            message = str(raised.value)
        else:  # this sample fails
            [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
            message = generation.error
    assert f"HTTP {status}: key REDACTED has no quota" in message and KEY not in message


def test_a_run_against_an_echoing_server_keeps_the_key_out_of_files_and_warnings(key, tiny_model, tmp_path):
    with FakeServer(echo(503)) as server:
        result = CliRunner().invoke(
            app,
            ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--mode", "gen", "--sample",
             "--limit", "2", "--output", str(tmp_path), "--no-cache", "--backend", "openai",
             "-M", f"base_url={server.url}", "-M", f"api_key_env={key}"],
        )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "retry 1 of" in result.stderr and "samples failed" in result.stderr
    assert KEY not in result.output
    samples = tmp_path / tiny_model.name / "veritasqa" / "samples_en.jsonl"
    errors = [json.loads(line)["outputs"]["error"] for line in samples.read_text().splitlines()]
    assert errors and all("HTTP 503: key REDACTED has no quota" in error for error in errors), errors
    for path in tmp_path.rglob("*"):
        assert not path.is_file() or KEY not in path.read_text(encoding="utf-8", errors="replace"), path


def test_the_search_client_names_no_key(monkeypatch):
    monkeypatch.setenv("SEARCH_KEY", KEY)
    monkeypatch.setattr("mlbench.judges.evidence.time.sleep", lambda seconds: None)

    def post(url, **kwargs):
        # An error that quotes the request it failed on, as a proxy's may.
        raise httpx.ConnectError(f"proxy refused {url} with X-API-KEY: {kwargs['headers']['X-API-KEY']}")

    monkeypatch.setattr(httpx, "post", post)
    client = SearchClient("https://user:pw-123456@search.example/q?api_key=" + KEY, key_env="SEARCH_KEY")
    with pytest.raises(SearchError) as raised:
        client.snippets("claim")
    message = str(raised.value)
    assert message.startswith("search service failed after 3 attempts: proxy refused https://search.example/q")
    assert KEY not in message and "pw-123456" not in message, message
