"""The HF backend's packed MC scoring: one forward per question over its options' token
tree, on block-cached prefix KV states. Checked against scoring each option alone."""

from __future__ import annotations

import pytest

from mlbench.backends.hf import HFBackend
from mlbench.backends.option_tree import allowed_keys, pack_options
from mlbench.backends.prefix_cache import PrefixCache
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import LanguageData, TaskOptions
from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.data.source import DataSource
from mlbench.records import LoglikelihoodRequest, Prompt


def six_shot_requests(lang: str, n_questions: int) -> list[LoglikelihoodRequest]:
    task = get_task("truthfulqa_multi")
    split = load_truthfulqa_multi(lang, DataSource("sample"))
    data = LanguageData(split.samples, split.primer)
    return [r for s in split.samples[:n_questions] for r in task.mc_requests(s, data, TaskOptions())]


# -- the token tree ------------------------------------------------------------------


def test_options_sharing_first_tokens_share_nodes():
    packed = pack_options(tail=[5, 6, 7], start=10, continuations=[[1, 2, 3], [1, 2, 4], [1, 9], [8]])
    # Nodes: (1) at row 3, (1, 2) at row 4; [1, 9] needs only (1); [8] needs no node at all.
    assert packed.tokens == [5, 6, 7, 1, 2]
    assert packed.positions == [10, 11, 12, 13, 14]
    assert packed.parents == [-1, 3]
    assert packed.targets == [
        [(2, 1), (3, 2), (4, 3)],
        [(2, 1), (3, 2), (4, 4)],
        [(2, 1), (3, 9)],
        [(2, 8)],
    ]
    assert packed.scored_rows == [2, 3, 4]


def test_each_node_sees_the_context_and_its_own_ancestors_only():
    packed = pack_options(tail=[5, 6], start=3, continuations=[[1, 2, 3], [4, 5, 6]])
    allowed = allowed_keys(packed, prefix_length=3).astype(int).tolist()
    # Columns: 3 cached prefix tokens, tail 5 6, then nodes (1) (1,2) (4) (4,5).
    assert allowed == [
        [1, 1, 1, 1, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 1, 0, 0],
        [1, 1, 1, 1, 1, 0, 0, 1, 0],
        [1, 1, 1, 1, 1, 0, 0, 1, 1],
    ]


def test_a_sliding_window_hides_keys_as_far_back_as_the_unpacked_sequence_would():
    packed = pack_options(tail=[5, 6], start=4, continuations=[[1, 2]])
    # Positions: prefix 0-3, tail 4 5, node 6. Window 3: a row sees positions > its own - 3.
    allowed = allowed_keys(packed, prefix_length=4, window=3).astype(int).tolist()
    assert allowed == [
        [0, 0, 1, 1, 1, 0, 0],
        [0, 0, 0, 1, 1, 1, 0],
        [0, 0, 0, 0, 1, 1, 1],
    ]


def test_an_empty_continuation_is_refused():
    with pytest.raises(ValueError):
        pack_options(tail=[1], start=0, continuations=[[]])


# -- cached prefixes ---------------------------------------------------------------------


def test_a_prefix_is_computed_once_and_the_least_recently_used_dropped_beyond_the_budget():
    import torch

    calls = []

    def forward(tokens):
        calls.append(tuple(tokens))
        return [(torch.zeros(1, 1, len(tokens), 2), torch.zeros(1, 1, len(tokens), 2))]

    one_prefix = 2 * 4 * 2 * 4  # keys and values, 4 tokens x 2 floats of 4 bytes
    cache = PrefixCache(forward, max_bytes=2 * one_prefix)
    cache.kv((1, 2, 3, 4))
    cache.kv((1, 2, 3, 4))
    assert calls == [(1, 2, 3, 4)]
    cache.kv((5, 6, 7, 8))
    cache.kv((1, 2, 3, 4))  # now the most recently used
    cache.kv((9, 9, 9, 9))  # over budget: (5, 6, 7, 8) goes
    cache.kv((1, 2, 3, 4))
    cache.kv((5, 6, 7, 8))
    assert calls == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 9, 9, 9), (5, 6, 7, 8)]


def test_the_primer_is_the_shared_prefix_of_text_and_chat_prompts():

    requests = six_shot_requests("en", 2)
    prompt = requests[0].prompt
    assert prompt.text[: prompt.shared_prefix].endswith("\n\n")
    assert prompt.text[prompt.shared_prefix :].startswith("Q: ")
    chat = (
        get_task("truthfulqa_multi")
        .mc_requests(
            load_truthfulqa_multi("en", DataSource("sample")).samples[0],
            LanguageData(*_sample_split("en")),
            TaskOptions(chat_template=True),
        )[0]
        .prompt
    )
    assert chat.shared_prefix == 12 and len(chat.messages) == 13  # six user/assistant pairs, then the question


