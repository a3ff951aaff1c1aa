"""The ``mlbench`` typer app every command module registers on, and the console its tables
print to. Kept apart from the commands so that each command's module imports it, and not
each other."""

from __future__ import annotations

import os
import sys

import typer
from rich.console import Console

from mlbench.cli import options as opt

app = typer.Typer(
    help="How truthful are language models across languages?",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _options(version: opt.VersionOpt = False) -> None:
    """How truthful are language models across languages?"""


def wide_console() -> Console:
    """A console for tables: the terminal's width (or $COLUMNS), else 200 columns when piped
    (a log file or CI), where rich would otherwise squeeze a many-language table into 80."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return Console()  # a terminal's width, or the COLUMNS asked for
    return Console(width=200)
