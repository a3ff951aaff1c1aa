"""A Jinja prompt template (lm-eval's ``doc_to_text``) rendered in a sandbox with a budget.

Jinja's sandbox keeps a template from reaching Python's internals, but not from asking
for endless work: two nested ``range(100000)`` loops, ``'x ' * 5000000``, a format width
of ten million. Here a rendering stops, with one line naming the file, when

- the rendering has taken ``MAX_TEMPLATE_STEPS`` steps (the template's own lines, and
  the Python calls of the filters it uses: counted by a trace hook set for the rendering
  alone), or ``MAX_TEMPLATE_SECONDS``,
- what it has written passes ``MAX_PROMPT_CHARS``, or
- one operation would build a text or list past that size before building it: ``*`` on
  texts and lists, ``**``, ``%`` and ``format`` widths, and the ``center``, ``indent``,
  ``replace`` and ``join`` that grow a text by a number or a list the template chose.

Otherwise it renders as lm-eval's ``apply_template`` does: undefined names are an error
and a final newline is kept.
"""

from __future__ import annotations

import operator
import re
import string
import sys
import time
from collections.abc import Callable
from functools import cache
from types import FrameType
from typing import Any

from mlbench.data.untrusted.python_values import text_size
from mlbench.errors import MlbenchError
from mlbench.records.budgets import (
    MAX_LIST_ITEMS,
    MAX_PROMPT_CHARS,
    MAX_TEMPLATE_SECONDS,
    MAX_TEMPLATE_STEPS,
    BudgetError,
)
from mlbench.records.jsontypes import JsonObject

_TEMPLATE_FILE = "<template>"  # the file name Jinja compiles a template from a string under
_PERCENT_WIDTH = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def render_jinja(template: str, doc: JsonObject, label: str) -> str:
    """``template`` rendered with ``doc``'s columns; ``label`` names the file in errors."""
    compiled = _compiled(template, label)
    steps = _StepCounter(label)
    written = 0
    pieces: list[str] = []
    previous = sys.gettrace()
    sys.settrace(steps.on_call)
    try:
        for piece in compiled.generate(**doc):
            written += len(piece)
            if written > MAX_PROMPT_CHARS:
                raise BudgetError(f"{label}: doc_to_text writes over {MAX_PROMPT_CHARS:,} characters")
            pieces.append(piece)
    except BudgetError as error:  # one raised inside the rendering names no file yet
        raise error if str(error).startswith(label) else BudgetError(f"{label}: {error}") from None
    except Exception as error:  # noqa: BLE001 - the template is data: whatever it raises is one line
        raise _failed(label, error) from None
    finally:
        sys.settrace(previous)
    return "".join(pieces)


def _failed(label: str, error: Exception) -> MlbenchError:
    if isinstance(error, RecursionError | MemoryError):
        return BudgetError(f"{label}: doc_to_text needs more than mlbench gives a template ({type(error).__name__})")
    said = " ".join(str(error).split())  # one line, whatever the template's error holds
    return MlbenchError(f"{label}: doc_to_text cannot be rendered ({type(error).__name__}: {said[:200]})")


