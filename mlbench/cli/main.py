"""The ``mlbench`` console script: every command registered on one typer app, each in its
own module, and one way for bad input to end (``mlbench: error: ...``, exit 2)."""

from __future__ import annotations

import sys
from typing import Any

from mlbench.cli import agree as _agree  # noqa: F401
from mlbench.cli import backends as _backends  # noqa: F401
from mlbench.cli import explore as _explore  # noqa: F401
from mlbench.cli import judge as _judge  # noqa: F401  (after run: the help's order)
from mlbench.cli import report as _report  # noqa: F401

# Imported for their commands, in the order of the help's command list.
from mlbench.cli import run as _run  # noqa: F401
from mlbench.cli import surface as _surface  # noqa: F401
from mlbench.cli import tasks as _tasks  # noqa: F401
from mlbench.cli.app import app
from mlbench.cli.data import data_app
from mlbench.cli.import_lm_eval import import_app
from mlbench.cli.moved import moved_option

app.add_typer(data_app, name="data")
app.add_typer(import_app, name="import")


def main() -> None:
    """The console script: run the command, then end the process (see ``process_exit``)."""
    from mlbench.cli.process_exit import end_process

    try:
        code = _invoke_app()
    except SystemExit as finished:
        code = finished.code
    end_process(code if isinstance(code, int) else 0 if code is None else 1)


def _click_exceptions() -> Any:
    """click's exception classes as typer raises them: newer typer vendors click."""
    try:
        from typer._click import exceptions
    except ImportError:  # typer before it vendored click
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def _typer_abort() -> Any:
    from typer.exceptions import Abort

    return Abort


def _invoke_app() -> Any:
    """Run the app with click's own error display turned off, so that a bad option value
    (``--limit 0``, ``--seed abc``) ends like every other bad input: one ``mlbench: error:``
    line and exit 2, not a boxed usage message. ``--help``/``--version`` exit through
    click's Exit, which non-standalone mode returns as the code."""
    exceptions = _click_exceptions()
    # click < 8.2 prints the help itself for a bare ``mlbench``; later ones raise this.
    no_args = getattr(exceptions, "NoArgsIsHelpError", ())
    # Ctrl-C at a prompt: click's Abort, which a typer that vendors click keeps elsewhere.
    abort = getattr(exceptions, "Abort", None) or _typer_abort()
    try:
        return app(standalone_mode=False)
    except no_args as error:  # bare ``mlbench``: the help, as before
        print(error.ctx.get_help())
        return 2
    except exceptions.ClickException as error:
        context = getattr(error, "ctx", None)
        command = context.command.name if context is not None and context.command is not None else None
        unknown = isinstance(error, exceptions.NoSuchOption)  # a flag that exists may not be "moved"
        moved = moved_option(getattr(error, "option_name", None), command) if unknown else None
        message = moved or " ".join(error.format_message().split())
        print(f"mlbench: error: {message}", file=sys.stderr)
        return 2 if isinstance(error, exceptions.UsageError) else error.exit_code
    except abort:
        print("mlbench: aborted", file=sys.stderr)
        return 1
