"""Where a greedily generated row ends: an end token, a stop string, or its token budget.

One rule for both greedy decoders. The CPU decoder asks after every token; the CUDA
decoder runs several steps on the device between looks (no host synchronisation per
token) and asks once for the whole block, so the rule finds the first token at which the
row would have ended had it been asked after each one, and the tokens generated after
that (the overshoot) are dropped.

The rule, for the n-th new token (n = 1, 2, ...), checked in this order:

1. it is an end token: the row ends with the n - 1 tokens before it, cut at a stop string;
2. the text of the first n tokens holds a stop string: the row ends there, cut before it;
3. n is the row's budget: the row ends with its text, less a trailing partial character.

What is decoded, so that decoding a row costs in proportion to its length, not to its
square: each look decodes only the row's newest tokens, with enough tokens before them to
hold a stop string they complete (``recent_tokens``). The whole text is decoded when that window holds
a stop string and when the row ends, and the first token at which a stop string appeared
is then found by bisection over whole texts. (A stop string found in a longer text is
assumed to be in it from the token that completed it on: decoded text only grows at its
end. A window's own decoding can differ from the whole text's at its start, a leading
space or a split character; a stop string that only the whole text shows is found when
the row ends, at the same token, the steps in between wasted but nothing changed.)
"""

from __future__ import annotations

from collections.abc import Callable

from mlbench.backends.base import cut_at_stop, drop_partial_character
from mlbench.records import Generation

Decode = Callable[[list[int]], str]

# Tokens of a window per character of the longest stop string (byte-level tokens can be a
# third of a character), and a few more for the window's unsteady start.
TOKENS_PER_CHARACTER = 4
EXTRA_TOKENS = 4


class RowText:
    """The decoded text of a row's first n tokens, each n decoded once. The row's token
    list may grow between looks (the decoders extend it in place): the text of its first n
    tokens never changes. ``clear``: the whole text of this many first tokens was decoded
    and holds no stop string."""

    def __init__(self, tokens: list[int], decode: Decode) -> None:
        self.tokens, self.decode = tokens, decode
        self.known: dict[int, str] = {}
        self.clear = 0

    def upto(self, n: int) -> str:
        if n > len(self.tokens):  # a list replaced instead of extended: its texts would be stale
            raise ValueError(f"the text of {n} tokens asked of a row of {len(self.tokens)}")
        if n not in self.known:
            self.known[n] = self.decode(self.tokens[:n])
        return self.known[n]


def text_end(tokens: list[int], checked: int, budget: int, end_tokens: set[int]) -> int:
    """How many of ``tokens`` a stop string may be looked for in: up to the first end token
    after the ``checked`` ones, and no further than the budget."""
    scan_to = min(len(tokens), budget)
    return next((i for i in range(checked, scan_to) if tokens[i] in end_tokens), scan_to)


def recent_tokens(
    tokens: list[int], checked: int, budget: int, stop: tuple[str, ...], end_tokens: set[int]
) -> list[int]:
    """The tokens whose text holds any stop string completed by the tokens after the
    first ``checked``: those new tokens (up to an end token), after enough before them.
    None of them for a row without stop strings."""
    longest = max((len(s) for s in stop), default=0)
    if not longest:
        return []
    start = max(0, checked - TOKENS_PER_CHARACTER * longest - EXTRA_TOKENS)
    return tokens[start : text_end(tokens, checked, budget, end_tokens)]


def holds_stop(text: str, stop: tuple[str, ...]) -> bool:
    return any(s and s in text for s in stop)


def row_end(
    text: RowText,
    checked: int,
    budget: int,
    stop: tuple[str, ...],
    end_tokens: set[int],
    recent: str | None = None,
) -> tuple[Generation, int] | None:
    """The row's result if it ended at one of its tokens after the first ``checked`` (which
    were already looked at and did not end it), with how many of its tokens it used (an end
    token counts there, not in the result); None while it runs on. ``recent``: the text of
    ``recent_tokens``; without it, the whole text is looked at."""
    tokens = text.tokens
    last = text_end(tokens, checked, budget, end_tokens)
    ends = last < min(len(tokens), budget) or len(tokens) >= budget  # an end token or the budget
    if any(stop) and last > text.clear and (ends or recent is None or holds_stop(recent, stop)):
        if holds_stop(text.upto(last), stop):
            holding = last
            # Windows can have missed a stop string: the text of the tokens looked at before
            # (one decode) says whether to search among them or among this look's only.
            if text.clear < checked < last:
                if holds_stop(text.upto(checked), stop):
                    holding = checked
                else:
                    text.clear = checked
            n = first_stop(text, stop, text.clear, holding)
            return Generation(cut_at_stop(text.upto(n), stop)[0], n, "stop"), n
        text.clear = last
    if last < min(len(tokens), budget):  # the token at ``last`` is an end token
        return Generation(cut_at_stop(text.upto(last), stop)[0], last, "stop"), last + 1
    if len(tokens) >= budget:
        return Generation(drop_partial_character(text.upto(budget)), budget, "length"), budget
    return None


def first_stop(text: RowText, stop: tuple[str, ...], clear: int, holding: int) -> int:
    """The fewest first tokens whose text holds a stop string, given that the first
    ``clear`` hold none and the first ``holding`` do (bisection)."""
    while holding - clear > 1:
        middle = (clear + holding) // 2
        if holds_stop(text.upto(middle), stop):
            holding = middle
        else:
            clear = middle
    return holding
