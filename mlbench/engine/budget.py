"""``--max-cost USD`` and ``--max-tokens N``: what one ``mlbench run`` may spend on API
servers (the model's and the judge's requests together) before it stops.

The count is of this invocation: what earlier invocations of a resumed run spent is in
its results, not in the budget, so ``--resume`` with the same flags spends up to the same
budget again. Requests answered from the request cache cost nothing and count nothing.

The budget is checked between chunks of samples, where a run is whole on disk. A chunk
holds what the rest of the budget pays for at the average so far of the stage's samples
(the model's, or one judge kind's) that cost tokens; samples answered from the cache cost
nothing and are not averaged. A stage with no such sample yet sends one sample alone, to
learn its cost. The run stops when not one more sample fits, so it overshoots by at most
one sample's cost when samples cost about the same: the first sample of a stage, or the
samples of a chunk that cost more than the average so far, can pass the budget by what
they cost beyond it. The stop is a ``KeyboardInterrupt`` (``BudgetSpent``), so that it ends
like Ctrl-C: the finished samples saved, the backend closed, the locks released, one line
naming the command that continues it, and exit code ``EXIT_BUDGET``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mlbench.errors import MlbenchError
from mlbench.records.usage import Prices, Usage

if TYPE_CHECKING:  # the stop is raised at start-up's cost (cli/signals.py imports it): nothing heavy
    from mlbench.backends.registry import ModelOptions
    from mlbench.records import SampleRecord

EXIT_BUDGET = 3  # not 1 (failed samples), 2 (bad input) or 128+N (a signal)


class BudgetSpent(KeyboardInterrupt):
    """The budget is spent; ``why`` is the line's reason (``stopped: the token budget ...``)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why

    def __str__(self) -> str:
        return self.why


@dataclass
class Budget:
    max_cost: float | None = None  # US dollars
    max_tokens: int | None = None
    tokens: int = 0  # spent so far by this invocation
    cost: float = 0.0
    # Per stage (the model, each judge kind): the tokens, cost and the samples that took them
    # (cached ones cost nothing and are left out), for the average that sizes the next chunk.
    stages: dict[str, tuple[int, float, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The flags' parsers say the same; a Budget built in Python gets the same line.
        if self.max_cost is not None and not (math.isfinite(self.max_cost) and self.max_cost > 0):
            raise MlbenchError(f"--max-cost must be a finite number more than 0, not {self.max_cost}")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise MlbenchError(f"--max-tokens must be at least 1, not {self.max_tokens}")

    def spend(self, stage: str, usages: Iterable[Usage | None], prices: Prices | None) -> None:
        """Count the usage of the samples a chunk just finished (one entry per sample)."""
        counted = [u for u in usages if u is not None]  # None: answered from the cache, free
        tokens = sum(u.total for u in counted)
        cost = sum(prices.cost(u) for u in counted) if prices else 0.0
        self.tokens += tokens
        self.cost += cost
        before = self.stages.get(stage, (0, 0.0, 0))
        self.stages[stage] = (before[0] + tokens, before[1] + cost, before[2] + len(counted))

    def next_chunk(self, stage: str, size: int) -> int:
        """How many samples the next chunk of ``stage`` may hold: what the rest of the budget
        pays for at the stage's average, at most ``size``; 1 while the stage has no average
        (a first chunk of ``size`` could pass the budget many times over); BudgetSpent when
        not one more sample fits."""
        tokens, cost, samples = self.stages.get(stage, (0, 0.0, 0))
        fits = size
        if self.max_tokens is not None:
            fits = min(fits, _affordable(self.max_tokens - self.tokens, tokens, samples, size))
        if self.max_cost is not None:
            fits = min(fits, _affordable(self.max_cost - self.cost, cost, samples, size))
        if fits < 1:
            raise BudgetSpent(self.reason())
        return fits

    def reason(self) -> str:
        if self.max_tokens is not None and (self.max_cost is None or self.tokens / self.max_tokens >= self.cost_share):
            return f"stopped: the token budget (--max-tokens {self.max_tokens}) is spent after {self.tokens:,} tokens"
        return f"stopped: the cost budget (--max-cost {self.max_cost:g}) is spent after ${self.cost:,.4f}"

    @property
    def cost_share(self) -> float:
        return self.cost / self.max_cost if self.max_cost else 0.0


def _affordable(left: float, spent: float, samples: int, size: int) -> int:
    """Samples that ``left`` pays for at the average so far (1 when none is known: one sample
    alone, to learn what a sample costs; ``size`` when the samples so far cost nothing)."""
    if left <= 0:
        return 0
    if samples == 0:
        return 1
    if spent <= 0:
        return size
    return math.floor(left / (spent / samples))


def spend_records(budget: Budget | None, records: Iterable[SampleRecord], model: ModelOptions) -> None:
    """Count the model's usage of the samples just written, at ``model``'s prices."""
    if budget is not None:
        budget.spend("model", [r.usage for r in records], Prices.given(model.prompt_price, model.completion_price))


def spend_verdicts(budget: Budget | None, kind: str, records: Iterable[SampleRecord], judge: ModelOptions) -> None:
    """Count a judge kind's usage of the samples it just judged, at the judge's prices."""
    if budget is not None:
        prices = Prices.given(judge.prompt_price, judge.completion_price)
        budget.spend(f"judge {kind}", [r.judge_usage.get(kind) for r in records], prices)


def chunk_size(budget: Budget | None, stage: str, size: int, options: ModelOptions) -> int:
    """The next chunk's size; ``options`` are the stage's model's or judge's: a stage that
    counts no tokens (a local model) is not held back, though the budget is still checked."""
    if budget is None:
        return size
    fits = budget.next_chunk(stage, size)  # BudgetSpent when spent, whoever spent it
    return fits if options.runs_on == "openai" else size


def check_budget(budget: Budget | None, model: ModelOptions, judge: ModelOptions | None = None) -> None:
    """Refuse a budget that no model of the run can spend (only OpenAI-compatible servers'
    tokens are counted), and a cost budget without the prices to count it."""
    if budget is None or (budget.max_cost is None and budget.max_tokens is None):
        return
    served = {flag: options for flag, options in (("-M", model), ("-J", judge)) if options is not None}
    served = {flag: options for flag, options in served.items() if options.runs_on == "openai"}
    flag = "--max-cost" if budget.max_cost is not None else "--max-tokens"
    if not served:
        raise MlbenchError(
            f"{flag} counts the tokens of OpenAI-compatible servers (--backend openai, -J backend=openai); "
            "this run sends none"
        )
    unpriced = [flag for flag, options in served.items() if options.prompt_price is None]
    if budget.max_cost is not None and unpriced:
        raise MlbenchError(
            f"--max-cost needs prices to count: give {' and '.join(unpriced)} prompt_price=USD and "
            "completion_price=USD (per million tokens), or use --max-tokens"
        )
