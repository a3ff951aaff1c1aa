"""The budget's arithmetic: chunks shrink to what the rest pays for, and it stops at one sample short."""

import pytest

from mlbench.backends.registry import ModelOptions, model_spec
from mlbench.engine.budget import Budget, BudgetSpent, chunk_size
from mlbench.records.usage import Prices, Usage

SERVED = model_spec("m", "openai", base_url="http://localhost:1/v1")


def test_chunks_shrink_to_what_is_left_at_the_average_so_far():
    budget = Budget(max_tokens=1000)
    assert budget.next_chunk("model", 32) == 1  # nothing known yet: one sample, to learn its cost
    budget.spend("model", [Usage(100, 10), Usage(100, 10)], None)
    assert budget.tokens == 220
    assert budget.next_chunk("model", 32) == 7  # 780 tokens left at 110 a sample
    assert budget.next_chunk("judge truth", 32) == 1  # a judge's samples have their own average
    budget.spend("model", [Usage(100, 10)] * 7, None)
    with pytest.raises(
        BudgetSpent, match=r"^stopped: the token budget \(--max-tokens 1000\) is spent after 990 tokens$"
    ):
        budget.next_chunk("model", 32)  # 10 left: not one more sample


def test_a_cost_budget_counts_at_the_prices_and_cached_answers_cost_nothing():
    budget = Budget(max_cost=0.001)
    budget.spend("model", [Usage(100, 10), None], Prices(2.5, 10))  # None: answered from the cache
    assert budget.cost == pytest.approx(0.00035)
    assert budget.next_chunk("model", 32) == 1  # 0.00065 left at 0.00035 a counted sample
    budget.spend("model", [Usage(1000, 0)], Prices(2.5, 10))
    with pytest.raises(BudgetSpent, match=r"cost budget \(--max-cost 0.001\) is spent after \$0\.002"):
        budget.next_chunk("model", 32)


def test_the_stop_is_an_interrupt_so_every_cleanup_runs_as_on_ctrl_c():
    assert issubclass(BudgetSpent, KeyboardInterrupt)


def test_a_first_chunk_is_one_sample_so_a_small_budget_stops_after_it():
    budget = Budget(max_tokens=100)
    assert chunk_size(budget, "model", 32, SERVED) == 1  # was the whole --chunk-size: 32 samples
    budget.spend("model", [Usage(1000, 50)], None)
    with pytest.raises(BudgetSpent, match="after 1,050 tokens$"):
        chunk_size(budget, "model", 32, SERVED)


def test_each_judge_kinds_first_chunk_is_one_sample_when_the_model_spent_most():
    budget = Budget(max_tokens=10_000)
    budget.spend("model", [Usage(80, 10)] * 100, None)  # 90% spent
    assert chunk_size(budget, "judge truth", 32, SERVED) == 1
    budget.spend("judge truth", [Usage(200, 1)], None)
    assert chunk_size(budget, "judge truth", 32, SERVED) == 3  # 799 left at 201 a sample
    assert chunk_size(budget, "judge info", 32, SERVED) == 1


def test_cached_samples_are_left_out_of_the_average():
    budget = Budget(max_tokens=1000)
    budget.spend("model", [None] * 31 + [Usage(100, 10)], None)  # 31 from the cache, 1 asked
    assert budget.next_chunk("model", 32) == 8  # 890 left at 110 a sample, not at 110 / 32
    only_cached = Budget(max_tokens=1000)
    only_cached.spend("model", [None] * 32, None)
    assert only_cached.next_chunk("model", 32) == 1  # still nothing known of a sample's cost


def test_a_stage_that_counts_no_tokens_keeps_its_chunks_but_stops_at_a_spent_budget():
    local = ModelOptions("m", backend="hf")
    budget = Budget(max_tokens=1000)
    assert chunk_size(budget, "judge truth", 32, local) == 32  # a local judge: nothing to learn
    budget.spend("model", [Usage(1000, 0)], None)
    with pytest.raises(BudgetSpent):
        chunk_size(budget, "judge truth", 32, local)
