"""Typed ``key=value`` options: a small frozen dataclass whose fields carry their help
(``option(default, help)``) and whose annotations say how a value is read: str, int, float,
bool, Path, ``X | None``, ``Literal[...]`` (one of the choices), ``tuple[str, ...]`` and
``tuple[float, ...]`` (comma-separated on the command line, a list in TOML).

A benchmark's own options (``-T``) and a backend's (``-M``, and the judge's ``-J``) are
declared this way, read by ``parse_value`` and listed by ``describe_options`` (``mlbench
tasks NAME``, ``mlbench backends NAME``). A bad value is one MlbenchError line naming where
it came from, the key and what it takes.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mlbench.errors import MlbenchError

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
NONE = ("", "none")  # what ``X | None`` reads as None from the command line
# The largest seed every consumer takes: numpy's (and vLLM's, which seeds numpy) is an
# unsigned 32-bit number, and default_rng refuses a negative one.
SEED_MAX = 2**32 - 1


def option(default: Any, help: str) -> Any:
    """A field of an options dataclass, with the help `mlbench tasks NAME` (or `backends NAME`) shows."""
    return dataclasses.field(default=default, metadata={"help": help})


def key_name(raw: str) -> str:
    """Keys use underscores; dashes are accepted too (``-T nli-model=...``)."""
    return raw.strip().replace("-", "_")


def option_names(kind: type | None) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind)) if kind is not None else ()


@dataclass(frozen=True)
class OptionSetting:
    """One option as given: ``-T key=value`` (``-M``, ``-J``) or a run file's table entry."""

    key: str
    value: object  # a str from the command line; str, int, float, bool or a list from TOML
    origin: str = ""  # what error lines call it: the file table it came from ("": the flag and KEY)
    task: str | None = None  # -T only: None, every task of the run that takes ``key``


def settings_from_pairs(pairs: Sequence[str], flag: str = "-T") -> list[OptionSetting]:
    """``KEY=VALUE`` strings of a repeatable flag (-T, -M, -J) → settings, in the order given."""
    settings = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key_name(key).replace(".", "_").isidentifier():
            raise MlbenchError(f"{flag} must look like KEY=VALUE (e.g. {flag} {EXAMPLES[flag]}), not {pair!r}")
        settings.append(OptionSetting(key_name(key), value.strip()))
    return settings


EXAMPLES = {"-T": "refusal=patterns", "-M": "max_model_len=4096", "-J": "kind=truth,info"}


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