def _sample_split(lang: str):
    split = load_truthfulqa_multi(lang, DataSource("sample"))
    return split.samples, split.primer


def test_the_shared_prefix_in_tokens_is_what_the_primer_and_the_context_agree_on(hf_backend):
    from mlbench.backends.chat import encode, encode_requests

    requests = six_shot_requests("eu", 3)
    encoded = encode_requests(hf_backend.tokenizer, requests)
    primer_text = requests[0].prompt.text[: requests[0].prompt.shared_prefix]
    primer_ids = encode(hf_backend.tokenizer, primer_text)
    for item in encoded:
        assert 0 < item.shared <= len(primer_ids)
        assert item.context[: item.shared] == primer_ids[: item.shared]
    plain = [LoglikelihoodRequest(Prompt(text=r.prompt.text), r.continuation) for r in requests]
    assert all(item.shared == 0 for item in encode_requests(hf_backend.tokenizer, plain))


# -- scores ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "eu"])
def test_packed_scores_equal_scoring_each_option_alone(tiny_model, hf_backend, lang):
    requests = six_shot_requests(lang, 5)
    naive = HFBackend(str(tiny_model), device="cpu", batch_size=3, prefix_sharing=False)
    packed = hf_backend.loglikelihood(requests)
    reference = naive.loglikelihood(requests)
    assert len(packed) == len(requests) > 20
    for ours, theirs in zip(packed, reference):
        assert ours.n_tokens == theirs.n_tokens
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-4)


def test_a_question_scores_the_same_bits_whatever_else_shares_its_call(tiny_model):
    """Chunks of 1, 7 and all questions (and a fresh backend, as after a resume) give
    identical bits: nothing about a question's score depends on its neighbours."""
    task = get_task("truthfulqa_multi")
    split = load_truthfulqa_multi("es", DataSource("sample"))
    data = LanguageData(split.samples, split.primer)
    per_question = [task.mc_requests(s, data, TaskOptions()) for s in split.samples[:12]]

    def scores(chunk: int) -> list[float]:
        backend = HFBackend(str(tiny_model), device="cpu")
        out: list[float] = []
        for start in range(0, len(per_question), chunk):
            flat = [r for requests in per_question[start : start + chunk] for r in requests]
            out += [r.logprob for r in backend.loglikelihood(flat)]
        return out

    one, seven, all_at_once = scores(1), scores(7), scores(len(per_question))
    assert one == seven == all_at_once


def test_the_primer_is_computed_once_per_language(tiny_model):
    backend = HFBackend(str(tiny_model), device="cpu")
    for lang in ("en", "en", "es"):
        backend.loglikelihood(six_shot_requests(lang, 4))
    assert len(backend.scorer.prefix_cache) == 2


def test_packed_scoring_follows_a_sliding_window_model(make_sliding_gemma, tmp_path):
    """A Gemma-3-shaped model whose sliding layers see 16 tokens: contexts of ~100 tokens
    must be masked as the model's own layers mask them."""
    make_sliding_gemma(tmp_path / "gemma")
    requests = six_shot_requests("gl", 3)
    packed = HFBackend(str(tmp_path / "gemma"), device="cpu").loglikelihood(requests)
    naive = HFBackend(str(tmp_path / "gemma"), device="cpu", prefix_sharing=False).loglikelihood(requests)
    for ours, theirs in zip(packed, naive):
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-4)
    # The window matters here: scoring with every layer global gives other numbers.
    # (the same seeded weights: the layer types change no parameter)
    make_sliding_gemma(tmp_path / "global", layer_types=["full_attention"] * 4)
    unwindowed = HFBackend(str(tmp_path / "global"), device="cpu").loglikelihood(requests)
    assert max(abs(a.logprob - b.logprob) for a, b in zip(unwindowed, naive)) > 1e-3


def test_every_distinct_text_is_encoded_once_in_one_batch(hf_backend):
    from mlbench.backends.chat import encode_requests

    class CountingTokenizer:
        """The real tokenizer, recording every batch it is asked to encode."""

        def __init__(self, tokenizer):
            self.tokenizer, self.batches = tokenizer, []

        def __getattr__(self, name):
            return getattr(self.tokenizer, name)

        def __call__(self, texts, **options):
            self.batches.append(list(texts))
            return self.tokenizer(texts, **options)

    prompt = Prompt(text="Q: Are bats blind?\nA:")
    requests = [LoglikelihoodRequest(prompt, f" Option {i}.") for i in range(5)]
    counting = CountingTokenizer(hf_backend.tokenizer)
    encoded = encode_requests(counting, requests)
    assert len(counting.batches) == 1
    assert counting.batches[0].count("Q: Are bats blind?\nA:") == 1 and len(counting.batches[0]) == 6
    one_by_one = [hf_backend.tokenizer.encode("Q: Are bats blind?\nA:" + r.continuation) for r in requests]
    assert [e.context + e.continuation for e in encoded] == one_by_one
