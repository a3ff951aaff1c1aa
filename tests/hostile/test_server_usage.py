"""A server's usage object that is no usage (strings, negatives, booleans, not an object):
never taken as counts, never a crash; the tokens are counted by mlbench and marked estimated."""

from __future__ import annotations

import pytest

from mlbench.backends.openai import OpenAIBackend
from mlbench.metrics.o200k import o200k_encoding
from mlbench.records import GenerationRequest, Prompt
from mlbench.records.usage import Usage
from tests.backends.fake_server import FakeServer

PROMPT, TEXT = "Q: Is water wet?\nA:", " Yes."


@pytest.mark.parametrize(
    "usage",
    [
        "lots",
        [12, 3],
        {"prompt_tokens": "12", "completion_tokens": -3},
        {"prompt_tokens": True, "completion_tokens": 2.5},
    ],
    ids=["string", "list", "text-and-negative", "bool-and-float"],
)
def test_a_usage_that_holds_no_counts_is_counted_by_us(usage):
    answer = {"choices": [{"index": 0, "text": TEXT, "finish_reason": "stop"}], "usage": usage}
    with FakeServer(lambda path, body: (200, answer, {})) as server:
        backend = OpenAIBackend("served", base_url=server.url, warn=lambda line: None)
        [generation] = backend.generate([GenerationRequest(Prompt(text=PROMPT), 8)])
        backend.close()
    encoding = o200k_encoding()
    assert generation.text == TEXT and generation.error is None
    assert generation.usage == Usage(len(encoding.encode(PROMPT)), len(encoding.encode(TEXT)), estimated=True)
