"""The "did you mean" every line about an unknown name carries (mlbench.errors)."""

from __future__ import annotations

import pytest

from mlbench.errors import (
    LINE_CHARS,
    TERMINAL_CHARS,
    clipped,
    closest,
    did_you_mean,
    one_line,
    terminal_line,
    terminal_text,
)

TASKS = ("calmqa", "m_truthfulqa", "msqad", "truthfulqa_multi", "truthfulqa_multi_mt", "veritasqa", "xlinghealth")


@pytest.mark.parametrize(
    ("given", "known", "expected"),
    [
        ("truthfulqa_mult", TASKS, "truthfulqa_multi"),
        ("TruthfulQA_Multi", TASKS, "truthfulqa_multi"),  # case ignored
        ("MSQAD", TASKS, "msqad"),
        ("veritas", TASKS, "veritasqa"),
        ("mcc", ("mc", "gen"), "mc"),
        ("fewshoot", ("answer_format",), None),  # nothing near
        ("x", (), None),
    ],
)
def test_closest_is_the_one_nearest_name_or_none(given, known, expected):
    assert closest(given, known) == expected


def test_did_you_mean_is_a_hint_or_nothing():
    assert did_you_mean("jsno", ("md", "json")) == " (did you mean json?)"
    assert did_you_mean("MC", ("mc", "gen")) == " (did you mean mc?)"
    assert did_you_mean("zzz", ("md", "json")) == ""
    assert did_you_mean("json", ("md", "json")) == ""  # nothing to correct


# Text from a file or a flag as the terminal shows it: a screen clear,
# a window title, an 8-bit CSI, a bell, a line break and a right-to-left override.
HOSTILE = "a\x1b[2Jb\x1b]0;title\x07c\x9bd\ne\u202ef"


def test_one_line_makes_every_control_character_visible():
    assert one_line(HOSTILE) == "a\\x1b[2Jb\\x1b]0;title\\x07c\\x9bd\\ne\\u202ef"
    assert one_line("plain, ünïcode and \\n as written") == "plain, ünïcode and \\n as written"


def test_terminal_text_is_one_line_whole_when_short():
    assert terminal_text(HOSTILE) == one_line(HOSTILE)
    assert terminal_text("x" * TERMINAL_CHARS) == "x" * TERMINAL_CHARS


def test_terminal_text_cuts_a_long_text_to_its_bound_with_its_length():
    shown = terminal_text("\x1b[2J" + "x" * 5000)
    assert shown.startswith("\\x1b[2Jxxx") and shown.endswith("x… (5,004 characters)")
    assert len(shown) == TERMINAL_CHARS + len(" (5,004 characters)")
    assert terminal_text("x" * 100, 10) == "xxxxxxxxx… (100 characters)"


def test_terminal_text_never_splits_an_escape_and_counts_escapes_in_its_bound():
    shown = terminal_text("ab" + "\x1b" * 10, 10)  # each escape 4 characters: ab\x1b and no room for a second
    assert shown == "ab\\x1b… (12 characters)"
    assert len(terminal_text("\x1b" * 1000, 100)) <= 100 + len(" (1,000 characters)")


def test_a_huge_text_is_cut_in_bounded_time():
    huge = "\x1b" * 10_000_000
    assert terminal_text(huge).endswith("… (10,000,000 characters)")


def test_terminal_line_is_one_line_and_past_its_bound_keeps_start_and_end():
    assert terminal_line("a\n  b\x1b[2J") == "a b\\x1b[2J"
    line = terminal_line("--metric " + "x" * 5000 + ": no run has it; metrics: mc1, mc2")
    assert line.startswith("--metric xxx") and line.endswith("; metrics: mc1, mc2")
    assert "characters left out" in line and len(line) <= LINE_CHARS + len("… (9,999 characters left out) …")


def test_an_echoed_value_and_a_suggestion_are_clipped():
    assert clipped("\x1b[2J" + "y" * 200).startswith("\\x1b[2Jy") and len(clipped("y" * 200)) < 100
    assert did_you_mean("mc1\x1b[2K", ["mc1\x1b[2J"]) == " (did you mean mc1\\x1b[2J?)"


def test_a_whole_line_collapses_only_spaces_and_line_breaks_and_shows_other_separators():
    # Python's str.split() takes \x1c-\x1f, \x85 and U+2028 for white space: they are shown, not dropped.
    assert terminal_line("a\n  b\tc\r\nd") == "a b c d"
    assert terminal_line("x\x1cy\x85z\u2028w") == "x\\x1cy\\x85z\\u2028w"
