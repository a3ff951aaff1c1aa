"""The GPU's greedy decoder (static_decode.py), run on the CPU through the same code: token
for token what ``model.generate`` gives on each prompt alone, with a step that a CUDA graph
can record (checked by ``capture_check.CheckedCapture`` on every replay)."""

from __future__ import annotations

import pytest

from mlbench.backends.capture_check import CheckedCapture
from mlbench.backends.hf import HFBackend
from mlbench.backends.prefix_cache import PrefixCache
from mlbench.backends.static_decode import (
    BLOCK_STEPS,
    ROW_BUCKETS,
    SLOT_GRANULE,
    StaticDecoder,
    row_bucket,
    slot_capacity,
)
from tests.backends.test_greedy_decode import greedy_prompts, prompts, reference, stop_at


def static_decoder(backend: HFBackend, capture=None, rows: int = 64) -> StaticDecoder:
    return StaticDecoder(
        backend.model,
        backend.tokenizer,
        "cpu",
        PrefixCache(backend.scorer._prefix_kv),
        lambda longest: rows,
        capture or CheckedCapture(),
    )


def test_static_steps_equal_generate_one_prompt_at_a_time(hf_backend):
    """Rows stopped by a string at different steps (inside and across blocks), by their
    budget, and unstopped; every replay of the recorded step reads what the recording read."""
    free = greedy_prompts(hf_backend, prompts(), 30)
    expected = [reference(hf_backend, p) for p in free]
    stops, steps = [], []
    for tokens, step in zip(expected, (2, 7, 9, 17, 30)):
        if step >= 30:
            stops.append(())
            steps.append(30)
            continue
        stop, found = stop_at(hf_backend, tokens, step)
        stops.append((stop,))
        steps.append(found)
    budgets = [30, 30, 30, 30, 12]
    steps[4] = min(steps[4], 12)
    capture = CheckedCapture()
    decoder = static_decoder(hf_backend, capture)
    ours = decoder.decode(greedy_prompts(hf_backend, prompts(), budgets, stops))
    for (tokens, generation), theirs, step in zip(ours, expected, steps):
        assert tokens == theirs[:step]
        assert generation.n_tokens == len(tokens)
    assert [g.finish_reason for _, g in ours][:4] == ["stop"] * 3 + ["stop" if stops[3] else "length"]
    shapes = {rows for rows, width in decoder.forwards if width == 1}
    assert capture.captures == len(shapes) and capture.replays > 2 * BLOCK_STEPS and capture.differences == []


def test_grouped_query_and_sliding_window_attention(make_sliding_gemma, tmp_path):
    """Gemma-3-shaped: one key head for two query heads (folded into the query), sliding
    layers of 16 tokens, prompts whose own tokens differ by more than the window."""
    make_sliding_gemma(tmp_path / "gemma", initializer_range=0.1)
    backend = HFBackend(str(tmp_path / "gemma"), device="cpu")
    config = backend.model.config
    assert config.num_attention_heads == 2 * config.num_key_value_heads
    rows = greedy_prompts(backend, prompts(), 24)
    capture = CheckedCapture()
    ours = static_decoder(backend, capture).decode(rows)
    assert [tokens for tokens, _ in ours] == [reference(backend, p) for p in rows]
    assert capture.differences == []


def test_an_end_token_inside_a_block_ends_the_row_there(hf_backend):
    free = greedy_prompts(hf_backend, prompts()[:3], 20)
    expected = [reference(hf_backend, p) for p in free]
    end = expected[1][5]  # the sixth token of the second row: an end token now
    decoder = static_decoder(hf_backend)
    decoder.end_tokens = {end}
    for (tokens, generation), prompt in zip(decoder.decode(free), free):
        assert tokens == reference(hf_backend, prompt, eos_token_id=end)
        if end in tokens:
            assert generation.finish_reason == "stop" and generation.n_tokens == len(tokens) - 1


def test_finished_rows_move_to_a_smaller_bucket(hf_backend):
    """Five rows run at the bucket of eight; when three are left they move to buffers of
    four, then two, then one: the tokens stay the same."""
    rows = greedy_prompts(hf_backend, prompts(), [3, 5, 40, 25, 12])
    decoder = static_decoder(hf_backend)
    ours = decoder.decode(rows)
    assert [t for t, _ in ours] == [reference(hf_backend, p) for p in rows]
    shapes = [rows for rows, width in decoder.forwards if width == 1]
    assert sorted(set(shapes), reverse=True) == [8, 4, 2, 1] and shapes == sorted(shapes, reverse=True)


def test_a_rows_tokens_do_not_depend_on_the_other_rows(hf_backend):
    rows = greedy_prompts(hf_backend, prompts(), 16)
    decoder = static_decoder(hf_backend)
    alone = [decoder.decode([p])[0][0] for p in rows]
    together = [t for t, _ in decoder.decode(rows)]
    assert alone == together


def test_buffers_and_their_recorded_step_serve_every_batch_and_call_until_released(hf_backend):
    capture = CheckedCapture()
    decoder = static_decoder(hf_backend, capture, rows=2)
    rows = greedy_prompts(hf_backend, prompts()[:4], 10)
    first = decoder.decode(rows)  # two batches of two rows, one shape
    assert [shape for shape in decoder.forwards if shape[1] > 1] == [
        (2, shape[1]) for shape in decoder.forwards if shape[1] > 1
    ]
    assert len([shape for shape in decoder.forwards if shape[1] > 1]) == 2
    assert capture.captures == 1 and capture.differences == [] and list(decoder._shapes) == [(2, SLOT_GRANULE)]
    again = decoder.decode(rows[::-1])[::-1]
    assert first == again and capture.captures == 1  # the next call replays the same recording
    decoder.release()
    assert decoder._shapes == {}
    assert decoder.decode(rows) == first and capture.captures == 2


def test_buckets_and_capacities():
    assert [row_bucket(n) for n in (1, 2, 3, 5, 17, 33, 64, 65)] == [1, 2, 4, 8, 24, 48, 64, 96]
    assert row_bucket(ROW_BUCKETS[-1] + 1) == 2 * ROW_BUCKETS[-1]
    assert slot_capacity(1) == SLOT_GRANULE and slot_capacity(SLOT_GRANULE + 1) == 2 * SLOT_GRANULE


@pytest.mark.parametrize("budget", [1, BLOCK_STEPS, BLOCK_STEPS + 1])
def test_budgets_at_block_edges(hf_backend, budget):
    rows = greedy_prompts(hf_backend, prompts()[:2], budget)
    ours = static_decoder(hf_backend).decode(rows)
    for (tokens, generation), prompt in zip(ours, rows):
        assert tokens == reference(hf_backend, prompt) and generation.finish_reason == "length"
