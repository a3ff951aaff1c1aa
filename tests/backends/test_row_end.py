"""Where a greedy row ends (row_end.py): looked at once per block of tokens, it ends exactly
where a look after every token would have ended it; looking at the newest tokens' text
only, it still does, and decodes about as many tokens as the row has."""

from __future__ import annotations

import random

import pytest

from mlbench.backends.base import cut_at_stop, drop_partial_character
from mlbench.backends.row_end import Decode, RowText, recent_tokens, row_end, text_end
from mlbench.records import Generation

EOS = 0
# A toy vocabulary: pieces of text, some of them only part of a stop string ("Q" then ":"),
# one that holds a whole stop string, and the end token (decoded as nothing).
PIECES = {EOS: "", 1: " yes", 2: " no", 3: "\n", 4: "Q", 5: ":", 6: "\n\nQ:", 7: " é", 8: "\ufffd", 9: " maybe", 10: ""}
STOPS = ("\n\n", "Q:")


def decode(tokens: list[int]) -> str:
    return "".join(PIECES[t] for t in tokens)


def sentencepiece_like(tokens: list[int]) -> str:
    """A decoder whose text is not the sum of its pieces: it drops the leading space of
    whatever it decodes, as SentencePiece's decoders do, so a window of tokens decoded alone
    can differ from the same tokens inside the whole text."""
    return decode(tokens).removeprefix(" ")


def stepwise(
    tokens: list[int], budget: int, stop: tuple[str, ...], decode: Decode = decode
) -> tuple[Generation, int] | None:
    """The reference: the rule applied after each token on the whole text."""
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


def blockwise(
    tokens: list[int], budget: int, stop: tuple[str, ...], block: int, decode: Decode = decode
) -> tuple[Generation, int] | None:
    """The rule applied every ``block`` tokens on the whole text."""
    checked = 0
    for made in range(block, len(tokens) + block, block):
        seen = tokens[: min(made, len(tokens))]
        end = row_end(RowText(seen, decode), checked, budget, stop, {EOS})
        if end is not None:
            return end
        checked = len(seen)
    return None


def windowed(
    tokens: list[int], budget: int, stop: tuple[str, ...], block: int, decode: Decode = decode
) -> tuple[Generation, int] | None:
    """The rule as both decoders apply it: one ``RowText`` for the row's life, its tokens
    growing, each look given the text of the newest tokens only."""
    return windowed_with_look(tokens, budget, stop, block, decode)[0]


def windowed_with_look(
    tokens: list[int], budget: int, stop: tuple[str, ...], block: int, decode: Decode = decode
) -> tuple[tuple[Generation, int] | None, int]:
    """``windowed``'s result and how many tokens had been made at the look that ended it."""
    checked, seen = 0, []
    text = RowText(seen, decode)
    for made in range(block, len(tokens) + block, block):
        seen += tokens[len(seen) : made]
        recent = decode(recent_tokens(seen, checked, budget, stop, {EOS}))
        end = row_end(text, checked, budget, stop, {EOS}, recent)
        if end is not None:
            return end, len(seen)
        checked = len(seen)
    return None, len(seen)


@pytest.mark.parametrize("block", [1, 3, 8])
def test_stop_strings_the_windows_miss_end_the_row_at_their_token(block):
    """Long runs of tokens without text between a stop string's parts, and a decoder that
    drops a window's leading space: the windows often miss, and the row still ends where a
    look at the whole text after every token ends it."""
    rng = random.Random(100 + block)
    missed = 0
    for _ in range(300):
        tokens = []
        while len(tokens) < 90:
            tokens += [rng.choice([1, 2, 7, 9])] + [10] * rng.choice([0, 0, 5, 30])
        tokens.append(EOS)  # every row ends
        stop = rng.choice([("s no",), ("e no", "é\n"), ("yes yes",)])
        expected = stepwise(tokens, 200, stop, sentencepiece_like)
        end, looked = windowed_with_look(tokens, 200, stop, block, sentencepiece_like)
        assert end == expected, (tokens, stop)
        missed += looked >= expected[1] + block  # a look after the stop's token went on
    assert missed >= 10  # rows whose stop string the windows missed


