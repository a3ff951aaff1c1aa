"""What every backend answers (log-likelihoods and generations), what it may offer beside
them, and the helpers the backends share."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt

T = TypeVar("T")

# Called with the number of requests just finished, to drive a progress bar.
ProgressCallback = Callable[[int], None]


class Backend(ABC):
    """A model that answers requests: log-likelihoods and generations, which every backend
    implements, and the optional capabilities below, whose defaults do nothing."""

    name: str
    # Identifies the weights, tokenizer and numeric settings: two backends with the same
    # fingerprint give the same answers, which is what makes the request cache safe.
    fingerprint: str
    # The samples one call takes best (a GPU batches whole chunks): the pipeline's chunk
    # size where --chunk-size is not given; None: the pipeline's default.
    samples_per_call: int | None = None

    @abstractmethod
    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        """Each request's log-probability of its continuation after its prompt, in order."""

    @abstractmethod
    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        """Each request's generated answer, in order."""

    def render(self, prompt: Prompt) -> tuple[Prompt, str] | None:
        """The chat turns of ``prompt`` as the model gets them and the text its chat template
        makes of them, which a sample records; None: a server applies the template, and the
        sample records the turns as they are."""
        return None

    def prefetch(self, requests: list[LoglikelihoodRequest | GenerationRequest]) -> None:
        """Told of a later call's requests (the pipeline's next chunk, the same objects that
        call will get), to prepare them while the current call runs; by default nothing."""

    def describe(self) -> dict[str, object]:
        """The backend's settings and counts, recorded in results.json."""
        return {}

    def close(self) -> None:
        """Let go of what the backend holds (worker processes, connections, files)."""


class ForwardingBackend(Backend):
    """A backend in front of another (``inner``) that answers as the inner one does, with
    its capabilities: a subclass overrides what it changes."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = inner.name
        self.fingerprint = inner.fingerprint
        self.samples_per_call = inner.samples_per_call

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        return self.inner.loglikelihood(requests, progress)

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        return self.inner.generate(requests, progress)

    def render(self, prompt: Prompt) -> tuple[Prompt, str] | None:
        return self.inner.render(prompt)

    def prefetch(self, requests: list[LoglikelihoodRequest | GenerationRequest]) -> None:
        self.inner.prefetch(requests)

    def describe(self) -> dict[str, object]:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()


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
    filled = [r for r in results if r is not None]
    if len(filled) != len(results):
        raise RuntimeError("a request got no result")
    return filled


def common_prefix_length(sequences: list[tuple[int, ...]]) -> int:
    """How many leading tokens every sequence shares (the few-shot primer, typically)."""
    if not sequences:
        return 0
    length = min(len(s) for s in sequences)
    first = sequences[0]
    for other in sequences[1:]:
        length = next((i for i in range(length) if other[i] != first[i]), length)
    return length
