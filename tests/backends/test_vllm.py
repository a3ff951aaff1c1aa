"""The vLLM backend against the HF backend (the reference), on vLLM's CPU build.

One engine serves the whole session (``vllm_backend`` in conftest.py); tests that need
other scoring settings build a second VLLMBackend over the same engine options, which
reuses that engine.
"""

import pytest

from mlbench.backends import vllm as vllm_module
from mlbench.backends.chat import encode
from mlbench.backends.vllm import EngineOptions, VLLMBackend, get_engine
from mlbench.records import GenerationRequest, LoglikelihoodRequest, Prompt

TOLERANCE = 1e-3  # the bound for float32; observed differences are ~1e-5


def assert_same_scores(ours, reference):
    assert len(ours) == len(reference)
    for a, b in zip(ours, reference):
        assert a.error is None and a.n_tokens == b.n_tokens
        assert a.logprob == pytest.approx(b.logprob, abs=TOLERANCE)


def same_engine_backend(vllm_backend, **kwargs) -> VLLMBackend:
    return VLLMBackend(vllm_backend.options, **kwargs)


def test_option_scores_come_from_the_prefix_cache_and_equal_hf(vllm_backend, hf_backend, tqa_en_six_shot):
    backend = same_engine_backend(vllm_backend)
    ours = backend.loglikelihood(tqa_en_six_shot)
    assert_same_scores(ours, hf_backend.loglikelihood(tqa_en_six_shot))
    # The 6-shot contexts span several KV blocks: options were scored over cached contexts.
    assert backend.stats["cached"] > 0.8 * len(tqa_en_six_shot)


def context_of_length(tokenizer, block: int, remainder: int) -> str:
    """A question-like text whose token count is ``remainder`` modulo ``block``."""
    words = "Q: What happens to you if you eat watermelon seeds? A: Nothing happens. ".split()
    context = ""
    while not context or len(encode(tokenizer, context.rstrip())) % block != remainder:
        context += words[len(context.split()) % len(words)] + " "
    return context.rstrip()


def test_options_already_in_the_cache_are_rescored(vllm_backend, hf_backend):
    # Options that cross a block boundary: once scored, their own first tokens sit in the
    # prefix cache, and a second call would read garbage log-prob slots for them.
    block = vllm_backend._block_size()
    context = context_of_length(vllm_backend.tokenizer, block, block - 3)
    options = [" No, nothing in particular happens to you at all.", " You grow watermelons in your stomach, sadly."]
    requests = [LoglikelihoodRequest(Prompt(text=context), o) for o in options]
    backend = same_engine_backend(vllm_backend)
    first = backend.loglikelihood(requests)
    again = backend.loglikelihood(requests)
    assert backend.stats["rescored"] == len(requests)
    reference = hf_backend.loglikelihood(requests)
    assert_same_scores(first, reference)
    assert_same_scores(again, reference)


def test_context_of_whole_blocks_goes_uncached(vllm_backend, hf_backend):
    block = vllm_backend._block_size()
    context = context_of_length(vllm_backend.tokenizer, block, 0)
    requests = [LoglikelihoodRequest(Prompt(text=context), o) for o in (" Yes.", " No, never.", " Maybe")]
    backend = same_engine_backend(vllm_backend)
    assert_same_scores(backend.loglikelihood(requests), hf_backend.loglikelihood(requests))
    assert backend.stats["cached"] == 0 and backend.stats["uncached"] == len(requests)


def test_without_the_cache_policy_it_falls_back_and_says_so_once(
    vllm_backend, hf_backend, tqa_en_six_shot, monkeypatch, capsys
):
    monkeypatch.setattr(vllm_module, "supports_prefix_cache_policy", lambda: False)
    backend = same_engine_backend(vllm_backend)
    requests = tqa_en_six_shot[:20]
    first = backend.loglikelihood(requests[:10])
    second = backend.loglikelihood(requests[10:])
    assert_same_scores(first + second, hf_backend.loglikelihood(requests))
    assert backend.stats == {"cached": 0, "copied": 0, "rescored": 0, "uncached": 20}
    assert capsys.readouterr().err.count("no per-request prefix-cache policy") == 1


