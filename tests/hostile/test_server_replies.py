"""Issue 35, item 4: a 200 reply whose choice holds no text (no ``text``, ``content: null``)
is a failed sample, never an empty answer that is scored (BLEU 0) and counted in n."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mlbench.backends.openai import OpenAIBackend
from mlbench.cli.main import app
from mlbench.records import ChatMessage, GenerationRequest, Prompt
from tests.backends.fake_server import FakeServer

TEXT = Prompt(text="Q: x?\nA:")
CHAT = Prompt(messages=(ChatMessage("user", "x?"),))


@pytest.mark.parametrize(
    ("prompt", "reply", "why"),
    [
        (TEXT, {"choices": [{"index": 0}]}, "choice 0's text is missing"),
        (TEXT, {"choices": [{"index": 0, "text": None, "finish_reason": "stop"}]}, "choice 0's text is null"),
        (CHAT, {"choices": [{"index": 0, "message": {"role": "assistant", "content": None}}]}, "content is null"),
        (CHAT, {"choices": [{"index": 0, "message": {"role": "assistant"}}]}, "message.content is missing"),
        # One of several samples without text: no made-up alternative either.
        (TEXT, {"choices": [{"index": 0, "text": "Yes."}, {"index": 1}]}, "choice 1's text is missing"),
    ],
)
def test_a_reply_without_text_is_a_failed_sample(prompt, reply, why):
    with FakeServer(lambda path, body: (200, reply, {})) as server:
        backend = OpenAIBackend("served", base_url=server.url, backoff_s=0.01)
        [generation] = backend.generate([GenerationRequest(prompt, max_new_tokens=5, n=len(reply["choices"]))])
    assert generation.finish_reason == "error" and generation.text == "" and not generation.alternatives
    assert generation.error.startswith("the server answered without text: ") and why in generation.error
    assert backend.stats["failed"] == 1


def test_an_empty_text_is_still_a_real_empty_answer():
    with FakeServer(
        lambda path, body: (200, {"choices": [{"index": 0, "text": "", "finish_reason": "stop"}]}, {})
    ) as s:
        [generation] = OpenAIBackend("served", base_url=s.url).generate([GenerationRequest(TEXT, 5)])
    assert generation.error is None and generation.text == "" and generation.finish_reason == "stop"


def test_a_run_whose_server_gives_no_text_fails_its_samples(tiny_model, tmp_path):
    with FakeServer(lambda path, body: (200, {"choices": [{"index": 0, "message": {"content": None}}]}, {})) as s:
        result = CliRunner().invoke(
            app,
            ["run", "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--mode", "gen", "--sample",
             "--limit", "2", "--output", str(tmp_path), "--no-cache", "--backend", "openai", "-M", f"base_url={s.url}"],
        )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "2 of 2 samples failed (first: gen: the server answered without text" in result.stderr
    run_dir = tmp_path / tiny_model.name / "veritasqa"
    lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        assert line["outputs"]["error"].startswith("gen: the server answered without text"), line
        assert "answer" not in line["outputs"] and not line.get("metrics"), line
    assert json.loads((run_dir / "results.json").read_text())["results"]["en"]["failed"] == 2
