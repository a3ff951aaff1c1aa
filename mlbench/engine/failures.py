"""Samples that failed (the backend answered with an error), told per language.

A failed sample is recorded with its error and never scored, so that --resume retries
it. An unreachable --base-url, a server answering HTTP 500 or non-JSON therefore used to
fail every sample and still exit 0 with nothing on stderr: a run that measured nothing
looked like a finished one.

Now every language with failures gets a line on stderr. Up to FAILED_SHARE of its
samples is a warning (a few long questions overflowing the context, a short outage) and
the run still exits 0; more than that is an error and the run exits 1 (``EXIT_FAILED``,
apart from 2, bad input), after every language has been run and written, so that
``--resume`` retries just the failed samples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mlbench.records import RunResult, SampleRecord

# More than half the samples failed: the mean of the rest no longer describes the
# language (what fails is not random: the longest prompts overflow, one kind of request
# errors), and an outage fails all of them.
FAILED_SHARE = 0.5
EXIT_FAILED = 1
_MAX_MESSAGE = 200  # the first error, cut so that the line stays one readable line
CONTEXT_OVERFLOW = "context overflow:"  # how backends.base.context_overflow begins


@dataclass(frozen=True)
class LanguageFailures:
    task: str
    lang: str
    failed: int
    total: int
    first_error: str
    # Whether running the samples again can help: not when every one overflowed the context.
    retryable: bool = True

    @property
    def too_many(self) -> bool:
        return self.failed > FAILED_SHARE * self.total

    def line(self) -> str:
        """One line for stderr (without the ``mlbench: warning:``/``error:`` prefix)."""
        advice = (
            "rerun with --resume to retry them"
            if self.retryable
            else "they do not fit the model's context: fewer shots (--fewshot), a shorter --max-new-tokens or a "
            "model with a longer context"
        )
        return (
            f"{self.task} {self.lang}: {self.failed} of {self.total} samples failed (first: {self.first_error}); "
            f"kept in the results; {advice}"
        )


def language_failures(task: str, lang: str, records: list[SampleRecord]) -> LanguageFailures | None:
    """The failures among one language's sample records, or None when none failed."""
    return failures_among(task, lang, [r.error for r in records])


def verdict_failures(what: str, lang: str, records: list[SampleRecord], kind: str) -> LanguageFailures | None:
    """The samples whose ``kind`` verdict failed (the judge's call erred), or None."""
    return failures_among(what, lang, [_verdict_error(r, kind) for r in records])


def _verdict_error(record: SampleRecord, kind: str) -> str | None:
    error = record.judges.get(kind, {}).get("judge_error")
    return str(error) if error else None


def failures_among(what: str, lang: str, errors: list[str | None]) -> LanguageFailures | None:
    """One language's failures, given each sample's error (None: it did not fail)."""
    failed = [error for error in errors if error is not None]
    if not failed:
        return None
    first = " ".join(failed[0].split())
    if len(first) > _MAX_MESSAGE:
        first = first[: _MAX_MESSAGE - 1] + "…"
    retryable = not all(_overflowed(error) for error in failed)
    return LanguageFailures(what, lang, len(failed), len(errors), first, retryable)


def _overflowed(error: str) -> bool:
    """Whether every failure in a sample's error is a context overflow: the error joins its
    modes' failures with "; ", each as ``<mode>: <failure>`` (``engine/scoring.py``)."""
    parts = [part.strip() for part in error.split("; ")]
    return all(
        part.startswith(CONTEXT_OVERFLOW) or part.partition(": ")[2].startswith(CONTEXT_OVERFLOW) for part in parts
    )


class SamplesFailed(Exception):
    """Raised by ``pipeline.run`` after the whole run, when a language had too many
    failed samples; ``results`` are the run's results, written as usual."""

    def __init__(self, failures: list[LanguageFailures], results: list[RunResult]) -> None:
        super().__init__("; ".join(f.line() for f in failures))
        self.failures, self.results = failures, results

    def lines(self) -> list[str]:
        return [f"mlbench: error: {f.line()}" for f in self.failures]


def too_many(failures: Iterable[LanguageFailures]) -> list[LanguageFailures]:
    return [f for f in failures if f.too_many]
