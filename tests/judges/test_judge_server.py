"""A judge behind an OpenAI-compatible server that fails: retried, recorded, resumed."""

import json
from collections import Counter

from backends.fake_server import FakeServer

from mlbench.backends.openai import OpenAIBackend
from mlbench.backends.registry import ModelOptions
from mlbench.engine.judging import JudgeConfig, judge_run


def chat_answer(text):
    return {"choices": [{"index": 0, "message": {"content": text}, "finish_reason": "stop"}], "usage": {}}


def judge_on(server, run_dir, *, max_retries=5, resume=False):
    config = JudgeConfig(
        path=run_dir, judge=ModelOptions("judge", backend="openai"), kinds=("relevance",), langs=("en",), resume=resume
    )
    backend = OpenAIBackend("judge", base_url=server.url, backoff_s=0.01, max_retries=max_retries)
    judge_run(config, backend_factory=lambda: backend)
    return backend


def relevance(run_dir):
    lines = (run_dir / "samples_en.jsonl").read_text().splitlines()
    return [json.loads(line)["judges"]["relevance"] for line in lines]


def test_judge_retries_a_server_that_fails_twice_then_answers(run_dir_factory):
    run_dir = run_dir_factory()
    attempts = Counter()

    def flaky(path, body):
        prompt = body["messages"][-1]["content"]
        attempts[prompt] += 1
        if attempts[prompt] <= 2:
            return 503, {"error": {"message": "warming up"}}, {}
        return 200, chat_answer("It answers the question.\nVerdict: relevant"), {}

    with FakeServer(flaky) as server:
        backend = judge_on(server, run_dir)
    assert sorted(attempts.values()) == [3, 3, 3, 3]  # 4 English samples, each failed twice
    assert backend.stats["retries"] == 8
    assert all(path == "/v1/chat/completions" for path, _ in server.requests)
    assert [v["label"] for v in relevance(run_dir)] == ["relevant"] * 4


def test_failed_judge_calls_are_marked_and_resume_retries_only_them(run_dir_factory):
    run_dir = run_dir_factory()
    broken_for = json.loads((run_dir / "samples_en.jsonl").read_text().splitlines()[2])["question"]

    def partly_down(path, body):
        if broken_for in body["messages"][-1]["content"]:
            return 500, {"error": {"message": "engine died"}}, {}
        return 200, chat_answer("Verdict: irrelevant"), {}

    with FakeServer(partly_down) as server:
        judge_on(server, run_dir, max_retries=1)
    verdicts = relevance(run_dir)
    assert verdicts[2]["judge_error"] == "HTTP 500: engine died (after 2 attempts)"
    assert [v.get("label") for v in verdicts] == ["irrelevant", "irrelevant", None, "irrelevant"]
    assert json.loads((run_dir / "results.json").read_text())["results"]["en"]["judge_errors_relevance"] == 1

    with FakeServer(lambda path, body: (200, chat_answer("Verdict: relevant"), {})) as healthy:
        judge_on(healthy, run_dir, resume=True)
    assert len(healthy.requests) == 1 and broken_for in healthy.requests[0][1]["messages"][-1]["content"]
    assert [v["label"] for v in relevance(run_dir)] == ["irrelevant", "irrelevant", "relevant", "irrelevant"]
