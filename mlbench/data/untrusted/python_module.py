"""An author's Python file parsed, not run: its top-level functions, and the ones whose name
the module binds to something else.

``python_source`` evaluates a function from its body. That is what Python gives only when
the name still means that body once the module has run: a decorator (``@cache``, or one
that swaps the function), a later ``p0 = p0_v2``, a second ``def p0``, an import under
the name, or a module that writes its own globals all give Python another function. Such
a name is not read (``Refused``: the file changed shape), never rendered from the bare
body.

Parsing is bounded: the file's size (``MAX_CODE_BYTES``), the parser's own failures on
deep nesting (``MemoryError``, ``RecursionError``), and the depth of the tree the
interpreter will walk (``MAX_CODE_DEPTH``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache

from mlbench.errors import MlbenchError
from mlbench.records.budgets import MAX_CODE_BYTES, MAX_CODE_DEPTH, BudgetError

_DEF = re.compile(r"(?:async\s+)?def\s+(\w+)")
# Calls that may rewrite a module's names where no assignment shows it (anywhere in the
# file: a function that makes one may be called at import, as a decorator is).
_REWRITES_NAMES = frozenset({"globals", "locals", "vars", "setattr", "delattr", "exec", "eval", "__import__"})


class UpstreamShapeError(MlbenchError):
    """An upstream file whose function is not the shape mlbench reads."""


@dataclass(frozen=True)
class Refused:
    """A function of the file that Python would not give as its body, and why (a phrase
    after its name). ``node``: the body all the same, where it parses, for the readers
    that take a text out of it without calling it (a decorated ``get_response`` still
    holds the prompt it sends)."""

    reason: str
    node: ast.FunctionDef | None = None
    over_budget: bool = False  # past a parsing limit, not a shape: a BudgetError


def parse(text: str, label: str) -> ast.Module:
    """``text`` parsed, with every failure one line naming ``label``."""
    _check_size(text, label)
    tree = _parsed(text)
    if isinstance(tree, Refused):
        raise BudgetError(f"{label}: {tree.reason}") if tree.over_budget else _shape(label, tree.reason)
    return tree


@cache
def functions(text: str, label: str) -> dict[str, ast.FunctionDef | Refused]:
    """Each top-level function by name. The whole file parsed: each as Python binds it. A
    file that does not parse as a module (Python could not import it either) still gives
    each function that parses on its own, decorated ones refused."""
    _check_size(text, label)
    tree = _parsed(text)
    return _bound_functions(tree) if isinstance(tree, ast.Module) else _functions_alone(text)


def _check_size(text: str, label: str) -> None:
    if len(text) > MAX_CODE_BYTES:
        raise BudgetError(f"{label}: {len(text):,} characters of Python, over mlbench's {MAX_CODE_BYTES:,}")


def _shape(label: str, reason: str) -> UpstreamShapeError:
    return UpstreamShapeError(f"{label}: {reason}")


def _parse_checked(text: str, first_line: int = 0) -> ast.Module | Refused:
    """``text`` parsed, or why not; ``first_line``: the lines of the file before it."""
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        return Refused(f"does not parse ({error.msg}, line {(error.lineno or 0) + first_line})")
    except (MemoryError, RecursionError) as error:
        # CPython's parser gives these on a file nested past what it can hold.
        return Refused(f"nests too deep for the Python parser ({type(error).__name__})", over_budget=True)
    except ValueError as error:  # a null byte, and the like
        return Refused(f"does not parse ({error})")
    if _depth(tree) > MAX_CODE_DEPTH:
        reason = f"nests over {MAX_CODE_DEPTH} deep, more than mlbench reads of a prompt function"
        return Refused(reason, over_budget=True)
    return tree


_parsed = cache(_parse_checked)  # a whole file, parsed once per process


def _depth(tree: ast.AST) -> int:
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_CODE_DEPTH:
            break
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _bound_functions(tree: ast.Module) -> dict[str, ast.FunctionDef | Refused]:
    bindings: dict[str, list[int]] = {}
    rewrites: int | None = None
    for statement in tree.body:
        for node in _run_on_import(statement):
            for name in _names_bound(node):
                bindings.setdefault(name, []).append(getattr(node, "lineno", statement.lineno))
            if rewrites is None and _rewrites_names(node):
                rewrites = getattr(node, "lineno", statement.lineno)
    # A function's body may rebind a module name when something calls it (a decorator
    # does, at import): `global p0`, or globals() and the like anywhere in the file.
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            for name in node.names:
                bindings.setdefault(name, []).append(node.lineno)
        elif rewrites is None and _reaches_names(node):
            rewrites = getattr(node, "lineno", 0)
    found: dict[str, ast.FunctionDef | Refused] = {}
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef):
            continue
        name, lines = statement.name, bindings[statement.name]
        if statement.decorator_list:
            found[name] = Refused(f"is decorated at line {statement.decorator_list[0].lineno}", statement)
        elif len(lines) > 1:
            again = next(line for line in lines if line != statement.lineno)
            found[name] = Refused(f"is bound again at module level, line {again}", statement)
        elif rewrites is not None:
            found[name] = Refused(f"is in a module that rewrites names at import, line {rewrites}", statement)
        else:
            found[name] = statement
    for name, lines in bindings.items():  # `p1 = lambda doc: ...`, an import: a name, not a def
        found.setdefault(name, Refused(f"is not a def: the module binds the name at line {lines[0]}"))
    return found


def _run_on_import(statement: ast.stmt) -> list[ast.AST]:
    """The nodes of a top-level statement that run when the module is imported: all of it
    but the bodies of functions (their decorators, defaults and annotations do run, and a
    class's body; a lambda's body is taken as run, since a decorator may be one), and an
    ``if __name__ == "__main__":`` block."""
    if _is_main_block(statement):
        return list(_outside_main(statement))
    found: list[ast.AST] = []
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            stack += [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
            stack += [*node.decorator_list, *(a.annotation for a in _all_args(arguments) if a.annotation)]
            stack += [node.returns] if node.returns else []
            continue
        if isinstance(node, ast.comprehension):  # its loop variable is the comprehension's own
            stack += [node.iter, *node.ifs]
        elif isinstance(node, ast.AnnAssign) and node.value is None:  # `p0: object` binds nothing
            stack.append(node.annotation)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def _is_main_block(statement: ast.stmt) -> bool:
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _outside_main(statement: ast.stmt) -> list[ast.AST]:
    """An ``if __name__ == "__main__":``'s test and its else branch: the body does not run
    on import."""
    assert isinstance(statement, ast.If)
    return [statement, statement.test, *(n for s in statement.orelse for n in _run_on_import(s))]


def _all_args(arguments: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def _names_bound(node: ast.AST) -> list[str]:
    """The names ``node`` itself binds where it runs on import (a node of _run_on_import)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
        return [node.id]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _rewrites_names(node: ast.AST) -> bool:
    """Whether ``node``, run on import, may bind a module's names where no assignment
    shows it: an attribute written (of what may be the module), or ``import *``."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
        return True
    return isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)


def _reaches_names(node: ast.AST) -> bool:
    """Whether ``node``, anywhere in the file, reaches the module's names: a call of
    globals(), setattr() or the like, or the module's ``__dict__`` or ``sys.modules``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in _REWRITES_NAMES
    return isinstance(node, ast.Attribute) and node.attr in ("__dict__", "modules")


