"""The OpenAI-compatible client against a scripted server: retries, failures, concurrency."""

import itertools

import pytest

from mlbench.backends.openai import OpenAIBackend
from mlbench.errors import MlbenchError
from mlbench.records import ChatMessage, GenerationRequest, LoglikelihoodRequest, Prompt

from .fake_server import FakeServer, completion, slow


def client(url, model="served-model", **kwargs) -> OpenAIBackend:
    return OpenAIBackend(model, base_url=url, backoff_s=0.01, **kwargs)


def test_retries_429_and_5xx_then_succeeds():
    answers = iter([(429, {"error": {"message": "slow down"}}, {}), (503, "busy", {}), (200, completion(" Yes."), {})])
    with FakeServer(lambda path, body: next(answers)) as server:
        backend = client(server.url)
        [generation] = backend.generate([GenerationRequest(Prompt(text="Q: x?\nA:"), max_new_tokens=5)])
    assert generation == type(generation)(" Yes.", 3, "stop")
    assert len(server.requests) == 3 and backend.stats["retries"] == 2
    path, body = server.requests[-1]
    assert path == "/v1/completions" and body["prompt"] == "Q: x?\nA:" and body["max_tokens"] == 5
    assert body["temperature"] == 0 and "seed" not in body  # greedy


def test_request_that_keeps_failing_is_returned_as_an_error_not_an_answer():
    with FakeServer(lambda path, body: (500, {"error": {"message": "engine died"}}, {})) as server:
        backend = client(server.url, max_retries=2)
        [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
    assert generation.finish_reason == "error" and generation.text == ""
    assert generation.error == "HTTP 500: engine died (after 3 attempts)"
    assert len(server.requests) == 3 and backend.stats["failed"] == 1


def test_timeouts_are_retried():
    calls = itertools.count()

    def handler(path, body):
        if next(calls) == 0:
            return slow(1.0, (200, completion("late"), {}))
        return 200, completion("on time"), {}

    with FakeServer(handler) as server:
        backend = client(server.url, timeout_s=0.3)
        [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), 5)])
    assert generation.text == "on time" and backend.stats["retries"] == 1


def test_bad_key_stops_the_run_with_one_line():
    with FakeServer(lambda path, body: (401, {"error": {"message": "Invalid API key"}}, {})) as server:
        with pytest.raises(MlbenchError, match="HTTP 401: Invalid API key"):
            client(server.url).generate([GenerationRequest(Prompt(text="Q"), 5)])


def test_missing_api_key_variable(monkeypatch):
    monkeypatch.delenv("MY_KEY", raising=False)
    with pytest.raises(MlbenchError, match="-M api_key_env MY_KEY"):
        client("http://127.0.0.1:9/v1", api_key_env="MY_KEY")


def test_api_key_is_sent(monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-test")
    with FakeServer(lambda path, body: (200, completion("ok"), {})) as server:
        client(server.url, api_key_env="MY_KEY").generate([GenerationRequest(Prompt(text="Q"), 5)])
    assert server.headers[0]["authorization"] == "Bearer sk-test"


def test_chat_prompts_use_chat_completions_with_sampling_settings():
    answer = {
        "choices": [
            {"index": 1, "message": {"content": "second"}, "finish_reason": "length"},
            {"index": 0, "message": {"content": "first STOP here"}, "finish_reason": "stop"},
        ],
        "usage": {"completion_tokens": 8},
    }
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        prompt = Prompt(messages=(ChatMessage("system", "Be brief."), ChatMessage("user", "Q?")))
        request = GenerationRequest(prompt, 16, stop=("STOP",), temperature=0.7, top_p=0.9, n=2, seed=3)
        [generation] = client(server.url).generate([request])
    path, body = server.requests[0]
    assert path == "/v1/chat/completions"
    assert body["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q?"}]
    assert (body["n"], body["top_p"], body["seed"], body["stop"]) == (2, 0.9, 3, ["STOP"])
    assert generation.text == "first " and generation.alternatives == ("second",)
    assert generation.n_tokens == 4 and generation.finish_reason == "stop"


def test_requests_run_concurrently_up_to_the_limit():
    with FakeServer(lambda path, body: slow(0.2, (200, completion("ok"), {}))) as server:
        backend = client(server.url, max_concurrency=3)
        done = []
        results = backend.generate([GenerationRequest(Prompt(text=f"Q{i}"), 5) for i in range(9)], progress=done.append)
    assert [g.text for g in results] == ["ok"] * 9 and sum(done) == 9
    assert server.max_in_flight == 3


def test_loglikelihood_reads_the_option_tokens_of_the_echoed_prompt(tiny_model):
    def handler(path, body):
        ids = body["prompt"]
        # log-prob of token i is -i/100 (the first has none, as in real answers)
        values = [None] + [-i / 100 for i in range(1, len(ids))] + [-9.0]
        return 200, {"choices": [{"index": 0, "text": "", "logprobs": {"token_logprobs": values}}]}, {}

    with FakeServer(handler) as server:
        backend = client(server.url, model=str(tiny_model))
        [result] = backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA:"), " No, never.")])
    body = server.requests[0][1]
    assert body["echo"] is True and body["logprobs"] == 0 and body["max_tokens"] == 1
    n_context = len(backend.tokenizer.encode("Q: x?\nA:"))
    n_option = len(body["prompt"]) - n_context
    assert result.n_tokens == n_option > 0
    assert result.logprob == pytest.approx(-sum(range(n_context, n_context + n_option)) / 100)


def test_server_without_prompt_logprobs_names_the_mc_mode(tiny_model):
    def handler(path, body):
        return 400, {"error": {"message": "echo is not supported"}}, {}

    with FakeServer(handler) as server:
        backend = client(server.url, model=str(tiny_model))
        with pytest.raises(MlbenchError, match="does not return prompt log-probs.*--mode gen"):
            backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q"), " a")])


def test_answer_without_logprobs_is_also_refused(tiny_model):
    with FakeServer(lambda path, body: (200, completion("x"), {})) as server:
        backend = client(server.url, model=str(tiny_model))
        with pytest.raises(MlbenchError, match="does not return prompt log-probs"):
            backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q"), " a")])
