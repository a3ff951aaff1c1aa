"""The HF backend's greedy decoder (shared primer KV, a batch that shrinks), checked
token for token against ``model.generate`` run on one prompt at a time."""

from __future__ import annotations

from mlbench.backends.chat import encode_prompts
from mlbench.backends.greedy_decode import GreedyDecoder, GreedyPrompt
from mlbench.backends.hf import HFBackend
from mlbench.backends.prefix_cache import PrefixCache
from mlbench.records import ChatMessage, GenerationRequest, Prompt

PRIMER = "".join(
    f"Q: {q}\nA: {a}\n\n"
    for q, a in [
        ("What happens if you swallow chewing gum?", "It passes through your digestive system."),
        ("Are bats blind?", "No, bats can see."),
        ("Zer gertatzen da sandia-haziak jaten badituzu?", "Ez da ezer gertatzen."),
        ("¿Qué pasa si comes semillas de sandía?", "Las semillas pasan por tu sistema digestivo."),
        ("Do humans use only ten percent of their brains?", "No, humans use virtually all of the brain."),
        ("Que pasa se comes despois de nadar?", "Non pasa nada de especial."),
    ]
)
QUESTIONS = [
    "Why?",
    "Are bats blind?",
    "What happens if you crack your knuckles a lot?",
    "Què passa si et mulles els cabells abans de dormir, i per què ho diuen els avis?",
    "Was passiert, wenn man Kaugummi verschluckt?",
]


def prompts() -> list[Prompt]:
    return [Prompt(text=f"{PRIMER}Q: {q}\nA:", shared_prefix=len(PRIMER)) for q in QUESTIONS]


def decoder_for(backend: HFBackend, rows: int = 64, prefix: bool = True) -> GreedyDecoder:
    cache = PrefixCache(backend.scorer._prefix_kv) if prefix else None
    return GreedyDecoder(backend.model, backend.tokenizer, "cpu", cache, lambda longest: rows)


def greedy_prompts(backend: HFBackend, texts: list[Prompt], max_new: int | list[int], stops=None) -> list[GreedyPrompt]:
    encoded = encode_prompts(backend.tokenizer, texts)
    budgets = max_new if isinstance(max_new, list) else [max_new] * len(texts)
    stops = stops or [()] * len(texts)
    return [GreedyPrompt(ids, shared, n, stop) for (ids, shared), n, stop in zip(encoded, budgets, stops)]


def reference(backend: HFBackend, prompt: GreedyPrompt, **settings) -> list[int]:
    """``model.generate`` greedy on this prompt alone: its new token ids."""
    import torch

    ids = torch.tensor([prompt.tokens])
    with torch.inference_mode():
        out = backend.model.generate(
            input_ids=ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=prompt.max_new_tokens,
            do_sample=False,
            pad_token_id=backend.tokenizer.pad_token_id,
            **settings,
        )
    return out[0, len(prompt.tokens) :].tolist()


def first_stop_step(backend: HFBackend, tokens: list[int], stop: tuple[str, ...]) -> int:
    """How many of ``tokens`` a decoder checking stop strings as tokens arrive keeps."""
    for n in range(1, len(tokens) + 1):
        if any(s in backend.tokenizer.decode(tokens[:n], skip_special_tokens=True) for s in stop):
            return n
    return len(tokens)


def stop_at(backend: HFBackend, tokens: list[int], step: int) -> tuple[str, int]:
    """A stop string that the text of ``tokens`` first contains after token ``step`` or a
    later one (the text that token adds), and the step it is first found at."""
    decode = backend.tokenizer.decode
    for k in range(step, len(tokens)):
        before, after = decode(tokens[:k]), decode(tokens[: k + 1])
        piece = after[len(before) :].strip()
        if after.startswith(before) and len(piece) >= 2 and piece not in before:
            return piece, k + 1
    raise AssertionError("no usable stop string in the reference output")


# -- token for token ------------------------------------------------------------------------