@pytest.mark.parametrize("looks", [blockwise, windowed])
@pytest.mark.parametrize("block", [1, 2, 3, 8, 64])
@pytest.mark.parametrize("decoder", [decode, sentencepiece_like])
def test_a_block_ends_a_row_where_each_token_would_have(looks, block, decoder):
    rng = random.Random(block)
    checked = 0
    for _ in range(400):
        length = rng.randint(1, 60)
        tokens = [rng.choice([1, 2, 3, 4, 5, 7, 8, 9] * 3 + [10] * 12 + [EOS, 6]) for _ in range(length)]
        budget = rng.randint(1, 60)
        stop = rng.choice([STOPS, (), ("maybe",), ("", "Q:"), ("s no", "é\n")])
        expected = stepwise(tokens, budget, stop, decoder)
        if expected is None and len(tokens) < budget:
            continue  # runs on: both agree only that nothing ended yet
        assert looks(tokens, budget, stop, block, decoder) == expected, (tokens, budget, stop)
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


def test_a_look_whose_newest_text_holds_no_stop_string_decodes_nothing_more():
    calls = []

    def counting(tokens):
        calls.append(len(tokens))
        return decode(tokens)

    tokens = [1, 2, 9, 1]
    assert row_end(RowText(tokens, counting), 0, 50, STOPS, {EOS}, recent=decode(tokens)) is None
    assert calls == []  # the caller's window text was enough


def test_stop_strings_are_looked_for_only_before_the_first_end_token():
    assert text_end([1, 2, EOS, 3, 3], 0, 10, {EOS}) == 2
    assert text_end([1, 2, 3], 0, 2, {EOS}) == 2


def test_a_stop_string_only_the_whole_text_shows_ends_the_row_at_its_token():
    """ " yes", 20 tokens of no text, " no": the window of the last look starts after " yes"
    and, decoded alone, loses its leading space; "s no" is only in the whole text. The row
    runs on, and where it ends the whole text puts the end at the token that completed it."""
    tokens = [1] + [10] * 20 + [2] + [9] * 10 + [EOS]
    stop = ("s no",)
    text = RowText([], sentencepiece_like)
    for checked in range(len(tokens)):
        text.tokens = tokens[: checked + 1]
        window = recent_tokens(text.tokens, checked, 100, stop, {EOS})
        end = row_end(text, checked, 100, stop, {EOS}, sentencepiece_like(window))
        if end is not None:
            break
    assert checked == len(tokens) - 1  # missed by the windows, found at the end token
    assert end == (Generation("ye", 22, "stop"), 22) == stepwise(tokens, 100, stop, sentencepiece_like)


def test_a_long_row_decodes_about_as_many_tokens_as_it_has():
    """A 2,000-token row looked at every 8 tokens: the windows and the final text decode a
    few times its length, where decoding the whole text at every look would take ~125 times."""
    decoded = []

    def counting(tokens: list[int]) -> str:
        decoded.append(len(tokens))
        return decode(tokens)

    tokens = [9] * 1999 + [EOS]
    end = windowed(tokens, 4000, STOPS, 8, counting)
    assert end == (Generation(" maybe" * 1999, 1999, "stop"), 2000)
    assert sum(decoded) < 5 * len(tokens)
    assert sum(range(8, 2000, 8)) > 100 * len(tokens)  # what whole texts at every look would cost


def test_the_first_stop_is_found_by_bisection_over_whole_texts():
    decoded = []

    def counting(tokens: list[int]) -> str:
        decoded.append(len(tokens))
        return decode(tokens)

    tokens = [9] * 500 + [6] + [9] * 11
    generation, used = row_end(RowText(tokens, counting), 0, 1000, STOPS, {EOS})
    assert (generation, used) == (Generation(" maybe" * 500, 501, "stop"), 501)
    assert len(decoded) <= 12  # log2(512) looks and the text, not 501


def test_a_row_ended_by_a_stop_string_searches_only_its_last_block():
    """The windows saw nothing until the stop string came: the whole text of the tokens
    looked at before is decoded once, and the search spans the last block's 8 tokens."""
    decoded = []

    def counting(tokens: list[int]) -> str:
        decoded.append(len(tokens))
        return decode(tokens)

    tokens = [9] * 500 + [6] + [9] * 11
    assert windowed(tokens, 1000, STOPS, 8, counting) == (Generation(" maybe" * 500, 501, "stop"), 501)
    whole = [n for n in decoded if n > 50]  # the windows decode at most 8 + 4 * 4 + 4 tokens
    assert len(whole) <= 5 and sum(whole) < 5 * 512
