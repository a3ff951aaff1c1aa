"""What an OpenAI-compatible request cost: the server's usage, else our count (estimated)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlbench.backends.cache import CachedBackend
from mlbench.backends.openai import OpenAIBackend
from mlbench.backends.usage_count import PER_MESSAGE, REPLY_PRIMING
from mlbench.judges import Judge, load_spec
from mlbench.metrics.o200k import o200k_encoding
from mlbench.records import ChatMessage, Generation, GenerationRequest, JudgeItem, LoglikelihoodRequest, Prompt
from mlbench.records.usage import Prices, Usage

from .fake_server import FakeServer

PROMPT = "Q: Is the sky green?\nA:"


def _client(url: str, model: str = "served-model") -> OpenAIBackend:
    return OpenAIBackend(model, base_url=url, backoff_s=0.01, warn=lambda line: None)


def _text(text: str, usage: dict | None) -> dict:
    answer: dict = {"choices": [{"index": 0, "text": text, "finish_reason": "stop"}]}
    return {**answer, "usage": usage} if usage is not None else answer


def _o200k(text: str) -> int:
    return len(o200k_encoding().encode(text, disallowed_special=()))


def _generate(answer: dict, prompt: Prompt | None = None) -> Generation:
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        backend = _client(server.url)
        [generation] = backend.generate([GenerationRequest(prompt or Prompt(text=PROMPT), max_new_tokens=8)])
        backend.close()
    return generation


def test_the_servers_usage_is_taken_as_it_is():
    generation = _generate(_text(" No.", {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}))
    assert generation.usage == Usage(11, 3, estimated=False)


def test_without_usage_the_tokens_are_counted_with_o200k_and_marked_estimated():
    # "served-model" is no tokenizer on this machine (and is not looked up online).
    generation = _generate(_text(" No, it is blue.", None))
    assert generation.usage == Usage(_o200k(PROMPT), _o200k(" No, it is blue."), estimated=True)
    assert generation.usage.prompt_tokens > 5 and generation.usage.completion_tokens >= 5


def test_a_usage_with_one_count_missing_fills_that_one_in_and_is_estimated():
    generation = _generate(_text(" No.", {"completion_tokens": 2}))
    assert generation.usage == Usage(_o200k(PROMPT), 2, estimated=True)


def test_a_chat_prompt_without_usage_counts_each_message_with_its_framing():
    messages = (ChatMessage("system", "Answer briefly."), ChatMessage("user", "Is the sky green?"))
    answer = {"choices": [{"index": 0, "message": {"content": "No."}, "finish_reason": "stop"}]}
    generation = _generate(answer, Prompt(messages=messages))
    expected = _o200k("Answer briefly.") + _o200k("Is the sky green?") + 2 * PER_MESSAGE + REPLY_PRIMING
    assert generation.usage == Usage(expected, _o200k("No."), estimated=True)


def test_an_unusable_answer_still_counts_what_the_server_billed():
    answer = {"choices": [{"index": 0, "text": None}], "usage": {"prompt_tokens": 9, "completion_tokens": 4}}
    generation = _generate(answer)
    assert generation.error and generation.usage == Usage(9, 4, estimated=False)


def test_a_failed_request_costs_nothing():
    with FakeServer(lambda path, body: (500, {"error": {"message": "down"}}, {})) as server:
        backend = OpenAIBackend("m", base_url=server.url, backoff_s=0.0, max_retries=0, warn=lambda line: None)
        [generation] = backend.generate([GenerationRequest(Prompt(text=PROMPT), 8)])
    assert generation.error and generation.usage is None


@pytest.mark.parametrize("usage", [{"prompt_tokens": 40, "completion_tokens": 1}, None], ids=["server", "counted"])
def test_mc_scoring_by_echoed_logprobs_counts_too(tiny_model: Path, usage):
    sent: list[int] = []

    def handler(path, body):
        sent.append(len(body["prompt"]))
        answer = {"choices": [{"index": 0, "text": "", "logprobs": {"token_logprobs": [None] + [-0.5] * 80}}]}
        return 200, ({**answer, "usage": usage} if usage else answer), {}

    with FakeServer(handler) as server:
        backend = _client(server.url, str(tiny_model))
        [result] = backend.loglikelihood([LoglikelihoodRequest(Prompt(text="Q: x?\nA:"), " No.")])
    assert result.error is None
    # Without the server's count, ours is exact for the prompt: its token ids were sent.
    assert result.usage == (Usage(40, 1) if usage else Usage(sent[0], 1, estimated=True))


def test_an_answer_from_the_cache_costs_nothing(tmp_path):
    answer = _text(" No.", {"prompt_tokens": 11, "completion_tokens": 3})
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        backend = CachedBackend(_client(server.url), tmp_path / "requests.sqlite")
        request = GenerationRequest(Prompt(text=PROMPT), 8)
        [first] = backend.generate([request])
        [again] = backend.generate([request])
        backend.close()
    assert first.usage == Usage(11, 3) and again.usage is None
    assert again.text == first.text and len(server.requests) == 1


def test_a_judges_verdict_carries_the_usage_of_its_requests():
    answer = {"choices": [{"index": 0, "message": {"content": "Verdict: yes"}}], "usage": {"prompt_tokens": 50}}
    answer["usage"]["completion_tokens"] = 3
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        judge = Judge(load_spec("truth"), chat=True, scoring="generate")
        verdicts = judge.verdicts(_client(server.url), [JudgeItem("Q?", "A."), JudgeItem("Q2?", "B.")])
    assert [v.usage for v in verdicts] == [Usage(50, 3)] * 2
    assert "usage" not in verdicts[0].to_json()  # kept beside the verdict, not in it


def test_prices_are_per_million_tokens():
    assert Prices(2.5, 10.0).cost(Usage(1_000_000, 100_000)) == pytest.approx(3.5)
    assert Usage(3, 4) + Usage(1, 1, estimated=True) == Usage(4, 5, estimated=True)


def test_a_model_whose_tokenizer_is_on_this_machine_is_counted_with_it(tiny_model: Path):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_model))
    with FakeServer(lambda path, body: (200, _text(" No, it is blue.", None), {})) as server:
        backend = _client(server.url, str(tiny_model))
        [generation] = backend.generate([GenerationRequest(Prompt(text=PROMPT), 8)])
        backend.close()
    count = len(tokenizer.encode(PROMPT, add_special_tokens=False))
    assert generation.usage == Usage(count, len(tokenizer.encode(" No, it is blue.", add_special_tokens=False)), True)
    assert count != _o200k(PROMPT)  # another tokenizer than the fallback's, or this test would prove nothing
