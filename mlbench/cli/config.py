"""``mlbench run --config run.toml`` (and ``judge --config``): a run described in a file,
what cluster users script.

The file names the command's flags by their parameter name (``model``, ``task`` or
``tasks``, ``lang`` or ``langs``, ``mode``, ``limit``, ``seed``, ``output``, ``backend``,
...; dashes or underscores) and holds the ``key=value`` options in tables: ``[model]``
(-M, the backend's), ``[judge]`` (-J) and ``[options]`` (-T, every task of the run that
takes them) or ``[options.<task>]``. It is read by an eager option that fills click's
``default_map``, so that a flag given on the command line wins over the file (and a -M,
-J or -T key over the table's), and the file's values are checked like the flags' own.

    tasks = ["msqad", "xlinghealth"]
    langs = ["en", "es"]
    limit = 50

    [model]                 # or, without a table: model = "Qwen/..."
    name = "Qwen/Qwen2.5-0.5B-Instruct"
    batch_size = 16

    [options]
    embedder = "minilm"

    [options.msqad]
    refusal = "patterns"
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from mlbench.cli.options import DATA, JUDGE
from mlbench.cli.toml_errors import toml_error
from mlbench.errors import did_you_mean
from mlbench.records.options import OptionSetting, key_name

# A TOML table as tomllib reads it: JSON's values and dates.
TomlTable = dict[str, object]

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

# ctx.meta keys: the settings of the file's [options], [model] and [judge] tables.
FILE_TASKS = "mlbench.file_task_options"
FILE_MODEL = "mlbench.file_model_options"
FILE_JUDGE = "mlbench.file_judge_options"
TABLES = {"options": FILE_TASKS, "model": FILE_MODEL, "judge": FILE_JUDGE}
ALIASES = {"tasks": "task", "langs": "lang"}
# Parameters a file does not set: itself and the key=value flags (the file has tables).
NOT_IN_FILE = {"config", "task_option", "model_option", "judge_option", "help"}


def read_run_file(ctx: typer.Context, value: Optional[Path]) -> Optional[Path]:
    """Eager callback of --config: the file's run options become the command's defaults,
    its task options wait in ``ctx.meta`` (``file_settings``)."""
    if value is None or ctx.resilient_parsing:
        return value
    try:
        text = value.read_text(encoding="utf-8")
        table = tomllib.loads(text)
    except FileNotFoundError:
        raise typer.BadParameter(f"{value}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise typer.BadParameter(f"{value}: cannot read it ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise typer.BadParameter(toml_error(str(value), text, str(error))) from None
    except RecursionError:  # a value nested thousands of levels deep
        raise typer.BadParameter(f"{value}: invalid TOML (nested deeper than mlbench reads)") from None
    tables = {name: _table(value, table, name) for name in TABLES}
    params = {p.name: p for p in ctx.command.params if p.name not in NOT_IN_FILE}
    others = _run_parameters(ctx) - set(params)
    defaults: TomlTable = {}
    for raw, item in table.items():
        name = ALIASES.get(key_name(raw), key_name(raw))
        if name in others and not isinstance(item, dict):
            continue  # the run's key, in the file both jobs read: the run takes it
        if name not in params or isinstance(item, dict):
            valid = ", ".join(sorted([*params, *(alias for alias, name in ALIASES.items() if name in params)]))
            hint = did_you_mean(key_name(raw), [*params, *ALIASES, *TABLES])
            raise typer.BadParameter(
                f"{value}: unknown key {raw!r}{hint}; valid: {valid}; -M, -J and -T options go in the [model],"
                " [judge] and [options] tables"
            )
        multiple = getattr(params[name], "multiple", False)
        if isinstance(item, list) and not multiple:
            item = ",".join(map(str, item))  # a list option (task, lang) takes comma-separated text
        elif multiple and not isinstance(item, list):
            item = [item]
        defaults[name] = item
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    ctx.meta[FILE_TASKS] = file_settings(value, tables["options"])
    for name in ("model", "judge"):
        ctx.meta[TABLES[name]] = table_settings(value, name, tables[name])
    return value


def _run_parameters(ctx: typer.Context) -> set[str]:
    """For ``mlbench judge --config``: the keys of ``mlbench run``, so that one file can
    describe a run and its judging job (each command takes its own keys and tables)."""
    if ctx.command.name != "judge" or ctx.parent is None:
        return set()
    # The parent is typer's group, whose declared type (click's Command) has no get_command.
    run = ctx.parent.command.get_command(ctx.parent, "run")  # type: ignore[attr-defined]
    return {param.name for param in run.params if param.name} if run is not None else set()


def _table(path: Path, file: TomlTable, name: str) -> TomlTable:
    """The file's [name] table, taken out of ``file``. ``model = "id"`` (and ``judge``) is a
    flag's value, which TOML cannot hold beside a [model] table: there, ``name = "id"``."""
    if name != "options" and not isinstance(file.get(name, {}), dict):
        return {}  # the flag's value, left in ``file``
    table = file.pop(name, {})
    if not isinstance(table, dict):
        raise typer.BadParameter(f"{path}: {name} must be a table ([{name}])")
    if name != "options" and "name" in table:
        file[name] = table.pop("name")
    return table


def table_settings(path: Path, name: str, table: TomlTable) -> list[OptionSetting]:
    """A [model] or [judge] table's keys as -M or -J settings (a dotted key such as
    ``vllm.swap_space`` is a sub-table in TOML: flattened back)."""
    settings = []
    for key, item in table.items():
        items = {f"{key}.{k}": v for k, v in item.items()} if isinstance(item, dict) else {key: item}
        settings += [OptionSetting(key_name(k), v, f"{path.name} [{name}] {k}") for k, v in items.items()]
    return settings


def file_settings(path: Path, options: TomlTable) -> list[OptionSetting]:
    """The task options of a run file: [options] first, then each [options.<task>], so
    that a task's own table wins over the shared one."""
    shared = [OptionSetting(k, v, f"{path.name} [options] {k}") for k, v in options.items() if not isinstance(v, dict)]
    own = [
        OptionSetting(k, v, f"{path.name} [options.{task}] {k}", task=task)
        for task, table in options.items()
        if isinstance(table, dict)
        for k, v in table.items()
    ]
    return shared + own


ConfigOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--config",
        metavar="FILE",
        is_eager=True,
        callback=read_run_file,
        help="Read the run from a TOML file; flags win.",
        rich_help_panel=DATA,
    ),
]
JudgeConfigOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--config",
        metavar="FILE",
        is_eager=True,
        callback=read_run_file,
        help="Read the flags and \\[judge] table from a TOML file; flags win.",
        rich_help_panel=JUDGE,
    ),
]