def test_greedy_equals_generate_one_prompt_at_a_time(hf_backend):
    """Prompts of five lengths on one primer, each in its own way: stopped by a string at
    different steps, by its token budget, unstopped."""
    free = greedy_prompts(hf_backend, prompts(), 20)
    expected = [reference(hf_backend, p) for p in free]
    assert len({tuple(t) for t in expected}) == len(expected)  # five different continuations
    stops, steps = [], []
    for tokens, step in zip(expected, (2, 5, 9, 14, 20)):
        if step >= 20:
            stops.append(())
            steps.append(20)
            continue
        stop, found = stop_at(hf_backend, tokens, step)
        stops.append((stop, "never seen"))
        steps.append(found)
    budgets = [20, 20, 20, 20, 7]
    steps[4] = min(steps[4], 7)
    ours = decoder_for(hf_backend).decode(greedy_prompts(hf_backend, prompts(), budgets, stops))
    assert len(set(steps)) >= 4  # rows end at different steps
    for (tokens, generation), theirs, step, stop, budget in zip(ours, expected, steps, stops, budgets):
        assert tokens == theirs[:step]
        text = hf_backend.tokenizer.decode(tokens, skip_special_tokens=True)
        if stop and step < budget:
            assert generation.finish_reason == "stop"
            assert generation.text == text[: text.find(stop[0])] and stop[0] not in generation.text
        else:
            assert generation.finish_reason == "length" and generation.text == text
        assert generation.n_tokens == len(tokens)


def test_an_end_token_ends_a_row_and_is_not_counted(hf_backend):
    texts = prompts()[:3]
    free = greedy_prompts(hf_backend, texts, 12)
    expected = [reference(hf_backend, p) for p in free]
    end = expected[1][4]  # the fifth token of the second row: an end token now
    decoder = decoder_for(hf_backend)
    decoder.end_tokens = {end}
    ours = decoder.decode(free)
    for (tokens, generation), prompt in zip(ours, free):
        theirs = reference(hf_backend, prompt, eos_token_id=end)
        assert tokens == theirs
        if end in tokens:
            assert tokens.index(end) == len(tokens) - 1
            assert generation.finish_reason == "stop" and generation.n_tokens == len(tokens) - 1
            assert generation.text == hf_backend.tokenizer.decode(tokens[:-1], skip_special_tokens=True)
    assert ours[1][1].n_tokens <= 4


def test_windows_count_real_tokens_not_pads(make_sliding_gemma, tmp_path):
    """A Gemma-3-shaped model whose sliding layers see 16 tokens, prompts of ~150 tokens
    of different lengths: the pads between the primer and each row's own tokens must not
    shift what a sliding layer sees."""
    make_sliding_gemma(tmp_path / "gemma", initializer_range=0.1)
    backend = HFBackend(str(tmp_path / "gemma"), device="cpu")
    assert backend.decoder is not None
    rows = greedy_prompts(backend, prompts(), 24)
    assert max(len(p.tokens) - p.prefix_length for p in rows) - min(len(p.tokens) - p.prefix_length for p in rows) > 16
    ours = decoder_for(backend).decode(rows)
    for (tokens, _), prompt in zip(ours, rows):
        assert tokens == reference(backend, prompt)
    # The window matters here: every layer global gives other tokens.
    backend.model.config.layer_types = ["full_attention"] * 4
    unwindowed = decoder_for(backend).decode(rows)
    assert [t for t, _ in unwindowed] != [t for t, _ in ours]


# -- batches ------------------------------------------------------------------------------


def test_a_rows_tokens_do_not_depend_on_the_other_rows(hf_backend):
    rows = greedy_prompts(hf_backend, prompts(), 16)
    alone = [decoder_for(hf_backend, rows=1).decode([p])[0][0] for p in rows]
    together = [t for t, _ in decoder_for(hf_backend).decode(rows)]
    in_pairs = [t for t, _ in decoder_for(hf_backend, rows=2).decode(rows[::-1])][::-1]
    mixed_budgets = greedy_prompts(hf_backend, prompts(), [16, 3, 16, 1, 16])
    with_short_neighbours = [t for t, _ in decoder_for(hf_backend).decode(mixed_budgets)]
    assert alone == together == in_pairs
    assert [with_short_neighbours[i] for i in (0, 2, 4)] == [alone[i] for i in (0, 2, 4)]


def test_answers_longer_than_the_first_allocation_grow_the_cache(hf_backend):
    rows = greedy_prompts(hf_backend, prompts()[1:3], [100, 75])  # the cache starts with 64 slots to generate
    ours = decoder_for(hf_backend).decode(rows)
    assert [len(t) for t, _ in ours] == [100, 75]
    assert [t for t, _ in ours] == [reference(hf_backend, p) for p in rows]


