"""Repetition (o200k_base, 20 tokens × 4), the surface block and its per-sample metrics."""

from __future__ import annotations

import pytest

from mlbench.metrics.o200k import o200k_encoding
from mlbench.metrics.surface import SURFACE_METRICS, repetition, surface_block, surface_metrics

# Twenty words that are one o200k token each (with their leading space), and fillers that
# are not among them: a unit repeated with a different filler between copies shares no
# other 20-token window.
WORDS = (
    "apple river stone cloud green table window silver garden morning yellow forest candle bridge pencil "
    "orange summer letter mirror basket"
).split()
FILLERS = "one two three four five six seven eight nine ten".split()


def unit(n_tokens: int) -> str:
    return "".join(f" {word}" for word in WORDS[:n_tokens])


def repeated(n_tokens: int, copies: int, *, separated: bool = True) -> str:
    parts = []
    for i in range(copies):
        parts.append(unit(n_tokens))
        if separated:
            parts.append(f" {FILLERS[i]}")
    return "".join(parts)


def test_the_units_have_the_token_counts_the_cases_rely_on():
    encoding = o200k_encoding()
    assert len(encoding.encode(unit(20))) == 20
    assert len(encoding.encode(unit(19))) == 19
    assert len(encoding.encode(repeated(20, 4))) == 84


@pytest.mark.parametrize(
    "n_tokens, copies, expected",
    [
        (20, 4, True),  # a 20-token run four times: flagged
        (20, 3, False),  # three times: not yet
        (19, 4, False),  # a 19-token run four times: too short to count
        (19, 3, False),
        (20, 6, True),
    ],
)
def test_repetition_boundaries(n_tokens, copies, expected):
    assert repetition(repeated(n_tokens, copies)) is expected


def test_overlapping_occurrences_count():
    # Back to back, a 20-token unit four times is 80 tokens: its windows overlap the copies.
    assert repetition(repeated(20, 4, separated=False)) is True
    # A 19-token unit back to back: every 20-token window recurs every 19 tokens, so four
    # copies (76 tokens) hold each window only three times.
    assert repetition(repeated(19, 4, separated=False)) is False
    assert repetition(repeated(19, 5, separated=False)) is True


def test_short_and_non_repeating_text():
    assert repetition("") is False
    assert repetition(unit(19)) is False
    assert repetition(" ".join(WORDS * 3)) is False  # 60 tokens: each window three times


def test_special_token_text_is_ordinary_text():
    assert repetition("<|endoftext|> " * 3) is False


def test_surface_block_of_a_wrong_language_repeating_answer():
    text = "I am sorry, I do not speak Fijian." + repeated(20, 4)
    block = surface_block(text, "fj")
    assert block["language"]["status"] == "wrong" and block["language"]["detected"] == "en"
    assert block["repetition"] is True and block["issue"] is True
    assert "apology" in block["markers"] and "language_named" in block["markers"]
    metrics = surface_metrics(block, "fj")
    assert metrics["wrong_language"] == 1.0 and metrics["repetition"] == 1.0 and metrics["surface_issue"] == 1.0
    assert metrics["marker_apology"] == 1.0 and metrics["marker_emoji"] == 0.0
    assert list(metrics) == [m for m in SURFACE_METRICS if m in metrics]


def test_a_clean_answer_has_no_issue():
    text = "Airplanes are boarded from the back so that passengers do not block the aisle for each other."
    block = surface_block(text, "en")
    assert block == {
        "language": block["language"],
        "repetition": False,
        "markers": [],
        "issue": False,
    }
    assert block["language"]["status"] == "ok"
    metrics = surface_metrics(block, "en")
    assert metrics["surface_issue"] == 0.0 and metrics["wrong_language"] == 0.0
    assert "marker_language_named" not in metrics  # not asked of English questions


def test_language_not_judged_is_no_issue_and_no_wrong_language_value():
    block = surface_block("Bula vinaka!", "fj")
    assert block["language"]["status"] == "n/a" and block["issue"] is False
    metrics = surface_metrics(block, "fj")
    assert "wrong_language" not in metrics and metrics["surface_issue"] == 0.0
    # A repeated answer in an unjudged language is still an issue.
    assert surface_block(repeated(20, 4), "bal")["issue"] is True
