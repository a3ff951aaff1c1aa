"""TruthfulQA's row of a question (``tqa_index``): read from the data's id at an offset,
and refused where it is no row, so that no question is paired with another's."""

from __future__ import annotations

import pytest

from mlbench.data.alignment import TRUTHFULQA_ROWS, tqa_index
from mlbench.errors import MlbenchError


@pytest.mark.parametrize(
    ("value", "offset", "row"),
    [(1, -1, "0"), (817, -1, "816"), ("0", 0, "0"), (" 816 ", 0, "816"), (12, 0, "12"), ("05", 0, "5")],
)
def test_the_row_is_the_id_at_its_offset(value, offset, row):
    assert tqa_index(value, offset, "here") == row


@pytest.mark.parametrize(
    ("value", "offset", "said"),
    [
        (0, -1, "0 is no TruthfulQA row (rows 0-816 after an offset of -1)"),
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