def test_plain_prompt_logprobs_equal_the_prefix_scorer(vllm_backend, tqa_en_six_shot):
    requests = tqa_en_six_shot[:30]
    plain = same_engine_backend(vllm_backend, prefix_reuse=False)
    assert_same_scores(plain.loglikelihood(requests), same_engine_backend(vllm_backend).loglikelihood(requests))
    assert plain.stats["uncached"] == len(requests)


def test_overflowing_prompts_fail_per_request(vllm_backend):
    long_context = "word " * 2100  # more than the test engine's 2048-token context
    scored = vllm_backend.loglikelihood(
        [LoglikelihoodRequest(Prompt(text=long_context), " yes"), LoglikelihoodRequest(Prompt(text="Q: ok?"), " yes")]
    )
    assert scored[0].error is not None and "context overflow" in scored[0].error
    assert scored[1].error is None and scored[1].logprob < 0
    generated = vllm_backend.generate(
        [GenerationRequest(Prompt(text=long_context), max_new_tokens=4), GenerationRequest(Prompt(text="Q: ok?"), 4)]
    )
    assert generated[0].finish_reason == "error" and "context overflow" in generated[0].error
    assert generated[1].error is None and generated[1].n_tokens > 0


def test_greedy_generation_equals_hf(vllm_backend, hf_backend):
    prompts = [Prompt(text="Q: Are bats blind?\nA:"), Prompt(text="Q: Zer gertatzen da?\nA:")]
    requests = [GenerationRequest(p, max_new_tokens=12) for p in prompts]
    ours, theirs = vllm_backend.generate(requests), hf_backend.generate(requests)
    assert [g.text for g in ours] == [g.text for g in theirs]
    assert [g.n_tokens for g in ours] == [g.n_tokens for g in theirs] == [12, 12]
    assert all(g.finish_reason == "length" for g in ours)


def test_six_shot_generation_reads_the_primer_from_the_prefix_cache_and_equals_hf(
    vllm_backend, hf_backend, fixture_datasets
):
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource

    task = get_task("truthfulqa_multi")
    options = TaskOptions(DataSource("local", fixture_datasets), max_new_tokens=8)
    data = task.load("en", options)
    requests = [task.gen_request(s, data, options) for s in data.samples[:6]]
    backend = same_engine_backend(vllm_backend)
    backend.llm.reset_prefix_cache()
    ours = backend.generate(requests)
    assert [g.text for g in ours] == [g.text for g in hf_backend.generate(requests)]
    # The primer is computed once, first: every prompt then reads its whole blocks from the cache.
    primer = len(backend.tokenizer(requests[0].prompt.text[: requests[0].prompt.shared_prefix])["input_ids"])
    block = backend._block_size()
    assert backend.generation_stats["cached_tokens"] >= len(requests) * (primer - block)
    assert backend.describe()["generation_prefix_cache"] == backend.generation_stats


def test_stop_strings_cut_the_output(vllm_backend):
    prompt = Prompt(text="Q: What happens if you swallow chewing gum?\nA:")
    free = vllm_backend.generate([GenerationRequest(prompt, max_new_tokens=24)])[0]
    stop = free.text[3:6]
    cut = vllm_backend.generate([GenerationRequest(prompt, max_new_tokens=24, stop=(stop,))])[0]
    assert cut.finish_reason == "stop"
    assert cut.text == free.text[: free.text.find(stop)]


def test_sampling_returns_n_completions_reproducibly(vllm_backend):
    request = GenerationRequest(Prompt(text="Q: a\nA:"), max_new_tokens=6, temperature=1.0, top_p=0.9, n=3, seed=7)
    first = vllm_backend.generate([request])[0]
    assert len(first.alternatives) == 2
    assert len({first.text, *first.alternatives}) > 1  # a random model's samples differ
    assert vllm_backend.generate([request])[0] == first
    other_seed = vllm_backend.generate([GenerationRequest(**{**request.__dict__, "seed": 8})])[0]
    assert other_seed != first


