"""Issue 35, item 13: a judging job whose every verdict failed must not end like a
finished one: the same rule as a run (a warning per language, exit 1 above half failed)."""

import json

from backends.fake_server import FakeServer

from mlbench.engine.failures import EXIT_FAILED
from tests.cli.test_cli import run_cli, run_model

RUN = "--task truthfulqa_multi --lang en,es --sample --mode gen --backend hf --no-cache --limit 2"


def _judge(run_dir, server, *extra):
    return run_cli("judge", run_dir, "--judge", "judge-model", "-J", "kind=relevance", "-J", "backend=openai",
                   "-J", f"base_url={server.url}", "-J", "tokenizer=", *extra)  # fmt: skip


def _chat(text):
    return {"choices": [{"index": 0, "message": {"content": text}, "finish_reason": "stop"}], "usage": {}}


def test_a_judge_that_fails_every_verdict_exits_1(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, RUN).exit_code == 0
    run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
    with FakeServer(lambda path, body: (422, {"error": {"message": "engine died"}}, {})) as server:
        result = _judge(run_dir, server)
    assert result.exit_code == EXIT_FAILED, result.output
    assert "relevance judge en: 2 of 2 samples failed (first: HTTP 422: engine died" in result.output
    assert "relevance judge es: 2 of 2 samples failed" in result.output
    # Written like any judging job, so that --resume retries just the failed verdicts.
    lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    assert all("judge_error" in r["judges"]["relevance"] for r in lines)


def test_a_few_failed_verdicts_warn_and_exit_0(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, RUN.replace("--limit 2", "--limit 3")).exit_code == 0
    run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
    first = json.loads((run_dir / "samples_en.jsonl").read_text().splitlines()[0])["question"]

    def one_down(path, body):
        if first in body["messages"][-1]["content"]:
            return 422, {"error": {"message": "engine died"}}, {}
        return 200, _chat("Verdict: relevant"), {}

    with FakeServer(one_down) as server:
        result = _judge(run_dir, server, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "warning" in result.output and "relevance judge en: 1 of 3 samples failed" in result.output
