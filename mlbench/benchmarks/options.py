"""A benchmark's own options: a small frozen dataclass per benchmark (its Task's
``options_type``), filled from ``-T key=value`` strings or a run file's TOML values.

Each field carries its help text (``option(default, help)``, shown by ``mlbench tasks
NAME``), and its annotation says how a value is read: str, int, float, bool, Path,
``X | None``, ``Literal[...]`` (one of the choices), ``tuple[str, ...]`` and
``tuple[float, ...]`` (comma-separated on the command line, a list in TOML). A bad key
or value is one MlbenchError line naming the task, the key and what it takes; checks
that span fields or ranges live in the dataclass's ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from mlbench.errors import MlbenchError

if TYPE_CHECKING:
    from mlbench.benchmarks.base import Task, TaskOptions

T = TypeVar("T")
TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
NONE = ("", "none")  # what ``X | None`` reads as None from the command line


def option(default: Any, help: str) -> Any:
    """A field of a task's options dataclass, with the help `mlbench tasks NAME` shows."""
    return dataclasses.field(default=default, metadata={"help": help})


def own_options(options: TaskOptions, kind: type[T]) -> T:
    """The task's own options in ``options`` (their defaults when none were given)."""
    own = options.own
    if own is None:
        return kind()
    if not isinstance(own, kind):  # a caller's mistake, not a user's: no MlbenchError
        raise TypeError(f"expected {kind.__name__} in TaskOptions.own, got {type(own).__name__}")
    return own


def check_choices(options: object, task: str) -> None:
    """Each ``Literal`` field of ``options`` holds one of its choices (for options built in
    Python, which skip ``parse_value``); call it from the dataclass's ``__post_init__``."""
    hints = typing.get_type_hints(type(options))
    for item in dataclasses.fields(options):  # type: ignore[arg-type]
        hint, value = hints[item.name], getattr(options, item.name)
        if typing.get_origin(hint) is Literal and value not in typing.get_args(hint):
            choices = ", ".join(map(str, typing.get_args(hint)))
            raise MlbenchError(f"{task}: {item.name} {value!r} is not one of {choices}")


def with_own(options: TaskOptions, task: Task, own: object | None) -> TaskOptions:
    """``options`` holding ``task``'s own options: ``own`` when given; else ``options.own``
    when it is of the task's type (a one-task run built in Python); else None, which the
    task reads as its defaults."""
    if own is None and task.options_type is not None and isinstance(options.own, task.options_type):
        own = options.own
    return dataclasses.replace(options, own=own)


def key_name(raw: str) -> str:
    """Keys use underscores; dashes are accepted too (``-T nli-model=...``)."""
    return raw.strip().replace("-", "_")


def option_names(kind: type | None) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind)) if kind is not None else ()


@dataclass(frozen=True)
class OptionSetting:
    """One task option as given: ``-T key=value``, a run file's table, or a deprecated flag."""

    key: str
    value: object  # a str from the command line; str, int, float, bool or a list from TOML
    origin: str = ""  # what error lines call it: the flag or file table it came from ("": -T KEY)
    task: str | None = None  # None: every task of the run that takes ``key``
    # A key no task of the run takes is an error; the deprecated flags were ignored by the
    # tasks that did not read them, and still are.
    strict: bool = True


def settings_from_pairs(pairs: Sequence[str]) -> list[OptionSetting]:
    """``-T KEY=VALUE`` strings (repeatable) → settings, in the order given."""
    settings = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key_name(key).isidentifier():
            raise MlbenchError(f"-T must look like KEY=VALUE (e.g. -T refusal=patterns), not {pair!r}")
        settings.append(OptionSetting(key_name(key), value.strip()))
    return settings