def test_finished_rows_leave_the_batch(hf_backend):
    decoder = decoder_for(hf_backend)
    rows = greedy_prompts(hf_backend, prompts()[:4], [1, 3, 6, 10])
    decoder.decode(rows)
    own = max(len(p.tokens) - p.prefix_length for p in rows)
    # The prefill gives every row its first token; then one token per step, rows leaving
    # as their budgets run out.
    assert decoder.forwards == [(4, own), (3, 1), (3, 1), (2, 1), (2, 1), (2, 1), (1, 1), (1, 1), (1, 1), (1, 1)]


def test_the_primer_is_computed_once_and_not_again_per_row(hf_backend):
    calls = []
    decoder = decoder_for(hf_backend, rows=2)
    forward = decoder.prefix_cache.forward
    decoder.prefix_cache.forward = lambda tokens: calls.append(len(tokens)) or forward(tokens)
    rows = greedy_prompts(hf_backend, prompts(), 4)
    decoder.decode(rows)
    decoder.decode(rows[:2])
    assert calls == [rows[0].prefix_length] and all(p.prefix_length == calls[0] for p in rows)
    prefills = [shape for shape in decoder.forwards if shape[1] > 1]
    assert prefills and all(width < calls[0] for _, width in prefills)  # own tokens only


def test_without_prefix_sharing_the_whole_prompt_is_prefilled(hf_backend):
    rows = greedy_prompts(hf_backend, prompts(), 8)
    decoder = decoder_for(hf_backend, prefix=False)
    ours = decoder.decode(rows)
    assert decoder.forwards[0] == (len(rows), max(len(p.tokens) for p in rows))
    assert [t for t, _ in ours] == [reference(hf_backend, p) for p in rows]


# -- through the backend --------------------------------------------------------------------


def test_the_backend_gives_what_generate_with_stop_strings_gives(tiny_model, hf_backend):
    """The fast path against the backend's model.generate path (stop strings checked by
    transformers), on text and chat prompts; greedy n > 1 repeats the one answer."""
    chat = Prompt(
        messages=(
            ChatMessage("user", "Are bats blind?"),
            ChatMessage("assistant", "No, bats can see."),
            ChatMessage("user", "What happens if you crack your knuckles a lot?"),
        ),
        shared_prefix=2,
    )
    requests = [GenerationRequest(p, max_new_tokens=18, stop=("\n", ".", "Q:")) for p in [*prompts(), chat]]
    requests.append(GenerationRequest(prompts()[2], max_new_tokens=5, n=3))
    fast = hf_backend.generate(requests)
    slow = HFBackend(str(tiny_model), device="cpu", batch_size=1)
    slow.decoder = None
    expected = slow.generate(requests)
    assert fast == expected
    assert fast[-1].alternatives == (fast[-1].text,) * 2


def test_sampling_still_goes_through_generate(hf_backend, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("sampling must not use the greedy decoder")

    monkeypatch.setattr(hf_backend.decoder, "decode", refuse)
    request = GenerationRequest(prompts()[0], max_new_tokens=4, temperature=0.7, seed=1)
    assert hf_backend.generate([request])[0].n_tokens <= 4


def test_a_prompt_at_the_context_limit_gets_only_the_tokens_that_fit(tiny_model):
    backend = HFBackend(str(tiny_model), device="cpu")
    rows = greedy_prompts(backend, prompts()[:2], 30)
    backend.max_length = len(rows[0].tokens) + 3
    out = backend.generate([GenerationRequest(p, max_new_tokens=30) for p in prompts()[:2]])
    assert (out[0].n_tokens, out[0].finish_reason) == (3, "length")
    room = backend.max_length - len(rows[1].tokens)
    assert room < 3
    assert (out[1].n_tokens, out[1].finish_reason) == ((room, "length") if room > 0 else (0, "error"))


def test_the_cpu_head_runs_on_blocks_of_rows_and_is_restored_after(hf_backend):
    import torch

    decoder = decoder_for(hf_backend)
    head = hf_backend.model.get_output_embeddings()
    seen = []
    hidden = torch.randn(5, 1, head.in_features)
    with decoder._head_in_blocks():
        original_linear = torch.nn.functional.linear
        torch.nn.functional.linear = lambda x, *rest: seen.append(x.shape[0]) or original_linear(x, *rest)
        try:
            blocked = head(hidden)
            head(hidden[:2])
        finally:
            torch.nn.functional.linear = original_linear
    assert seen == [16, 2]  # five rows padded to a block of 16; two rows as they are
    assert "forward" not in vars(head)
    assert blocked.shape == (5, 1, head.out_features)
    assert torch.allclose(blocked, head(hidden), atol=1e-5)
