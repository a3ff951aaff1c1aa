r"""The one error type users see: a message that fits on one line, exit code 2; the
"did you mean" hint such a line gives for a name it does not know; and how text from a file
or a flag is shown on a line, in the terminal as in the report's files.

``one_line`` writes each control character as a visible escape, as Python writes it (a line
break is ``\n``, the terminal's escape character ``\x1b``): the reader sees that something
was there, and nothing acts on it. ``terminal_text`` is the one escaper for the terminal:
``one_line``, and cut to ``TERMINAL_CHARS`` with the text's length, so that neither an
escape sequence nor a 100 kB value given by mistake reaches a terminal whole.

>>> print(one_line("a\n# Forged\x1b[31m"))
a\n# Forged\x1b[31m
>>> print(terminal_text("\x1b[2J" + "x" * 5000, 20))
\x1b[2Jxxxxxxxxxxxx… (5,004 characters)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

# What would end a line, move a terminal's cursor or recolour it, or turn the direction of
# the text around it: the C0 and C1 controls and DEL, Unicode's line and paragraph
# separators, and the bidirectional embeddings, overrides and isolates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_SPACES = re.compile("[ \t\r\n]+")

# The most characters of one text from a file or a flag that the terminal shows: a
# benchmark's title, the reason it cannot be aligned (the longest shipped: 246), a name.
TERMINAL_CHARS = 300
# The most of a value an error line echoes (``clipped``): the line is read for its hint.
ECHOED_CHARS = 80
# The most characters of a whole line mlbench prints (an error, a warning, a note): past
# it, a line that echoes some value whole is cut in its middle, and still ends as it ends.
LINE_CHARS = 1_000
ELLIPSIS = "…"


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
    return f" (did you mean {clipped(match)}?)" if match is not None and match != given else ""


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """``text`` on one line, each control character (C0, C1, DEL, line and paragraph
    separators, bidirectional controls) written as a visible escape: ``\\n``, ``\\r``,
    ``\\t``, else ``\\xNN`` or ``\\uNNNN``. A literal backslash is left as it is: the text
    is shown, never parsed back."""
    return _UNSAFE.sub(_visible, text)


def terminal_text(text: str, limit: int = TERMINAL_CHARS) -> str:
    """``text`` (from a file or a flag) as the terminal shows it: ``one_line``, whole when
    that is at most ``limit`` characters, else the start of it cut to ``limit`` characters
    (an escape never split) and the text's own length: ``xxxx… (5,000 characters)``. Work
    and output are bounded by ``limit`` whatever the text's length."""
    line = one_line(text[: limit + 1])
    if len(text) <= limit and len(line) <= limit:
        return line
    shown, used = [], 0
    for char in text[:limit]:
        piece = one_line(char)
        if used + len(piece) > limit - len(ELLIPSIS):
            break
        shown.append(piece)
        used += len(piece)
    return f"{''.join(shown)}{ELLIPSIS} ({len(text):,} characters)"


def terminal_line(text: str, limit: int = LINE_CHARS) -> str:
    """A whole line for the terminal (an error, a warning, a note): its spaces, tabs and
    line breaks collapsed to one space (``str.split`` would also take the file and group
    separators and U+2028 for white space, which are to be shown), ``one_line``, and past
    ``limit`` characters its middle left out and counted, so that its start (what went
    wrong) and its end (the hint) are both read."""
    line = one_line(_SPACES.sub(" ", text).strip(" "))
    if len(line) <= limit:
        return line
    tail = limit // 3
    left_out = f"{ELLIPSIS} ({len(line) - limit:,} characters left out) {ELLIPSIS}"
    return line[: limit - tail] + left_out + line[-tail:]


def clipped(text: str, limit: int = ECHOED_CHARS) -> str:
    """``text`` as an error line echoes a value: ``terminal_text`` at ``limit`` (80), so that a
    100 kB value given by mistake does not become a 100 kB line, and the hint after it is read."""
    return terminal_text(text, limit)


def some_ids(ids: Iterable[str], shown: int = 5) -> str:
    """The first ``shown`` of ``ids`` (in the order given) and how many more: a line names a
    few of the questions it speaks of, never all 817."""
    listed = list(ids)
    more = f" and {len(listed) - shown} more" if len(listed) > shown else ""
    return ", ".join(clipped(i, 40) for i in listed[:shown]) + more
