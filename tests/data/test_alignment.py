"""TruthfulQA's row of a question (``tqa_index``): read from the data's id at an offset,
and refused where it is no row, so that no question is paired with another's."""

from __future__ import annotations

import pytest

from mlbench.data.alignment import TRUTHFULQA_ROWS, check_rows_once, realign, tqa_index
from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord


@pytest.mark.parametrize(
    ("value", "offset", "row"),
    [(1, -1, "0"), (817, -1, "816"), ("0", 0, "0"), (" 816 ", 0, "816"), (12, 0, "12"), ("05", 0, "5")],
)
def test_the_row_is_the_id_at_its_offset(value, offset, row):
    assert tqa_index(value, offset, "here") == row


@pytest.mark.parametrize(
    ("value", "offset", "said"),
    [
        (0, -1, "0 - 1 = -1 is no TruthfulQA row (rows 0-816, the value plus its offset)"),
        (818, -1, "818 - 1 = 817 is no TruthfulQA row"),
        (817, 0, "817 is no TruthfulQA row"),
        (True, 0, "cannot be read from bool True"),
        (3.0, 0, "cannot be read from float 3.0"),
        (None, 0, "cannot be read from NoneType"),
        ("q12", 0, "cannot be read from 'q12' (a whole number)"),
        ("-3", 0, "cannot be read from '-3'"),
        ("٣", 0, "cannot be read from '٣'"),  # a digit to str.isdigit, not to int() everywhere
        ("9" * 5000, 0, "cannot be read from '" + "9" * 40 + "'"),  # cut, and never turned into a number
    ],
)
def test_what_is_no_row_is_one_line_naming_the_row(value, offset, said):
    with pytest.raises(MlbenchError) as caught:
        tqa_index(value, offset, "de validation row 3")
    assert str(caught.value).startswith("de validation row 3: ") and said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_truthfulqa_has_817_rows():
    assert TRUTHFULQA_ROWS == 817


def test_a_row_named_by_two_questions_is_refused_naming_both_and_the_row():
    check_rows_once([("1", "0"), ("2", "1"), ("1@p1", "5")], "x de")  # distinct rows pass
    with pytest.raises(MlbenchError) as caught:
        check_rows_once([("q1", "4"), ("q2", "7"), ("q9", "4")], "mine de")
    assert str(caught.value) == (
        "mine de: questions 'q1' and 'q9' both name TruthfulQA row 4 (tqa_index); "
        "a row is one question, so fix the data or its [align] rule"
    )
    with pytest.raises(MlbenchError) as caught:  # an id from a file is shown cut short, escaped
        check_rows_once([("a" * 5000, "1"), ("b\x1b[2J", "1")], "mine de")
    assert len(str(caught.value)) < 300 and "\x1b" not in str(caught.value)


def _record(sample_id: str, **labels: str) -> SampleRecord:
    return SampleRecord(id=sample_id, metrics={"mc1": 1.0}, labels=labels)


def test_saved_samples_take_the_rows_the_data_gives_now():
    saved = {"q1": _record("q1", category="Law", tqa_index="1"), "q2": _record("q2", tqa_index="2"),
             "q3": _record("q3"), "q4": _record("q4", tqa_index="9")}  # fmt: skip
    derived = {"q1": {"tqa_index": "0"}, "q2": {"tqa_index": "2"}, "q3": {"tqa_index": "3"}, "q4": {}, "q5": {}}
    done = realign(saved, derived)
    assert (done.moved, done.labelled, done.example) == (2, 1, "'q1': row 1, now 0")
    assert saved["q1"].labels == {"category": "Law", "tqa_index": "0"}  # other labels kept
    assert [saved[i].labels.get("tqa_index") for i in ("q2", "q3", "q4")] == ["2", "3", None]
    assert all(r.metrics == {"mc1": 1.0} for r in saved.values())
    assert not realign(saved, derived)  # done once: nothing more to say
    assert done.line("t de").startswith("t de: 2 saved sample(s) named other TruthfulQA rows than the data now gives")


def test_saved_samples_take_the_scope_of_their_row_once_the_map_is_read():
    """A run saved before the universal/local map was at hand resumes with each question's
    scope; its rows and scores are kept, and the note says what changed."""
    saved = {"1": _record("1", tqa_index="0"), "2": _record("2", tqa_index="1", scope="local")}
    derived = {"1": {"tqa_index": "0", "scope": "universal"}, "2": {"tqa_index": "1", "scope": "local"}}
    done = realign(saved, derived)
    assert (done.scoped, done.moved, done.labelled) == (1, 0, 0)
    assert saved["1"].labels == {"tqa_index": "0", "scope": "universal"} and saved["1"].metrics == {"mc1": 1.0}
    assert done.line("t ca") == (
        "t ca: 1 saved sample(s) given the scope (universal/local) of their row; "
        "their scores kept (a question's row is not part of its prompt)"
    )
    assert not realign(saved, derived)