class _StepCounter:
    """Counts a rendering's steps: each line of the template's own code (its loops, however
    bare) and each Python call anywhere below it (a filter's work: a ``map``, a
    ``wordwrap``), without tracing the lines of code that is not the template's, which
    would cost each prompt ten times its time. Past the budget, or past
    ``MAX_TEMPLATE_SECONDS``, the next step raises."""

    def __init__(self, label: str) -> None:
        self.label, self.steps = label, 0
        self.deadline = time.monotonic() + MAX_TEMPLATE_SECONDS

    def on_call(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        self.step()
        return self.on_line if frame.f_code.co_filename == _TEMPLATE_FILE else None

    def on_line(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        if event == "line":
            self.step()
        return self.on_line

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_TEMPLATE_STEPS:
            raise BudgetError(f"{self.label}: doc_to_text runs over {MAX_TEMPLATE_STEPS:,} steps")
        if not self.steps % 4096 and time.monotonic() > self.deadline:
            raise BudgetError(f"{self.label}: doc_to_text runs over {MAX_TEMPLATE_SECONDS} seconds")


@cache
def _compiled(template: str, label: str) -> Any:  # noqa: ANN401 - jinja2.Template, imported lazily
    environment = _environment()
    try:
        compiled = environment.from_string(template)
    except Exception as error:  # noqa: BLE001 - a template that does not compile is data too
        raise _failed(label, error) from None
    # `a ~ b` compiles to a call of jinja2.runtime's str_join, bound in the template's own
    # namespace, which no sandbox hook sees: the one there is replaced by one that
    # measures first (a `{% set a = a ~ a %}` forty times would double past any memory).
    namespace = compiled.root_render_func.__globals__
    namespace["str_join"] = _measured_join(namespace["str_join"])
    return compiled


def _measured_join(join: Callable[[Any], str]) -> Callable[[Any], str]:
    def measured(pieces: Any) -> str:  # noqa: ANN401 - what the template concatenates
        texts = [piece if isinstance(piece, str) else str(piece) for piece in pieces]
        if sum(map(len, texts)) > MAX_PROMPT_CHARS:
            raise _too_big("concatenates a text past the limit")
        return join(texts)

    return measured


@cache
def _environment() -> Any:  # noqa: ANN401 - a jinja2 Environment, imported lazily
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class _Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%", "+"})

        def call_binop(self, context: Any, name: str, left: Any, right: Any) -> Any:  # noqa: ANN401
            _check_binop(name, left, right)
            return {"*": operator.mul, "**": operator.pow, "%": operator.mod, "+": operator.add}[name](left, right)

        def call(self, context: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
            owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", "")
            if isinstance(owner, str):
                _check_text_method(owner, name, args, kwargs)
            return super().call(context, obj, *args, **kwargs)

        def wrap_str_format(self, value: Any) -> Any:  # noqa: ANN401
            # The sandbox wraps str.format and format_map when they are looked up, so the
            # call never reaches call() as a method of the text: the widths are read here.
            text = getattr(value, "__self__", None)
            if isinstance(text, str) and getattr(value, "__name__", "") in ("format", "format_map"):
                _check_text_method(text, "format", (), {})
            return super().wrap_str_format(value)

    environment = _Bounded(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    for name in ("center", "indent", "replace", "join", "format", "tojson"):
        environment.filters[name] = _checked_filter(name, environment.filters[name])
    return environment


def _too_big(what: str) -> BudgetError:
    # Raised inside the rendering, which names the file when it ends (render_jinja).
    return BudgetError(f"doc_to_text {what} (mlbench's limit on a prompt: {MAX_PROMPT_CHARS:,} characters)")


def _check_binop(name: str, left: object, right: object) -> None:
    if name == "*":
        for sized, times in ((left, right), (right, left)):
            if isinstance(sized, str | list | tuple) and isinstance(times, int):
                # A list is measured as its text: a list of long lists repeated is large.
                size = len(sized) if isinstance(sized, str) else text_size(sized)
                items = 0 if isinstance(sized, str) else len(sized) * times
                if size * times > MAX_PROMPT_CHARS or items > MAX_LIST_ITEMS:
                    raise _too_big("repeats a text or list past the limit")
    elif name == "+" and isinstance(left, str | list) and isinstance(right, str | list):
        if text_size(left) + text_size(right) > MAX_PROMPT_CHARS:
            raise _too_big("adds texts or lists past the limit")
    elif name == "**" and isinstance(left, int) and isinstance(right, int):
        if abs(left) > 1 and right * max(abs(left).bit_length(), 1) > 64 * 1024:
            raise _too_big("raises a number to a power of more digits than a prompt holds")
    elif name == "%" and isinstance(left, str):
        _check_widths_percent(left)


def _check_widths_percent(text: str) -> None:
    for match in _PERCENT_WIDTH.finditer(text):
        for width in match.groups():
            if width == "*" or (width and int(width) > MAX_PROMPT_CHARS):
                raise _too_big("formats with a width too large")


# Any: the arguments a template passed, whatever their types.
def _check_text_method(text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if name in ("format", "format_map"):
        for _, _, spec, _ in string.Formatter().parse(text):
            if spec and ("{" in spec or any(int(n) > MAX_PROMPT_CHARS for n in re.findall(r"\d+", spec))):
                raise _too_big("formats with a width too large, or given as a field")
    elif name in ("center", "ljust", "rjust", "zfill", "expandtabs"):
        width = args[0] if args else kwargs.get("width", kwargs.get("tabsize", 0))
        if isinstance(width, int) and (width > MAX_PROMPT_CHARS or width * text.count("\t") > MAX_PROMPT_CHARS):
            raise _too_big(f"pads a text with {name} too wide")
    elif name == "translate" and args and isinstance(args[0], dict):
        longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        if longest * len(text) > MAX_PROMPT_CHARS:
            raise _too_big("translates into a text too long")
    elif name == "replace" and len(args) >= 2:
        _check_replace(text, args[0], args[1])
    elif name == "join" and args:
        _check_join(text, args[0])


def _check_replace(text: str, old: object, new: object) -> None:
    if isinstance(old, str) and isinstance(new, str):
        count = text.count(old) if old else len(text) + 1
        if len(text) + count * len(new) > MAX_PROMPT_CHARS:
            raise _too_big("replaces into a text too long")


def _check_join(separator: str, items: object) -> None:
    if isinstance(items, list | tuple):
        total = len(separator) * len(items) + sum(len(i) if isinstance(i, str) else 0 for i in items)
        if len(items) > MAX_LIST_ITEMS or total > MAX_PROMPT_CHARS:
            raise _too_big("joins a text too long")


def _checked_filter(name: str, jinja_filter: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's filter ``name`` with the size it would build checked first."""
    # A filter that asks for the eval context or environment gets it before the value.
    pass_arg = getattr(jinja_filter, "jinja_pass_arg", None)  # set by jinja2.pass_context and its kin
    passes_context = pass_arg is not None

    def checked(*given: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        value, *args = given[1:] if passes_context else given
        width = args[0] if args else kwargs.get("width", 0)
        if name == "center" and isinstance(width, int) and width > MAX_PROMPT_CHARS:
            raise _too_big("pads a text with center too wide")
        if name == "tojson" and isinstance(args[0] if args else kwargs.get("indent"), int):
            if (args[0] if args else kwargs["indent"]) > 100:  # more than any prompt indents
                raise _too_big("indents JSON too wide")
        if name == "indent" and isinstance(value, str):
            width = args[0] if args else kwargs.get("width", 4)
            if isinstance(width, int) and width * (value.count("\n") + 1) > MAX_PROMPT_CHARS:
                raise _too_big("indents a text too wide")
        if name == "replace" and isinstance(value, str) and len(args) >= 2:
            _check_replace(value, args[0], args[1])
        if name == "join":  # a map or a generator is taken whole to be measured first
            value = value if isinstance(value, list | tuple | str) else list(value)
            attribute = kwargs.get("attribute", args[1] if len(args) > 1 else None)
            if attribute is None and not isinstance(value, str):
                _check_join(args[0] if args and isinstance(args[0], str) else "", value)
            given = (*given[:1], value, *given[2:]) if passes_context else (value, *given[1:])
        if name == "format" and isinstance(value, str):
            _check_widths_percent(value)
        return jinja_filter(*given, **kwargs)

    if passes_context:
        checked.__dict__["jinja_pass_arg"] = pass_arg  # the marker as those decorators set it
    return checked
