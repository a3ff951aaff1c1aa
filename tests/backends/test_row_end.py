"""Where a greedy row ends (row_end.py): looked at once per block of tokens, it ends exactly
where a look after every token would have ended it."""

from __future__ import annotations

import random

import pytest

from mlbench.backends.base import cut_at_stop, drop_partial_character
from mlbench.backends.row_end import RowText, row_end, text_end
from mlbench.records import Generation

EOS = 0
# A toy vocabulary: pieces of text, some of them only part of a stop string ("Q" then ":"),
# one that holds a whole stop string, and the end token (decoded as nothing).
PIECES = {EOS: "", 1: " yes", 2: " no", 3: "\n", 4: "Q", 5: ":", 6: "\n\nQ:", 7: " é", 8: "\ufffd", 9: " maybe"}
STOPS = ("\n\n", "Q:")


def decode(tokens: list[int]) -> str:
    return "".join(PIECES[t] for t in tokens)


def stepwise(tokens: list[int], budget: int, stop: tuple[str, ...]) -> tuple[Generation, int] | None:
    """The reference: the rule applied after each token, as the CPU decoder applies it."""
    for n in range(1, len(tokens) + 1):
        new = tokens[:n]
        if new[-1] == EOS:
            return Generation(cut_at_stop(decode(new[:-1]), stop)[0], n - 1, "stop"), n
        cut, stopped = cut_at_stop(decode(new), stop)
        if stopped:
            return Generation(cut, n, "stop"), n
        if n >= budget:
            return Generation(drop_partial_character(decode(new)), n, "length"), n
    return None


def blockwise(tokens: list[int], budget: int, stop: tuple[str, ...], block: int) -> tuple[Generation, int] | None:
    """The rule applied every ``block`` tokens, as the CUDA decoder applies it."""
    checked = 0
    for made in range(block, len(tokens) + block, block):
        seen = tokens[: min(made, len(tokens))]
        end = row_end(RowText(seen, decode), checked, budget, stop, {EOS})
        if end is not None:
            return end
        checked = len(seen)
    return None


@pytest.mark.parametrize("block", [1, 2, 3, 8, 64])
def test_a_block_ends_a_row_where_each_token_would_have(block):
    rng = random.Random(block)
    checked = 0
    for _ in range(400):
        tokens = [rng.choice([1, 2, 3, 4, 5, 7, 8, 9] * 3 + [EOS, 6]) for _ in range(rng.randint(1, 30))]
        budget = rng.randint(1, 30)
        stop = rng.choice([STOPS, (), ("maybe",), ("", "Q:")])
        expected = stepwise(tokens, budget, stop)
        if expected is None and len(tokens) < budget:
            continue  # runs on: both agree only that nothing ended yet
        assert blockwise(tokens, budget, stop, block) == expected, (tokens, budget, stop)
        checked += 1
    assert checked > 200


def test_an_end_token_at_the_budget_still_ends_the_row_as_an_end():
    text = RowText([1, 2, EOS], decode)
    generation, used = row_end(text, 0, 3, (), {EOS})
    assert generation == Generation(" yes no", 2, "stop") and used == 3


def test_the_overshoot_after_the_end_is_dropped():
    text = RowText([1, 3, 3, 2, 2, 2, 2], decode)  # "\n\n" completes at the third token
    generation, used = row_end(text, 0, 50, STOPS, {EOS})
    assert generation == Generation(" yes", 3, "stop") and used == 3


def test_the_text_a_caller_decoded_is_not_decoded_again():
    calls = []

    def counting(tokens):
        calls.append(len(tokens))
        return decode(tokens)

    tokens = [1, 2, 9, 1]
    assert row_end(RowText(tokens, counting, {4: decode(tokens)}), 0, 50, STOPS, {EOS}) is None
    assert calls == []  # no stop string in the whole text: no token-by-token search


def test_stop_strings_are_looked_for_only_before_the_first_end_token():
    assert text_end([1, 2, EOS, 3, 3], 0, 10, {EOS}) == 2
    assert text_end([1, 2, 3], 0, 2, {EOS}) == 2
