"""Typed ``key=value`` options: a small frozen dataclass whose fields carry their help
(``option(default, help)``) and whose annotations say how a value is read: str, int, float,
bool, Path, ``X | None``, ``Literal[...]`` or an Enum (one of the choices), ``tuple[str, ...]``
and ``tuple[float, ...]`` (comma-separated on the command line, a list in TOML). A field whose
values come from a fixed set that is not a type (MSQAD's topics) names it:
``option(default, help, choices=NAMES)``; ``choices_of`` finds the set either way, for the
listing and for ``check_value``.

A benchmark's own options (``-T``) and the judge's (``-J``) are declared this way; a
backend's (``-M``) are pydantic fields (``backends/options.py``), whose annotations are read
the same way. ``parse_value`` reads a value, ``describe_options`` lists either kind
(``mlbench tasks NAME``, ``mlbench backends NAME``). A bad value is one MlbenchError line
naming where it came from, the key and what it takes.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records.budgets import listing

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
NONE = ("", "none")  # what ``X | None`` reads as None from the command line
# The largest seed every consumer takes: numpy's (and vLLM's, which seeds numpy) is an
# unsigned 32-bit number, and default_rng refuses a negative one.
SEED_MAX = 2**32 - 1
# A whole number as a user types one: ASCII digits, a sign first where allowed. int() also
# reads other scripts' digits (١٢), full-width ones (１２) and underscores (1_000), and
# str.isdigit() is true of a superscript (²) that int() then refuses with a ValueError:
# neither is a test of what a user meant.
_SIGNED = re.compile(r"[+-]?[0-9]+")
_UNSIGNED = re.compile(r"[0-9]+")
# A number float() reads: the same digits, a point, an exponent; inf and nan are words
# it reads too (refused later as not finite).
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)", re.IGNORECASE)


def option(default: Any, help: str, choices: Sequence[str] | None = None, shown: str | None = None) -> Any:
    """A field of an options dataclass, with the help `mlbench tasks NAME` (or `backends NAME`)
    shows; ``choices``: the values it accepts (each item, for a list), when a fixed set;
    ``shown``: what its default means where the value itself (None, empty) does not say it:
    ``all``, ``required``, ``OPENAI_API_KEY``. The listing shows it as the default, so that
    the help need not (and cannot contradict it)."""
    metadata: dict[str, object] = {"help": help}
    if choices is not None:
        metadata["choices"] = tuple(choices)
    if shown is not None:
        metadata["shown"] = shown
    return dataclasses.field(default=default, metadata=metadata)


def choices_of(hint: Any, item: dataclasses.Field | None = None) -> tuple[str, ...]:
    """The values an option of type ``hint`` (its field ``item``) accepts, each item of a
    list: an explicit ``choices``, a ``Literal``'s values or an Enum's; () when any value."""
    if item is not None and "choices" in item.metadata:
        return tuple(item.metadata["choices"])
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return tuple(map(str, args))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return tuple(str(member.value) for member in hint)
    if origin in (typing.Union, types.UnionType, tuple):
        inner = [arg for arg in args if arg not in (type(None), Ellipsis)]
        return choices_of(inner[0]) if len(inner) == 1 else ()
    return ()


def check_value(where: str, value: object, choices: Sequence[str], sep: str = ": ") -> None:
    """``value`` (or each item of a list) is one of ``choices``, compared as text (so
    ``Literal[1, 2]`` holds 2 and "2"); else one line, ``where`` + ``sep`` first, naming
    them with the closest as a suggestion."""
    items = value if isinstance(value, list | tuple) else () if value is None else (value,)
    for item in items:
        text = str(item.value) if isinstance(item, enum.Enum) else str(item)
        if choices and text not in choices:
            shown = clipped(repr(text))
            raise MlbenchError(f"{where}{sep}{shown} is not one of {listing(choices)}{did_you_mean(text, choices)}")


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
    given: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key_name(key).replace(".", "_").isidentifier():
            example = f"{flag} {EXAMPLES[flag]}"
            raise MlbenchError(f"{flag} must look like KEY=VALUE (e.g. {example}), not {clipped(repr(pair))}")
        name = key_name(key)
        if name in given:  # as a run file refuses a key given twice: the later one must not win unseen
            both = f"{clipped(repr(given[name]), 40)}, then {clipped(repr(value.strip()), 40)}"
            raise MlbenchError(f"{flag} {name} is given twice ({both}): give it once")
        given[name] = value.strip()
        settings.append(OptionSetting(name, value.strip()))
    return settings


EXAMPLES = {"-T": "refusal=patterns", "-M": "batch_size=16", "-J": "kind=truth,info"}


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
        # By text: ``-T level=2`` is the 2 of ``Literal[1, 2, 3]``.
        by_text = {str(arg): arg for arg in args}
        text = str(value).strip()
        if text not in by_text:
            names = tuple(by_text)
            raise MlbenchError(
                f"{where}: {clipped(repr(value))} is not one of {', '.join(names)}{did_you_mean(text, names)}"
            )
        return by_text[text]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        by_value = {str(member.value): member for member in hint}
        check_value(where, str(value).strip(), tuple(by_value))
        return by_value[str(value).strip()]
    if origin is tuple:
        items = [part.strip() for part in value.split(",") if part.strip()] if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            raise MlbenchError(f"{where}: expected a list, not {clipped(repr(value))}")
        return tuple(parse_value(where, args[0], item) for item in items)
    if hint is bool:
        return _boolean(where, value)
    if hint is int:
        return _integer(where, value)
    if hint is float:
        return _number(where, value)
    if hint is str or hint is Path:
        if not isinstance(value, str):
            raise MlbenchError(f"{where}: expected text, not {clipped(repr(value))}")
        return Path(value.strip()).expanduser() if hint is Path else value.strip()
    raise TypeError(f"{where}: options of type {hint!r} are not supported")


def _boolean(where: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise MlbenchError(f"{where}: {clipped(repr(value))} is not true or false")


def whole_number(text: str, signed: bool = True) -> int | None:
    """``text`` (spaces around it aside) as an int when it is the ASCII digits 0-9, a sign
    first if ``signed``; else None, as for a number too long for int() to read (4,300
    digits), so that every caller words its own line and none sees a ValueError."""
    text = text.strip()
    if not (_SIGNED if signed else _UNSIGNED).fullmatch(text):
        return None
    try:
        return int(text)
    except ValueError:  # past sys.get_int_max_str_digits()
        return None


def decimal_number(text: str) -> float | None:
    """``text`` (spaces around it aside) as a float when it is written with the ASCII
    digits 0-9 (a sign, a point, an exponent; inf and nan, which callers refuse as they
    need); else None: float() too reads ١٢ and 1_0.5."""
    text = text.strip()
    return float(text) if _DECIMAL.fullmatch(text) else None


def digits_hint(text: str) -> str:
    """What to add to "is not a number" when ``text`` holds digits of another kind (²,
    ١٢, １): the line says which digits a number is written in."""
    return " (write it with the digits 0-9)" if any(ch.isnumeric() and not ch.isascii() for ch in text) else ""


def _integer(where: str, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        number = whole_number(value)
        if number is not None:
            return number
    hint = digits_hint(value) if isinstance(value, str) else ""
    raise MlbenchError(f"{where}: {clipped(repr(value))} is not a whole number{hint}")


def _number(where: str, value: object) -> float:
    if isinstance(value, str):
        number = decimal_number(value)
        if number is None:
            raise MlbenchError(f"{where}: {clipped(repr(value))} is not a number{digits_hint(value)}")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        raise MlbenchError(f"{where}: {clipped(repr(value))} is not a number")
    if not math.isfinite(number):
        raise MlbenchError(f"{where}: {clipped(str(value))} must be a finite number")
    return number


@dataclass(frozen=True)
class OptionInfo:
    """One option as `mlbench tasks NAME` lists it."""

    name: str
    type: str
    default: str
    help: str
    choices: tuple[str, ...] = ()  # what it accepts (each item, for a list); (): any value of its type
    value: object = None  # the default as JSON: None, a bool, a number, text or a list


def describe_options(kind: type | None) -> list[OptionInfo]:
    """The options of an options dataclass, or of a backend's declaration (a pydantic model:
    ``backends/options.py``), as the listings show them."""
    if kind is None:
        return []
    declared = getattr(kind, "model_fields", None)
    if declared is not None:
        return [_declared_info(name, item) for name, item in declared.items() if _extra(item).get("listed", True)]
    hints = typing.get_type_hints(kind)
    return [
        OptionInfo(
            f.name,
            type_text(hints[f.name]),
            f.metadata.get("shown", default_text(f.default)),
            f.metadata.get("help", ""),
            choices_of(hints[f.name], f),
            default_json(f.default),
        )  # fmt: skip
        for f in dataclasses.fields(kind)
    ]


def _extra(item: Any) -> dict[str, object]:  # Any: a pydantic FieldInfo (pydantic is backends/' own)
    extra = item.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _declared_info(name: str, item: Any) -> OptionInfo:  # Any: as above
    """A pydantic field as listed: typed as a user writes it (``reads``), its default as
    ``shown`` where the value does not say what it means."""
    extra = _extra(item)
    hint = str if extra.get("reads") == "text" else item.annotation
    shown, value = str(extra.get("shown", default_text(item.default))), default_json(item.default)
    return OptionInfo(name, type_text(hint), shown, item.description or "", choices_of(hint), value)


def default_json(value: object) -> object:
    """A default as a JSON value: a list for a tuple, text for a path or an Enum member."""
    if isinstance(value, tuple | list):
        return [default_json(item) for item in value]
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def type_text(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(arg) for arg in args if arg is not type(None))
    if origin is Literal:
        return "|".join(map(str, args))
    if origin is tuple:
        return f"list of {type_text(args[0])}"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "|".join(choices_of(hint))
    names = {bool: "bool", int: "int", float: "number", str: "text", Path: "file"}
    return names.get(hint, getattr(hint, "__name__", str(hint)))


def default_text(value: object) -> str:
    if value is None or value == ():
        return "-"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)
