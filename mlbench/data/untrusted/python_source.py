"""Strings read out of a benchmark author's Python code, without importing or running it.

Some benchmarks publish their prompts only as Python: functions that pick an f-string by
language (XLingHealth's ``prompt_consistency``), or that return chat messages
(MSQAD's ``get_ko_A_messages``). mlbench reads them like data: the file is parsed with
``ast`` and the one function asked for is *evaluated*, on the arguments given, by a small
interpreter that knows only what such functions are made of: assignments, ``if``/``elif``
on comparisons, returns, string constants and f-strings, ``+`` on strings, lists, dicts,
subscripts, and the few string calls of ``python_calls`` (``format``, ``join``, ``map``
with a lambda). Nothing is imported and no function of the file is run, so a file that does
not compile as a module still gives its functions that do (each top-level function is
parsed alone).

Anything else in the function (a loop, a call, a name it does not define) means the file
is no longer the one mlbench was written against: one line says which file, which function
and what was found (``UpstreamShapeError``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from operator import contains
from pathlib import Path
from typing import cast

from mlbench.data.untrusted.python_calls import Lambda, call_value
from mlbench.data.untrusted.python_module import Refused, UpstreamShapeError, functions, parse
from mlbench.data.untrusted.python_values import text_size
from mlbench.errors import MlbenchError
from mlbench.records.budgets import (
    MAX_EVALUATION_DEPTH,
    MAX_LIST_ITEMS,
    MAX_NESTING,
    MAX_PROMPT_CHARS,
    MAX_TEMPLATE_STEPS,
    BudgetError,
    shown,
)

Value = object  # what an upstream expression evaluates to: str, bool, list, dict, None


@dataclass(frozen=True)
class UpstreamCode:
    """One upstream Python file: where it is (``path``), how to name it in messages
    (``label``: the repository path, with the commit it is pinned to), and its ``text`` as
    read once (the bytes whose sha256 was checked are the ones parsed; read from ``path``
    when not given)."""

    path: Path
    label: str
    text: str = ""

    def __post_init__(self) -> None:
        if not self.text:
            try:
                object.__setattr__(self, "text", self.path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as error:
                raise UpstreamShapeError(f"{self.label}: cannot be read as UTF-8 text ({error})") from None

    def function(self, name: str, *, called: bool = False) -> ast.FunctionDef:
        """Top-level function ``name``, or a function defined inside one (``outer.inner``).
        ``called``: it is to be evaluated as a call, so its body must be what Python
        binds to the name (not decorated, not bound again)."""
        outer, *inner = name.split(".")
        found = functions(self.text, self.label).get(outer)
        if found is None:
            raise UpstreamShapeError(f"{self.label}: no function {outer}() (the file changed shape)")
        if isinstance(found, Refused):
            if found.over_budget:
                raise BudgetError(f"{self.label}: {outer}() {found.reason}")
            # Called, it must be the body Python binds to the name; a function nested in
            # it (``outer.inner``) is its own body, however the module binds the outer.
            if found.node is None or (called and not inner):
                raise UpstreamShapeError(f"{self.label}: {outer}() {found.reason} (the file changed shape)")
            found = found.node
        for part in inner:
            nested = [n for n in ast.walk(found) if isinstance(n, ast.FunctionDef) and n.name == part]
            if len(nested) != 1:
                raise UpstreamShapeError(f"{self.label}: no function {name}() (the file changed shape)")
            found = nested[0]
        return found

    def assigned(self, name: str, variable: str, **scope: Value) -> Value:
        """The value function ``name`` assigns to ``variable`` in its own body (not in a
        branch), evaluated with ``scope`` and what the body assigned before it."""
        function = self.function(name)
        known = dict(scope)
        interpreter = _Interpreter(self, name)
        for statement in function.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = interpreter.name_of(statement.targets[0])
                if target == variable:
                    return interpreter.expression(statement.value, known)
                try:
                    known[target] = interpreter.expression(statement.value, known)
                except MlbenchError:
                    continue  # what needs the arguments is not needed here
        raise UpstreamShapeError(f"{self.label}: {name}() assigns no {variable} (the file changed shape)")

    def keyword(self, name: str, method: str, keyword: str, **scope: Value) -> Value:
        """The value passed as ``keyword=`` to the one call of ``method`` in function
        ``name`` (``model.batch_inference(instruction=f"...")``), evaluated with ``scope``
        (dotted names such as ``args.target_language`` are looked up whole)."""
        function = self.function(name)
        calls = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Call)
            and (getattr(n.func, "attr", None) == method or getattr(n.func, "id", None) == method)
        ]
        values = [k.value for call in calls for k in call.keywords if k.arg == keyword]
        if len(values) != 1:
            raise UpstreamShapeError(
                f"{self.label}: {name}() calls {method}(..., {keyword}=...) {len(values)} times, not once "
                "(the file changed shape)"
            )
        return _Interpreter(self, name).expression(values[0], dict(scope))

    def value_of(self, name: str, node: ast.expr, **scope: Value) -> Value:
        """The value of expression ``node`` of function ``name`` (found by a reader that walks
        the function itself), evaluated with ``scope`` (dotted names looked up whole)."""
        return _Interpreter(self, name).expression(node, dict(scope))

    def call(self, name: str, **arguments: Value) -> Value:
        """What ``name(**arguments)`` returns, by evaluating its body."""
        function = self.function(name, called=True)
        scope = _bind(self, function, arguments)
        returned = _Interpreter(self, name).run(function.body, scope)
        if returned is _NOTHING:
            raise UpstreamShapeError(f"{self.label}: {name}() returned nothing for {_shown(arguments)}")
        return returned

    def dicts(self, name: str, key: str, value: str, **scope: Value) -> list[dict[str, Value]]:
        """Every dict literal in function ``name`` whose ``key`` is the string ``value``
        (a chat message with ``'role': 'system'``, say), evaluated with the names of
        ``scope``, in the order they appear."""
        function = self.function(name)
        nodes = [n for n in ast.walk(function) if isinstance(n, ast.Dict) and _has_item(n, key, value)]
        nodes.sort(key=lambda n: (n.lineno, n.col_offset))  # in the order of the text
        found = []
        for node in nodes:
            evaluated = _Interpreter(self, name).expression(node, dict(scope))
            assert isinstance(evaluated, dict)
            found.append(evaluated)
        return found

    def list_items(self, name: str, target: str) -> list[Value]:
        """The items of the list literal iterated by ``for target in [...]`` in ``name``
        (the temperatures an author's script loops over)."""
        function = self.function(name) if name != "<module>" else None
        nodes = ast.walk(function) if function is not None else ast.walk(parse(self.text, self.label))
        for node in nodes:
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == target:
                if isinstance(node.iter, (ast.List, ast.Tuple)):
                    return [_Interpreter(self, name).expression(item, {}) for item in node.iter.elts]
        raise UpstreamShapeError(
            f"{self.label}: no loop over a list into {target!r} in {name} (the file changed shape)"
        )


_NOTHING = object()


def _has_item(node: ast.Dict, key: str, value: str) -> bool:
    return any(
        isinstance(k, ast.Constant) and k.value == key and isinstance(v, ast.Constant) and v.value == value
        for k, v in zip(node.keys, node.values)
    )


def dotted_name(node: ast.expr) -> str | None:
    """``args.target_language`` as one name (None: not a plain dotted name)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _shown(arguments: dict[str, Value]) -> str:
    return ", ".join(f"{k}={shown(v)}" for k, v in arguments.items())


def _bind(code: UpstreamCode, function: ast.FunctionDef, arguments: dict[str, Value]) -> dict[str, Value]:
    """The function's parameters bound to ``arguments`` (defaults for the rest)."""
    parameters = [a.arg for a in function.args.args]
    unknown = [name for name in arguments if name not in parameters]
    if unknown:
        raise UpstreamShapeError(
            f"{code.label}: {function.name}() takes {', '.join(parameters)}, not {', '.join(unknown)} "
            "(the file changed shape)"
        )
    defaults = dict(zip(parameters[len(parameters) - len(function.args.defaults) :], function.args.defaults))
    scope: dict[str, Value] = {}
    for name in parameters:
        if name in arguments:
            scope[name] = arguments[name]
        elif name in defaults:
            scope[name] = _Interpreter(code, function.name).expression(defaults[name], {})
        else:
            raise UpstreamShapeError(f"{code.label}: {function.name}() needs {name} (the file changed shape)")
    return scope


class _Interpreter:
    """Evaluates the statements and expressions a prompt function is made of."""

    def __init__(self, code: UpstreamCode, function: str) -> None:
        self.code, self.function = code, function
        # Expressions evaluated, and how deep they nest now (a lambda calling itself, or
        # mapping over what maps): both bounded, so no reading runs long or recurses out.
        self.steps = self.depth = 0

    def unsupported(self, node: ast.AST) -> UpstreamShapeError:
        what = type(node).__name__
        return UpstreamShapeError(
            f"{self.code.label}: {self.function}() has {what} at line {getattr(node, 'lineno', '?')}, "
            "which mlbench does not read (the file changed shape)"
        )

    def run(self, body: list[ast.stmt], scope: dict[str, Value]) -> Value:
        for statement in body:
            if isinstance(statement, ast.Return):
                return None if statement.value is None else self.expression(statement.value, scope)
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                scope[self.name_of(statement.targets[0])] = self.expression(statement.value, scope)
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add):
                name = self.name_of(statement.target)
                scope[name] = self.add(scope.get(name, _NOTHING), self.expression(statement.value, scope), statement)
            elif isinstance(statement, ast.If):
                chosen = statement.body if self.expression(statement.test, scope) else statement.orelse
                returned = self.run(chosen, scope)
                if returned is not _NOTHING:
                    return returned
            elif isinstance(statement, ast.Raise):
                raise MlbenchError(
                    f"{self.code.label}: {self.function}() has no text for {_shown(scope)} (it raises there)"
                )
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                continue  # a docstring
            elif not isinstance(statement, ast.Pass):
                raise self.unsupported(statement)
        return _NOTHING

    def name_of(self, target: ast.expr) -> str:
        if not isinstance(target, ast.Name):
            raise self.unsupported(target)
        return target.id

    def add(self, left: Value, right: Value, node: ast.AST) -> Value:
        """``left + right`` on two texts or two lists, its size checked before it is built."""
        if isinstance(left, str) and isinstance(right, str):
            return self.joined([left, right], node)
        if isinstance(left, list) and isinstance(right, list):
            if len(left) + len(right) > MAX_LIST_ITEMS:
                raise self.too_big(node, f"builds a list of over {MAX_LIST_ITEMS:,} items")
            return self.bounded(left + right, node)
        raise self.unsupported(node)

    def joined(self, pieces: list[str], node: ast.AST) -> str:
        if sum(len(piece) for piece in pieces) > MAX_PROMPT_CHARS:
            raise self.too_big(node, f"builds a text of over {MAX_PROMPT_CHARS:,} characters")
        return "".join(pieces)

    def bounded(self, value: Value, node: ast.AST) -> Value:
        """``value`` (a list or dict just built), if its text fits a prompt and it nests
        within the budget: what it holds can then be written out."""
        if text_size(value) > MAX_PROMPT_CHARS:
            limits = f"{MAX_PROMPT_CHARS:,} characters or nesting past {MAX_NESTING}"
            raise self.too_big(node, f"builds a value whose text passes a prompt's limits ({limits})")
        return value

    def too_big(self, node: ast.AST, what: str) -> BudgetError:
        return BudgetError(f"{self.code.label}: {self.function}() {what} (line {getattr(node, 'lineno', '?')})")

    def expression(self, node: ast.expr, scope: dict[str, Value]) -> Value:
        self.steps += 1
        if self.steps > MAX_TEMPLATE_STEPS:
            raise self.too_big(node, f"evaluates over {MAX_TEMPLATE_STEPS:,} expressions")
        if self.depth >= MAX_EVALUATION_DEPTH:
            raise self.too_big(node, f"nests its evaluation over {MAX_EVALUATION_DEPTH} deep")
        self.depth += 1
        try:
            return self.evaluated(node, scope)
        finally:
            self.depth -= 1

    def evaluated(self, node: ast.expr, scope: dict[str, Value]) -> Value:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in scope:
                raise UpstreamShapeError(
                    f"{self.code.label}: {self.function}() reads {node.id!r} at line {node.lineno}, "
                    "which it does not define (the file changed shape)"
                )
            return scope[node.id]
        if isinstance(node, ast.Attribute) and (dotted := dotted_name(node)) is not None and dotted in scope:
            return scope[dotted]
        if isinstance(node, ast.JoinedStr):
            return self.joined([self.piece(part, scope) for part in node.values], node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.add(self.expression(node.left, scope), self.expression(node.right, scope), node)
        if isinstance(node, ast.IfExp):
            branch = node.body if self.expression(node.test, scope) else node.orelse
            return self.expression(branch, scope)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return self.compare(node, scope)
        if isinstance(node, ast.BoolOp):  # Python's: the operand that decides, not a bool
            value: Value = None
            for operand in node.values:
                value = self.expression(operand, scope)
                if bool(value) != isinstance(node.op, ast.And):
                    return value
            return value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.expression(node.operand, scope)
        if isinstance(node, (ast.List, ast.Tuple)):
            return self.bounded([self.expression(item, scope) for item in node.elts], node)
        if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
            items = [(k, v) for k, v in zip(node.keys, node.values) if k is not None]  # each one: checked above
            try:
                built = {self.expression(k, scope): self.expression(v, scope) for k, v in items}
            except TypeError:  # a key Python cannot hash (a list)
                raise self.unsupported(node) from None
            return self.bounded(built, node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, scope)
        if isinstance(node, ast.Lambda):
            return Lambda(node, dict(scope))
        if isinstance(node, ast.Call):
            return call_value(self, node, scope)
        raise self.unsupported(node)

    def piece(self, part: ast.expr, scope: dict[str, Value]) -> str:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            return part.value
        if isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
            value = self.expression(part.value, scope)
            if isinstance(value, Lambda):  # Python writes <function <lambda> at 0x...>: no prompt holds that
                raise self.unsupported(part)
            try:
                return str(value)
            except ValueError:  # an int past Python's 4,300 digits
                raise self.too_big(part, "writes a number past the digits Python writes") from None
        raise self.unsupported(part)

    def compare(self, node: ast.Compare, scope: dict[str, Value]) -> bool:
        left, right = self.expression(node.left, scope), self.expression(node.comparators[0], scope)
        operator = node.ops[0]
        if isinstance(operator, ast.Eq):
            return left == right
        if isinstance(operator, ast.NotEq):
            return left != right
        if isinstance(operator, (ast.In, ast.NotIn)) and isinstance(right, (str, list, dict)):
            try:
                inside = contains(right, left)  # ``left in right``
            except TypeError:
                raise self.unsupported(node) from None
            return inside if isinstance(operator, ast.In) else not inside
        raise self.unsupported(node)

    def subscript(self, node: ast.Subscript, scope: dict[str, Value]) -> Value:
        container, key = self.expression(node.value, scope), self.expression(node.slice, scope)
        try:
            # cast: Python's own indexing checks the container; its TypeError is caught below.
            return cast("dict[object, Value]", container)[key]
        except (KeyError, IndexError, TypeError):
            raise MlbenchError(
                f"{self.code.label}: {self.function}() has no entry {shown(key)} at line {node.lineno}"
            ) from None
