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
import typing
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from mlbench.errors import MlbenchError, clipped, closest, did_you_mean
from mlbench.records.options import (  # noqa: F401  (re-exported: a benchmark's options are declared with them)
    OptionInfo,
    OptionSetting,
    check_value,
    choices_of,
    describe_options,
    key_name,
    option,
    option_names,
    parse_value,
    settings_from_pairs,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from mlbench.benchmarks.base import Task, TaskOptions

T = TypeVar("T")


def own_options(options: TaskOptions, kind: type[T]) -> T:
    """The task's own options in ``options`` (their defaults when none were given)."""
    own = options.own
    if own is None:
        return kind()
    if not isinstance(own, kind):  # a caller's mistake, not a user's: no MlbenchError
        raise TypeError(f"expected {kind.__name__} in TaskOptions.own, got {type(own).__name__}")
    return own


def check_choices(options: DataclassInstance, task: str) -> None:
    """Each field of ``options`` with a fixed set of values (a ``Literal``, an Enum, an
    explicit ``choices``; each item of a list) holds one of them, for options from the
    command line, a run file or Python alike; call it from the dataclass's ``__post_init__``."""
    hints = typing.get_type_hints(type(options))
    for item in dataclasses.fields(options):
        # check_value compares the text of each value, so Literal[1, 2, 3] holds 2.
        check_value(f"{task}: {item.name}", getattr(options, item.name), choices_of(hints[item.name], item), " ")


def with_own(options: TaskOptions, task: Task, own: object | None) -> TaskOptions:
    """``options`` holding ``task``'s own options: ``own`` when given; else ``options.own``
    when it is of the task's type (a one-task run built in Python); else None, which the
    task reads as its defaults."""
    if own is None and task.options_type is not None and isinstance(options.own, task.options_type):
        own = options.own
    return dataclasses.replace(options, own=own)


def build_own_options(tasks: Sequence[Task], settings: Sequence[OptionSetting]) -> dict[str, object]:
    """Each task's own options (task name → its ``options_type``), the later of two
    settings of one key winning. Every setting must be taken by some task of the run."""
    declared = {task.name: option_names(task.options_type) for task in tasks}
    for setting in settings:
        key = key_name(setting.key)
        if setting.task is not None:
            if setting.task in declared and key not in declared[setting.task]:
                raise MlbenchError(_unknown(setting, key, {setting.task: declared[setting.task]}))
        elif not any(key in names for names in declared.values()):
            raise MlbenchError(_unknown(setting, key, declared))
    own: dict[str, object] = {}  # task name → its options dataclass
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
    return setting.origin or f"-T {clipped(key, 60)}"


def _unknown(setting: OptionSetting, key: str, declared: dict[str, tuple[str, ...]]) -> str:
    hint = _hint(key, declared)
    key = clipped(key, 60)
    where = _where(setting, key) + (f"; {hint}" if hint else "")
    if len(declared) == 1:
        ((name, names),) = declared.items()
        if not names:
            return f"{name} takes no options ({where})"
        return f"{name} has no option {key!r} ({where}); valid: {', '.join(names)}"
    takes = "; ".join(f"{name} takes {', '.join(names) or 'no options'}" for name, names in declared.items())
    return f"{_where(setting, key)}: no task of this run takes it{f' ({hint})' if hint else ''}; {takes}"


def _hint(key: str, declared: dict[str, tuple[str, ...]]) -> str:
    """The did-you-mean ("" when nothing is near) of an unknown -T key: one of the tasks' keys, or the flag of a setting
    every task reads (``-T fewshot=3`` is ``--fewshot 3``)."""
    from mlbench.benchmarks.base import TaskOptions

    flags = {f.name: f"--{f.name.replace('_', '-')}" for f in dataclasses.fields(TaskOptions)}
    flags = {name: flag for name, flag in flags.items() if name not in ("source", "own")}
    known = [name for names in declared.values() for name in names]
    match = closest(key, [*known, *flags])
    if match in flags and match not in known:
        return f"did you mean {flags[match]}, a flag of run?"
    return did_you_mean(key, known).strip(" ()")
