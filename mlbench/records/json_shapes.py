"""Narrowing a JSON value that mlbench itself wrote (a sample's outputs, a run's settings)
to the type its writer gives it.

A value of another type means a file edited by hand or written by another tool, not a
dataset's row (those get their loader's own message): it is refused in one line naming
what was expected, as every bad input is, never a traceback.
"""

from __future__ import annotations

from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject, JsonValue


class SavedShapeError(MlbenchError, TypeError):
    """A saved value of the wrong JSON type (a TypeError too: it is one)."""

    def __init__(self, what: str, value: JsonValue, expected: str) -> None:
        super().__init__(f"{what} is {json_kind(value)}, not {expected} (a file edited since mlbench wrote it?)")


def json_kind(value: JsonValue) -> str:
    """What ``value`` is, in JSON's words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "a list" if isinstance(value, list) else "an object"


def json_object(value: JsonValue, what: str) -> JsonObject:
    if not isinstance(value, dict):
        raise SavedShapeError(what, value, "an object")
    return value


def json_list(value: JsonValue, what: str) -> list[JsonValue]:
    if not isinstance(value, list):
        raise SavedShapeError(what, value, "a list")
    return value


def json_objects(value: JsonValue, what: str) -> list[JsonObject]:
    """A list of objects: ``what`` names the list."""
    return [json_object(item, f"an item of {what}") for item in json_list(value, what)]


def json_text(value: JsonValue, what: str) -> str:
    if not isinstance(value, str):
        raise SavedShapeError(what, value, "a string")
    return value


def json_number(value: JsonValue, what: str) -> float:
    """An int or a float (a bool too, which Python counts as an int)."""
    if not isinstance(value, (int, float)):
        raise SavedShapeError(what, value, "a number")
    return value
