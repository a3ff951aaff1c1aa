"""What every backend answers: log-likelihoods and generations."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, TypeVar

from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

T = TypeVar("T")

# Called with the number of requests just finished, to drive a progress bar.
ProgressCallback = Callable[[int], None]


class Backend(Protocol):
    name: str
    # Identifies the weights, tokenizer and numeric settings: two backends with the same
    # fingerprint give the same answers, which is what makes the request cache safe.
    fingerprint: str

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]: ...

    def generate(
        self, requests: list[GenerationRequest], progress: ProgressCallback | None = None
    ) -> list[Generation]: ...


# A log-probability is at most 0; a backend's own rounding stays far below this.
_LOGPROB_SLACK = 1e-4


def checked_loglikelihood(result: LoglikelihoodResult) -> LoglikelihoodResult:
    """``result``, or a failed one saying why when its log-probability cannot be one (NaN,
    infinite, positive): a broken backend or server must fail the sample, not score it."""
    value = result.logprob
    if result.error is None and not (math.isfinite(value) and value <= _LOGPROB_SLACK):
        reason = "not a number" if math.isnan(value) else "infinite" if math.isinf(value) else "positive"
        return replace(result, error=f"the backend gave log-probability {value!r} ({reason})")
    return result


def cut_at_stop(text: str, stop: tuple[str, ...]) -> tuple[str, bool]:
    """``text`` up to the earliest stop string, and whether one was found."""
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)


def context_overflow(n_tokens: int, limit: int) -> str:
    """The per-sample error for a prompt that does not fit the model's context."""
    return f"context overflow: {n_tokens} tokens needed, the model's context holds {limit}"


def drop_partial_character(text: str) -> str:
    """An output cut at the token limit can end inside a multi-byte character, which
    decodes to U+FFFD; backends differ on whether they show it, so none of ours does."""
    return text.rstrip("\ufffd")


def all_filled(results: list[T | None]) -> list[T]:
    """Results in request order; a gap would be a bug that silently drops a sample."""
    if any(r is None for r in results):
        raise RuntimeError("a request got no result")
    return results  # type: ignore[return-value]


def common_prefix_length(sequences: list[tuple[int, ...]]) -> int:
    """How many leading tokens every sequence shares (the few-shot primer, typically)."""
    if not sequences:
        return 0
    length = min(len(s) for s in sequences)
    first = sequences[0]
    for other in sequences[1:]:
        length = next((i for i in range(length) if other[i] != first[i]), length)
    return length
