"""The GPU's MC scorer (packed_batches.py), run on the CPU: many packed questions to a
forward give each question's one-forward scores, batches follow their budget, and the head
sees only the rows an option needs."""

from __future__ import annotations

import pytest

from mlbench.backends.hf import HFBackend
from mlbench.backends.packed_batches import MAX_ROWS, MAX_TOKENS, BatchBudget, BatchedScorer, batch_budget, plan_batches
from tests.backends.test_packed_scoring import six_shot_requests


def batched(backend: HFBackend, tokens: int = 4096, rows: int = 64) -> HFBackend:
    backend.scorer.batched = BatchedScorer(backend.model, "cpu", lambda prefix: BatchBudget(tokens, rows))
    return backend


# -- batches ---------------------------------------------------------------------------------


def test_batches_hold_the_longest_first_within_their_budget():
    lengths = [30, 200, 50, 50, 120, 10, 90, 400]
    budget = BatchBudget(tokens=300, rows=3)
    plan = plan_batches(lengths, budget)
    assert sorted(i for batch in plan for i in batch) == list(range(len(lengths)))
    assert plan[0] == [7]  # longer than the budget: alone
    for batch in plan:
        assert len(batch) <= budget.rows
        assert lengths[batch[0]] == max(lengths[i] for i in batch)
        assert len(batch) == 1 or len(batch) * lengths[batch[0]] <= budget.tokens
    order = [lengths[i] for batch in plan for i in batch]
    assert order == sorted(lengths, reverse=True)


def test_a_batch_budget_grows_with_memory_and_stays_within_its_caps(tiny_model):
    model = HFBackend(str(tiny_model), device="cpu").model
    small, large = batch_budget(model, 500, 1 << 28), batch_budget(model, 500, 1 << 36)
    assert small.tokens <= large.tokens and small.rows <= large.rows
    assert large.tokens == MAX_TOKENS and large.rows == MAX_ROWS
    assert batch_budget(model, 500, 1).rows == 1


# -- scores ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "eu"])
def test_batched_scores_equal_one_forward_per_question(tiny_model, lang):
    requests = six_shot_requests(lang, 8)
    one_by_one = HFBackend(str(tiny_model), device="cpu").loglikelihood(requests)
    backend = batched(HFBackend(str(tiny_model), device="cpu"), tokens=1000, rows=3)
    together = backend.loglikelihood(requests)
    assert len(backend.scorer.batched.forwards) >= 3  # several batches, of up to three questions
    assert all(rows <= 3 for rows, _ in backend.scorer.batched.forwards)
    for ours, theirs in zip(together, one_by_one):
        assert ours.n_tokens == theirs.n_tokens
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-5)


def test_batched_scoring_follows_a_sliding_window_model(make_sliding_gemma, tmp_path):
    make_sliding_gemma(tmp_path / "gemma")
    requests = six_shot_requests("gl", 4)
    one_by_one = HFBackend(str(tmp_path / "gemma"), device="cpu").loglikelihood(requests)
    together = batched(HFBackend(str(tmp_path / "gemma"), device="cpu")).loglikelihood(requests)
    for ours, theirs in zip(together, one_by_one):
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-5)


def test_without_a_shared_prefix_the_whole_context_is_packed(tiny_model):
    from dataclasses import replace

    requests = [replace(r, prompt=replace(r.prompt, shared_prefix=0)) for r in six_shot_requests("es", 3)]
    one_by_one = HFBackend(str(tiny_model), device="cpu").loglikelihood(requests)
    together = batched(HFBackend(str(tiny_model), device="cpu")).loglikelihood(requests)
    for ours, theirs in zip(together, one_by_one):
        assert ours.logprob == pytest.approx(theirs.logprob, abs=1e-5)


def test_the_head_sees_only_the_rows_an_option_needs(tiny_model):
    backend = batched(HFBackend(str(tiny_model), device="cpu"))
    backend.loglikelihood(six_shot_requests("en", 1))  # the primer's forward, out of the way
    head = backend.model.get_output_embeddings()
    logits = []
    handle = head.register_forward_hook(lambda module, args, out: logits.append(tuple(out.shape)))
    try:
        requests = six_shot_requests("en", 4)
        backend.loglikelihood(requests)
    finally:
        handle.remove()
    ((rows, length),) = backend.scorer.batched.forwards
    ((one, scored, vocabulary),) = logits
    assert one == 1 and vocabulary == backend.model.config.vocab_size
    assert len(requests) <= scored < rows * length  # at least a row per option, far from every row
