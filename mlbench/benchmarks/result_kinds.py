"""A request's result as the kind of result its request asks for.

A mode builds one kind of request (log-likelihoods, or generations), so every result it
gets back is of that kind; another kind is a bug in the task, not the user's input.
"""

from __future__ import annotations

from mlbench.records import Generation, LoglikelihoodResult

Result = LoglikelihoodResult | Generation


def as_generation(result: Result) -> Generation:
    assert isinstance(result, Generation), f"a generation request got {type(result).__name__}"
    return result


def as_loglikelihood(result: Result) -> LoglikelihoodResult:
    assert isinstance(result, LoglikelihoodResult), f"a log-likelihood request got {type(result).__name__}"
    return result


def as_loglikelihoods(results: list[Result]) -> list[LoglikelihoodResult]:
    return [as_loglikelihood(result) for result in results]