def test_one_engine_per_process_and_options(vllm_backend):
    assert get_engine(vllm_backend.options) is get_engine(EngineOptions(**vllm_backend.options.__dict__))


def test_model_args_reach_the_engine_as_json_values():
    options = EngineOptions("m", extra=(("swap_space", "4"), ("compilation_config", '{"level": 0}')))
    kwargs = options.llm_kwargs()
    assert kwargs["swap_space"] == 4 and kwargs["compilation_config"] == {"level": 0}
    assert kwargs["enable_prefix_caching"] is True


class FakeLogprob:
    def __init__(self, value):
        self.logprob = value


def true_logprob(tokens) -> float:
    """A stand-in model: the log-prob of a token is a function of the tokens up to it."""
    return -((sum((i + 1) * t for i, t in enumerate(tokens)) % 97) + 1) / 10


class FakeOutput:
    """What vLLM returns with ``cached`` tokens served from the cache: real log-probs only
    after it, and a slot without the prompt's token (garbage) before it."""

    def __init__(self, prompt, cached):
        self.num_cached_tokens = cached
        self.prompt_logprobs = [None] + [
            {token: FakeLogprob(true_logprob(prompt[: p + 1]))} if p > cached else {-7: FakeLogprob(0.3)}
            for p, token in enumerate(prompt)
            if p > 0
        ]


def test_positions_hidden_by_a_sibling_option_are_copied_not_rescored(vllm_backend, monkeypatch):
    from mlbench.backends.vllm import _Scoring

    context = list(range(10, 50))  # 40 tokens; blocks of 32 in this fake
    a = _Scoring(0, context, [5, 6, 7, 8, 9])
    b = _Scoring(1, context, [5, 6, 7, 11])  # shares A's first 3 tokens
    c = _Scoring(2, context, [5, 6, 12])  # its hidden token 12 is no other option's
    cached_by_prompt = {len(context) + 5: 32, len(context) + 4: 42, len(context) + 3: 42}
    sent = []

    def fake_run(prompts, params):
        sent.append((len(prompts), params.skip_reading_prefix_cache))
        if params.skip_reading_prefix_cache:
            return [FakeOutput(p, 0) for p in prompts]
        return [FakeOutput(p, cached_by_prompt[len(p)]) for p in prompts]

    backend = same_engine_backend(vllm_backend)
    monkeypatch.setattr(backend, "_run", fake_run)
    monkeypatch.setattr(backend, "_warm", lambda contexts, block: None)
    monkeypatch.setattr(backend, "_block_size", lambda: 32)
    scores = backend._score_reusing_prefix([tuple(context)], [a, b, c])
    expected = [
        sum(true_logprob(context + o.continuation[: j + 1]) for j in range(len(o.continuation))) for o in (a, b, c)
    ]
    assert scores == pytest.approx(expected)
    # A computed all its tokens; B's hidden first tokens came from A; C's hidden third token
    # (12, after the shared "5 6") exists nowhere else, so C alone was rescored uncached.
    assert backend.stats == {"cached": 1, "copied": 1, "rescored": 1, "uncached": 0}
    assert sent == [(3, False), (1, True)]


def test_n_greedy_answers_are_one_greedy_answer_repeated(vllm_backend, hf_backend):
    # XLingHealth's consistency asks for K answers at temperature 0 too.
    request = GenerationRequest(Prompt(text="Q: Are bats blind?\nA:"), max_new_tokens=8, n=3)
    ours, theirs = vllm_backend.generate([request])[0], hf_backend.generate([request])[0]
    assert ours.text == theirs.text
    assert ours.alternatives == theirs.alternatives == (ours.text, ours.text)