def build_own_options(tasks: Sequence[Task], settings: Sequence[OptionSetting]) -> dict[str, Any]:
    """Each task's own options (task name → its ``options_type``), the later of two
    settings of one key winning. Every setting must be taken by some task of the run."""
    declared = {task.name: option_names(task.options_type) for task in tasks}
    for setting in settings:
        key = key_name(setting.key)
        if setting.task is not None:
            if setting.task in declared and key not in declared[setting.task]:
                raise MlbenchError(_unknown(setting, key, {setting.task: declared[setting.task]}))
        elif setting.strict and not any(key in names for names in declared.values()):
            raise MlbenchError(_unknown(setting, key, declared))
    own: dict[str, Any] = {}
    for task in tasks:
        kind = task.options_type
        if kind is None:
            continue
        hints = typing.get_type_hints(kind)
        values = {}
        for setting in settings:
            key = key_name(setting.key)
            if setting.task in (None, task.name) and key in hints:
                values[key] = parse_value(f"{task.name}: {_where(setting, key)}", hints[key], setting.value)
        own[task.name] = kind(**values)
    return own


def _where(setting: OptionSetting, key: str) -> str:
    return setting.origin or f"-T {key}"


def _unknown(setting: OptionSetting, key: str, declared: dict[str, tuple[str, ...]]) -> str:
    where = _where(setting, key)
    if len(declared) == 1:
        ((name, names),) = declared.items()
        if not names:
            return f"{name} takes no options ({where})"
        return f"{name} has no option {key!r} ({where}); valid: {', '.join(names)}"
    takes = "; ".join(f"{name} takes {', '.join(names) or 'no options'}" for name, names in declared.items())
    return f"{where}: no task of this run takes it; {takes}"


def parse_value(where: str, hint: Any, value: object) -> Any:
    """``value`` (command-line text or a TOML value) as the type ``hint`` names; ``where``
    begins the error line (``msqad: -T refusal``)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [arg for arg in args if arg is not type(None)]
        if isinstance(value, str) and value.strip().lower() in NONE:
            return None
        return parse_value(where, inner[0] if len(inner) == 1 else typing.Union[tuple(inner)], value)
    if origin is Literal:
        text = value.strip() if isinstance(value, str) else value
        if text not in args:
            raise MlbenchError(f"{where}: {value!r} is not one of {', '.join(map(str, args))}")
        return text
    if origin is tuple:
        items = [part.strip() for part in value.split(",") if part.strip()] if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            raise MlbenchError(f"{where}: expected a list, not {value!r}")
        return tuple(parse_value(where, args[0], item) for item in items)
    if hint is bool:
        return _boolean(where, value)
    if hint is int:
        return _integer(where, value)
    if hint is float:
        return _number(where, value)
    if hint is str or hint is Path:
        if not isinstance(value, str):
            raise MlbenchError(f"{where}: expected text, not {value!r}")
        return Path(value.strip()).expanduser() if hint is Path else value.strip()
    raise TypeError(f"{where}: options of type {hint!r} are not supported")


def _boolean(where: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise MlbenchError(f"{where}: {value!r} is not true or false")


def _integer(where: str, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise MlbenchError(f"{where}: {value!r} is not a whole number")


def _number(where: str, value: object) -> float:
    if isinstance(value, bool):
        raise MlbenchError(f"{where}: {value!r} is not a number")
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise MlbenchError(f"{where}: {value!r} is not a number") from None
    if not math.isfinite(number):
        raise MlbenchError(f"{where}: {value} must be a finite number")
    return number


@dataclass(frozen=True)
class OptionInfo:
    """One option as `mlbench tasks NAME` lists it."""

    name: str
    type: str
    default: str
    help: str


def describe_options(kind: type | None) -> list[OptionInfo]:
    if kind is None:
        return []
    hints = typing.get_type_hints(kind)
    return [
        OptionInfo(f.name, type_text(hints[f.name]), default_text(f.default), f.metadata.get("help", ""))
        for f in dataclasses.fields(kind)
    ]


def type_text(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(arg) for arg in args if arg is not type(None))
    if origin is Literal:
        return "|".join(map(str, args))
    if origin is tuple:
        return f"list of {type_text(args[0])}"
    names = {bool: "bool", int: "int", float: "number", str: "text", Path: "file"}
    return names.get(hint, getattr(hint, "__name__", str(hint)))


def default_text(value: object) -> str:
    if value is None or value == ():
        return "-"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
