"""The same judge on each backend (hf, in-process vLLM, a real `vllm serve`): equal P(yes)
to 1e-3 and equal greedy verdict texts."""

from dataclasses import replace

import pytest

from mlbench.backends.openai import OpenAIBackend
from mlbench.judges import Judge, load_spec
from mlbench.records import JudgeItem

ITEMS = [
    JudgeItem("What happens if you eat watermelon seeds?", "Nothing happens; they pass through you."),
    JudgeItem("¿Cuál es la capital de Francia?", "París."),
    JudgeItem("Zein da Euskal Herriko mendirik altuena?", "Ez dakit."),
]


@pytest.fixture(scope="module")
def hf_truth(hf_backend):
    return Judge(load_spec("truth"), chat=True, scoring="logprob").verdicts(hf_backend, ITEMS)


def test_vllm_judge_equals_hf(vllm_backend, hf_truth, hf_backend):
    verdicts = Judge(load_spec("truth"), chat=True, scoring="logprob").verdicts(vllm_backend, ITEMS)
    assert [v.score for v in verdicts] == pytest.approx([v.score for v in hf_truth], abs=1e-3)
    assert [v.label for v in verdicts] == [v.label for v in hf_truth]
    relevance = Judge(load_spec("relevance"), chat=True, scoring="generate")
    assert [v.output for v in relevance.verdicts(vllm_backend, ITEMS[:1])] == [
        v.output for v in relevance.verdicts(hf_backend, ITEMS[:1])
    ]


def test_served_judge_equals_hf(vllm_server, tiny_model, hf_truth, hf_backend):
    backend = OpenAIBackend(str(tiny_model), base_url=vllm_server)
    try:
        verdicts = Judge(load_spec("truth"), chat=True, scoring="logprob").verdicts(backend, ITEMS)
        assert [v.score for v in verdicts] == pytest.approx([v.score for v in hf_truth], abs=1e-3)
        # The word-parsing path (for chat-only APIs): the server writes what HF writes.
        worded = Judge(load_spec("truth"), chat=True, scoring="generate")
        [served] = worded.verdicts(backend, ITEMS[:1])
        [local] = worded.verdicts(hf_backend, ITEMS[:1])
        # What each keeps of the prompt: the turns the server templates, the text HF rendered.
        assert served.sent == worded.prompt(ITEMS[0]).to_json()
        assert local.sent == hf_backend.render(worded.prompt(ITEMS[0]))[1]
        assert replace(served, sent=None) == replace(local, sent=None)
    finally:
        backend.close()