def _functions_alone(text: str) -> dict[str, ast.FunctionDef | Refused]:
    """Each top-level function parsed on its own: from its ``def`` line to the next line
    that starts at the margin with something other than a comment (one pass over the
    lines; each function's text parsed once, its line numbers moved to the file's)."""
    lines = text.splitlines(keepends=True)
    found: dict[str, ast.FunctionDef | Refused] = {}
    last_code = ""  # the last line at the margin before this one that is not a comment
    for start, line in enumerate(lines):
        match = _DEF.match(line)
        if match is None:
            if _ends_function(line):
                last_code = line
            continue
        end = start + 1
        while end < len(lines) and not _ends_function(lines[end]):
            end += 1
        parsed = _parsed_alone("".join(lines[start:end]), start)
        node = parsed.body[0] if isinstance(parsed, ast.Module) and parsed.body else None
        if isinstance(parsed, Refused):
            found[match.group(1)] = parsed
        elif isinstance(node, ast.FunctionDef):
            decorated = last_code.startswith("@")
            found[node.name] = Refused(f"is decorated at line {start}", node) if decorated else node
        last_code = line
    return found


def _parsed_alone(text: str, first_line: int) -> ast.Module | Refused:
    """``_parsed`` of one function's text (not cached: a file's functions are read once
    through ``functions``), its line numbers those of the file."""
    parsed = _parse_checked(text, first_line)
    if isinstance(parsed, ast.Module):
        ast.increment_lineno(parsed, first_line)
    return parsed


def _ends_function(line: str) -> bool:
    return bool(line.strip()) and not line[0].isspace() and not line.startswith("#")
