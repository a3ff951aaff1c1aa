"""``mlbench run --config run.toml``: a run described in a file, what cluster users script.

The file names run options by their parameter name (``model``, ``task`` or ``tasks``,
``lang`` or ``langs``, ``mode``, ``limit``, ``seed``, ``output``, ``backend``, ...; dashes
or underscores) and task options in ``[options]`` (every task of the run that takes them)
or ``[options.<task>]`` tables. It is read by an eager option that fills click's
``default_map``, so that a flag given on the command line wins over the file, and the
file's values are checked like the flags' own.

    model = "Qwen/Qwen2.5-0.5B-Instruct"
    tasks = ["msqad", "xlinghealth"]
    langs = ["en", "es"]
    limit = 50

    [options]
    embedder = "minilm"

    [options.msqad]
    refusal = "patterns"
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mlbench.benchmarks.options import OptionSetting, key_name
from mlbench.cli.options import DATA
from mlbench.cli.options_deprecated import DEPRECATED

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

FILE_SETTINGS = "mlbench.run_file_settings"  # ctx.meta key: the file's task option settings
ALIASES = {"tasks": "task", "langs": "lang", "model_args": "model_arg"}
# Parameters a file does not set: itself, -T (the file has [options]) and the flags of
# earlier releases (their task options go in [options]).
NOT_IN_FILE = {"config", "task_option", "help", *DEPRECATED}


def read_run_file(ctx: typer.Context, value: Optional[Path]) -> Optional[Path]:
    """Eager callback of --config: the file's run options become the command's defaults,
    its task options wait in ``ctx.meta`` (``file_settings``)."""
    if value is None or ctx.resilient_parsing:
        return value
    try:
        table = tomllib.loads(value.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise typer.BadParameter(f"{value}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise typer.BadParameter(f"{value}: cannot read it ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise typer.BadParameter(f"{value}: not valid TOML: {error}") from None
    options = table.pop("options", {})
    if not isinstance(options, dict):
        raise typer.BadParameter(f"{value}: options must be a table ([options] or [options.<task>])")
    params = {p.name: p for p in ctx.command.params if p.name not in NOT_IN_FILE}
    defaults: dict[str, Any] = {}
    for raw, item in table.items():
        name = ALIASES.get(key_name(raw), key_name(raw))
        if name not in params or isinstance(item, dict):
            valid = ", ".join(sorted(params))
            raise typer.BadParameter(
                f"{value}: unknown key {raw!r}; valid: {valid}; task options go in [options] or [options.<task>]"
            )
        multiple = getattr(params[name], "multiple", False)
        if isinstance(item, list) and not multiple:
            item = ",".join(map(str, item))  # a list option (task, lang) takes comma-separated text
        elif multiple and not isinstance(item, list):
            item = [item]
        defaults[name] = item
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    ctx.meta[FILE_SETTINGS] = file_settings(value, options)
    return value


def file_settings(path: Path, options: dict[str, Any]) -> list[OptionSetting]:
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
