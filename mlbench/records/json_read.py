"""The one reader of JSON text that comes from outside mlbench's own writing: lm-eval's logs
and results files, and run files that may have been edited or planted.

``json.loads`` alone lets three things through as tracebacks: text nested so deep that the
decoder recurses past Python's limit (a line of 100,000 ``[``), values nested deep enough
to do the same to whatever walks them next, and a file too large to hold. Here each is one
``JsonInputError`` line naming the file (and line) and what was found; callers that read a
file line by line catch it to leave that line out and name it.
"""

from __future__ import annotations

import json
import math

from mlbench.errors import MlbenchError
from mlbench.records.budgets import MAX_JSON_CHARS as MAX_CHARS
from mlbench.records.budgets import MAX_JSON_DEPTH as MAX_DEPTH
from mlbench.records.jsontypes import JsonValue

NESTED = f"JSON nested deeper than mlbench reads ({MAX_DEPTH} levels)"


class JsonInputError(MlbenchError):
    """JSON text mlbench does not read: not JSON, nested too deep, or too large. ``reason``
    is what was found, for a reader that words the line its own way."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason


def parse_json(text: str, where: str, *, finite: bool = False) -> JsonValue:
    """``text`` as JSON; ``where`` (a path, or ``path:line``) begins the error line.
    ``finite``: NaN and infinite numbers are refused too (mlbench never writes them, so in
    its own files they were put there by hand)."""
    if len(text) > MAX_CHARS:
        raise JsonInputError(where, f"{len(text):,} characters of JSON, more than mlbench reads ({MAX_CHARS:,})")
    try:
        value = json.loads(text, parse_constant=_no_constant if finite else None)
    except json.JSONDecodeError as error:
        raise JsonInputError(where, f"invalid JSON ({error.msg}, line {error.lineno} column {error.colno})") from None
    except RecursionError:
        raise JsonInputError(where, NESTED) from None
    except ValueError as error:  # a number of thousands of digits, or NaN where refused
        raise JsonInputError(where, f"invalid JSON ({str(error).split(';')[0]})") from None
    problem = _problem(value, MAX_DEPTH, finite)
    if problem is not None:
        raise JsonInputError(where, problem)
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number mlbench writes")


def _problem(value: JsonValue, limit: int, finite: bool) -> str | None:
    """What is wrong with ``value``: nesting past ``limit`` or (``finite``) a number out of
    range; walked without recursion, so that the check cannot fail the way it guards against."""
    stack: list[tuple[JsonValue, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            if finite and isinstance(item, float) and not math.isfinite(item):
                return "invalid JSON (a number out of range)"
            continue
        if depth > limit:
            return NESTED
        stack.extend((child, depth + 1) for child in children)
    return None
