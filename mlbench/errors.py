"""The one error type users see: a message that fits on one line, exit code 2; and the
"did you mean" hint such a line gives for a name it does not know."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class MlbenchError(Exception):
    """Bad input or an environment problem the user can fix.

    The CLI prints ``str(error)`` on one line of stderr and exits with code 2; anything
    else escaping the CLI is a bug in mlbench.
    """


class LogprobsUnsupported(MlbenchError):
    """The backend cannot return log-probs (a chat-only API); callers that have another way
    to get their answer (a judge that can parse generated text) say so in their message."""


def closest(given: str, known: Iterable[str]) -> str | None:
    """The one name of ``known`` nearest to ``given`` (difflib's ratio, case ignored), or
    None when none is near: what a "did you mean" names. A name that differs only in case
    is the answer whatever else is near."""
    by_folded: dict[str, str] = {}
    for name in known:
        by_folded.setdefault(name.casefold(), name)
    folded = given.strip().casefold()
    if folded in by_folded:
        return by_folded[folded]
    close = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    return by_folded[close[0]] if close else None


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """`` (did you mean NAME?)`` for the name of ``known`` nearest to ``given``, else "":
    the hint every "unknown ..." line carries, before its list of valid names."""
    match = closest(given, known)
    return f" (did you mean {match}?)" if match is not None and match != given else ""


def clipped(text: str, limit: int = 80) -> str:
    """``text`` as an error line shows it: whole when short, else its start and its length
    (a 100 kB value given by mistake must not become a 100 kB line)."""
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text):,} characters)"


def some_ids(ids: Iterable[str], shown: int = 5) -> str:
    """The first ``shown`` of ``ids`` (in the order given) and how many more: a line names a
    few of the questions it speaks of, never all 817."""
    listed = list(ids)
    more = f" and {len(listed) - shown} more" if len(listed) > shown else ""
    return ", ".join(clipped(i, 40) for i in listed[:shown]) + more
