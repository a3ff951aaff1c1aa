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

Over a block, the text of the tokens before the first end token is decoded once; only a
row whose text holds a stop string is decoded again token by token, to find the first
token at which it appeared. (A stop string found in a longer text is assumed to be in it
from the token that completed it on: decoded text only grows at its end.)
"""

from __future__ import annotations

from collections.abc import Callable

from mlbench.backends.base import cut_at_stop, drop_partial_character
from mlbench.records import Generation

Decode = Callable[[list[int]], str]


class RowText:
    """The decoded text of a row's first n tokens, each n decoded once (a caller that
    decoded several rows in one batch call hands their texts in as ``known``)."""

    def __init__(self, tokens: list[int], decode: Decode, known: dict[int, str] | None = None) -> None:
        self.tokens, self.decode = tokens, decode
        self.known = dict(known or {})

    def upto(self, n: int) -> str:
        if n not in self.known:
            self.known[n] = self.decode(self.tokens[:n])
        return self.known[n]


def text_end(tokens: list[int], checked: int, budget: int, end_tokens: set[int]) -> int:
    """How many of ``tokens`` a stop string may be looked for in: up to the first end token
    after the ``checked`` ones, and no further than the budget."""
    scan_to = min(len(tokens), budget)
    return next((i for i in range(checked, scan_to) if tokens[i] in end_tokens), scan_to)


def row_end(
    text: RowText, checked: int, budget: int, stop: tuple[str, ...], end_tokens: set[int]
) -> tuple[Generation, int] | None:
    """The row's result if it ended at one of its tokens after the first ``checked`` (which
    were already looked at and did not end it), with how many of its tokens it used (an end
    token counts there, not in the result); None while it runs on."""
    tokens = text.tokens
    last = text_end(tokens, checked, budget, end_tokens)
    if any(stop) and last > checked and any(s and s in text.upto(last) for s in stop):
        for n in range(checked + 1, last + 1):
            cut, stopped = cut_at_stop(text.upto(n), stop)
            if stopped:
                return Generation(cut, n, "stop"), n
    if last < min(len(tokens), budget):  # the token at ``last`` is an end token
        return Generation(cut_at_stop(text.upto(last), stop)[0], last, "stop"), last + 1
    if len(tokens) >= budget:
        return Generation(drop_partial_character(text.upto(budget)), budget, "length"), budget
    return None
