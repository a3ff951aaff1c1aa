"""The ``mlbench`` typer app every command module registers on, and the console its tables
print to. Kept apart from the commands so that each command's module imports it, and not
each other."""

from __future__ import annotations

import os
import sys
from typing import TextIO, cast

import typer
from rich.console import Console

from mlbench.cli import options as opt
from mlbench.records.options import whole_number

app = typer.Typer(
    help="How truthful are language models across languages?",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _options(version: opt.VersionOpt = False) -> None:
    """How truthful are language models across languages?"""


# Where no terminal tells the width (a pipe, a log file, CI) and $COLUMNS is not set.
PIPED_WIDTH = 100
# A $COLUMNS below this is a mistake (COLUMNS=0 printed nothing at all): it is ignored.
MIN_COLUMNS = 20


def forget_unreadable_sizes() -> None:
    """Drops a $COLUMNS or $LINES that is not ASCII digits: rich reads them with isdigit(),
    true of a superscript (COLUMNS=²), and its int() then stopped every command that
    prints a table with a traceback. A size nobody can read is no size, as if unset."""
    for name in ("COLUMNS", "LINES"):
        if name in os.environ and whole_number(os.environ[name], signed=False) is None:
            del os.environ[name]


def asked_columns() -> int | None:
    """$COLUMNS when it is a width a table can be drawn in, else None."""
    columns = whole_number(os.environ.get("COLUMNS", ""), signed=False)
    return columns if columns is not None and columns >= MIN_COLUMNS else None


class _Stripped:
    """A piped stdout without the trailing spaces rich pads a table's title and caption
    lines with (a log file or ``diff`` sees them)."""

    def __init__(self, file: TextIO) -> None:
        self._file = file

    def write(self, text: str) -> int:
        *ended, rest = text.split("\n")  # ``rest``: a line not ended yet, kept as it is
        return self._file.write("".join(line.rstrip(" ") + "\n" for line in ended) + rest)

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str) -> object:  # flush, encoding, fileno: the real file's
        return getattr(self._file, name)


def wide_console() -> Console:
    """A console for tables: the terminal's width, or $COLUMNS (at least MIN_COLUMNS), else
    PIPED_WIDTH when piped (rich would take 80). Each table either fits that width or stacks
    its records. Piped, lines end without trailing spaces."""
    columns = asked_columns()
    if sys.stdout.isatty():
        if columns is None and "COLUMNS" in os.environ:  # rich would take a nonsense $COLUMNS: not this
            return Console(width=max(os.get_terminal_size(sys.stdout.fileno()).columns, MIN_COLUMNS))
        return Console(width=columns)
    # cast: rich writes to its file and asks isatty, flush, encoding…, which _Stripped answers.
    return Console(width=columns or PIPED_WIDTH, file=cast(TextIO, _Stripped(sys.stdout)))
