"""The few calls an author's prompt function may make, for ``python_source``'s interpreter.

NorEval's templates (lm-eval's ``noreval/*/utils.py``) build their option lists with
``"".join(list(map(lambda choice: f"\\n- {choice}", choices)))`` and fill a template with
``prompt.format(question=...)``. These, and nothing else, are evaluated: ``str.format``
with keyword arguments and plain ``{name}`` fields, ``str.join``, ``str.strip``,
``list(...)``, ``map(lambda, ...)`` over a list, and a one-argument ``lambda``. Any other
call is the file changing shape, which the interpreter reports.
"""

from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from typing import Protocol

from mlbench.data.untrusted.python_values import text_size
from mlbench.records.budgets import MAX_PROMPT_CHARS

Value = object


class Evaluator(Protocol):
    """What the interpreter gives this module: its expression evaluator and its error."""

    def expression(self, node: ast.expr, scope: dict[str, Value]) -> Value: ...

    def unsupported(self, node: ast.AST) -> Exception: ...

    def too_big(self, node: ast.AST, what: str) -> Exception: ...


@dataclass(frozen=True)
class Lambda:
    """A ``lambda x: ...`` and the names it closes over."""

    node: ast.Lambda
    closure: dict[str, Value]

    def apply(self, evaluator: Evaluator, argument: Value) -> Value:
        parameters = self.node.args.args
        if len(parameters) != 1 or self.node.args.defaults or self.node.args.vararg or self.node.args.kwarg:
            raise evaluator.unsupported(self.node)
        return evaluator.expression(self.node.body, {**self.closure, parameters[0].arg: argument})


def call_value(evaluator: Evaluator, node: ast.Call, scope: dict[str, Value]) -> Value:
    """The value of the call ``node`` (one of the module's list), else the interpreter's error."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise evaluator.unsupported(node)
    args = [evaluator.expression(a, scope) for a in node.args]
    keywords = {k.arg: evaluator.expression(k.value, scope) for k in node.keywords if k.arg is not None}
    function = node.func
    if isinstance(function, ast.Name) and not keywords and len(args) == 1 and function.id == "list":
        if isinstance(args[0], list):
            return list(args[0])
    if isinstance(function, ast.Name) and not keywords and len(args) == 2 and function.id == "map":
        mapped, items = args
        if isinstance(mapped, Lambda) and isinstance(items, list):
            return _mapped(evaluator, mapped, items, node)
    if isinstance(function, ast.Attribute):
        receiver = evaluator.expression(function.value, scope)
        if isinstance(receiver, str):
            try:
                value = _string_method(receiver, function.attr, args, keywords)
            except _TooLong as verb:
                raise evaluator.too_big(node, f"{verb} a text of over {MAX_PROMPT_CHARS:,} characters") from None
            if value is not None:
                return value
    raise evaluator.unsupported(node)


def _mapped(evaluator: Evaluator, mapped: Lambda, items: list[Value], node: ast.Call) -> list[Value]:
    """``map(lambda, items)`` as a list, stopped once its text passes a prompt's size."""
    results, size = [], 0
    for item in items:
        results.append(mapped.apply(evaluator, item))
        size += text_size(results[-1])
        if size > MAX_PROMPT_CHARS:
            raise evaluator.too_big(node, f"maps into a text of over {MAX_PROMPT_CHARS:,} characters")
    return results


def _string_method(text: str, method: str, args: list[Value], keywords: dict[str, Value]) -> str | None:
    """``text.method(...)`` for the methods read, or None for any other call; a text past
    a prompt's size raises ``_TooLong`` before it is built."""
    if method == "format" and not args and all(isinstance(v, str) for v in keywords.values()):
        return _format(text, {k: str(v) for k, v in keywords.items()})
    if method == "join" and not keywords and len(args) == 1 and isinstance(args[0], list):
        items = [item for item in args[0] if isinstance(item, str)]
        if len(items) == len(args[0]):
            if sum(len(item) for item in items) + len(text) * len(items) > MAX_PROMPT_CHARS:
                raise _TooLong("joins")
            return text.join(items)
    if method == "strip" and not args and not keywords:
        return text.strip()
    return None


class _TooLong(Exception):
    """A string call would build a text past ``MAX_PROMPT_CHARS``: which call (a verb)."""


def _format(template: str, values: dict[str, str]) -> str | None:
    """``template.format(**values)`` where every field is a plain name among ``values``
    (no attribute, index, conversion or format spec), else None."""
    pieces = []
    length = 0
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for literal, name, spec, conversion in parsed:
        pieces.append(literal)
        length += len(literal)
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion or name not in values:
            return None
        pieces.append(values[name])
        length += len(values[name])
        if length > MAX_PROMPT_CHARS:  # before the text is built: a template may repeat a long value
            raise _TooLong("formats")
    return "".join(pieces)
