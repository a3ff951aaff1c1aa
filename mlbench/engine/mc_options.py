"""The options of a multiple-choice question as a reader sees them: each option's text,
its log-likelihood and whether the data marks it correct. Saved with every MC sample
(``outputs.options``) so that a sample explains itself (``mlbench explore``) without the
dataset; the metrics never read it."""

from __future__ import annotations

from mlbench.records import LoglikelihoodRequest, LoglikelihoodResult
from mlbench.records.jsontypes import JsonObject


def option_block(
    marked: dict[str, bool], requests: list[LoglikelihoodRequest], results: list[LoglikelihoodResult]
) -> list[JsonObject]:
    """Each distinct option asked, in the order first asked: text, log-likelihood and
    correct (``marked``, the task's ``option_marks``; None where it does not say)."""
    seen: dict[str, JsonObject] = {}
    for request, result in zip(requests, results):
        text = request.continuation.strip()
        if text not in seen:
            seen[text] = {"text": text, "logprob": result.logprob, "correct": marked.get(text)}
    return list(seen.values())
