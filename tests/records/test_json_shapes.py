"""Saved JSON of the wrong type is one line of ours (an MlbenchError), never a traceback."""

from __future__ import annotations

import pytest

from mlbench.errors import MlbenchError
from mlbench.records.json_shapes import json_list, json_number, json_object, json_objects, json_text


def test_values_of_the_expected_type_pass_through_unchanged() -> None:
    block = {"a": 1}
    assert json_object(block, "a block") is block
    assert json_list([1, "x"], "a list") == [1, "x"]
    assert json_objects([{"k": 1}], "rows") == [{"k": 1}]
    assert json_text("yes", "an answer") == "yes"
    assert json_number(2, "a seed") == 2 and json_number(0.5, "a share") == 0.5


@pytest.mark.parametrize(
    ("read", "value", "line"),
    [
        (json_text, ["a"], "a saved answer is a list, not a string"),
        (json_object, "x", "a saved answer is a string, not an object"),
        (json_list, {"a": 1}, "a saved answer is an object, not a list"),
        (json_number, "3", "a saved answer is a string, not a number"),
        (json_objects, [1], "an item of a saved answer is a number, not an object"),
        (json_text, None, "a saved answer is null, not a string"),
        (json_number, True, None),
    ],
)
def test_a_value_of_another_type_is_refused_in_one_line(read, value, line) -> None:
    if line is None:  # JSON's true is no number, but Python's bool is an int: taken as one
        assert read(value, "a saved answer") is True
        return
    with pytest.raises(MlbenchError) as caught:
        read(value, "a saved answer")
    assert str(caught.value).startswith(line)
    assert "\n" not in str(caught.value) and "edited" in str(caught.value)
    assert isinstance(caught.value, TypeError)  # what it is, for a caller that asks
