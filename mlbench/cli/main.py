"""The ``mlbench`` console script: every command registered on one typer app, each in its
own module, and one way for bad input to end (``mlbench: error: ...``, exit 2)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Protocol

import typer

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
from mlbench.cli.errors import bad_value_line, error_line, missing_line
from mlbench.cli.import_lm_eval import import_app
from mlbench.cli.moved import moved_option
from mlbench.errors import did_you_mean

if TYPE_CHECKING:
    from typing_extensions import TypeIs

app.add_typer(data_app, name="data")
app.add_typer(import_app, name="import")


def main() -> None:
    """The console script: run the command, then end the process (see ``process_exit``)."""
    from mlbench.cli.app import forget_unreadable_sizes
    from mlbench.cli.process_exit import end_process
    from mlbench.cli.signals import command_running, stop_on_signals

    forget_unreadable_sizes()  # before rich reads them: COLUMNS=² was a traceback
    stop_on_signals()  # SIGTERM and SIGUSR1 stop like Ctrl-C: one line, exit 128 + the signal
    with command_running():  # until the command ends, every stop is a stop in order
        try:
            code = _invoke_app()
        except SystemExit as finished:
            code = finished.code
    end_process(code if isinstance(code, int) else 0 if code is None else 1)


class _ClickError(Protocol):
    """What mlbench reads of one of click's exceptions (its documented interface)."""

    exit_code: int

    def format_message(self) -> str: ...


def _click_error(error: object) -> TypeIs[_ClickError]:
    """Whether ``error`` is one of click's exceptions, as typer raises them. Recognised by
    click's documented interface (``format_message``, ``exit_code``), never by importing
    the module click lives in: typer 0.29 started shipping its own copy of click, whose
    classes are not the ``click`` package's."""
    return callable(getattr(error, "format_message", None)) and isinstance(getattr(error, "exit_code", None), int)


def _is_a(error: Exception, name: str) -> bool:
    """Whether ``error`` is (a subclass of) click's exception class called ``name``
    (``UsageError``, ``NoSuchOption``, ``NoArgsIsHelpError``: names click documents)."""
    return any(kind.__name__ == name for kind in type(error).__mro__)


def _invoke_app() -> Any:
    """Run the app with click's own error display turned off, so that a bad option value
    (``--limit 0``, ``--seed abc``) ends like every other bad input: one ``mlbench: error:``
    line and exit 2, not a boxed usage message. ``--help``/``--version`` exit through
    click's Exit, which non-standalone mode returns as the code."""
    try:
        return app(standalone_mode=False)
    except typer.Abort:  # Ctrl-C at a prompt
        print("mlbench: aborted", file=sys.stderr)
        return 1
    except Exception as error:
        if not _click_error(error):
            raise
        if _is_a(error, "NoArgsIsHelpError"):  # bare ``mlbench`` (click >= 8.2): the help, as before
            context = getattr(error, "ctx", None)
            print(context.get_help() if context is not None else " ".join(error.format_message().split()))
            return 2
        context = getattr(error, "ctx", None)
        command = context.command.name if context is not None and context.command is not None else None
        unknown = _is_a(error, "NoSuchOption")  # a flag that exists may not be "moved"
        moved = moved_option(getattr(error, "option_name", None), command) if unknown else None
        if unknown:
            ours: str | None = _no_such_option(error, _command_path(context))
        elif _is_a(error, "MissingParameter"):  # a BadParameter too
            ours = missing_line(error, _command_path(context))
        else:
            ours = bad_value_line(error) if _is_a(error, "BadParameter") else None
        message = moved or ours or " ".join(error.format_message().split())
        print(error_line(message), file=sys.stderr)
        return 2 if _is_a(error, "UsageError") else error.exit_code


def _command_path(context: Any) -> str:
    """``mlbench data fetch``: the command, for lines that send the user to its --help (named
    ``mlbench`` whatever started the process: ``python -m mlbench``, a test)."""
    names = []
    while context is not None and getattr(context, "parent", None) is not None:
        names.append(str(context.info_name))
        context = context.parent
    return " ".join(["mlbench", *reversed(names)])


def _no_such_option(error: Exception, command: str) -> str:
    """``--limt`` → ``No such option: --limt (did you mean --limit?); see mlbench run --help``:
    one suggestion, where click lists every option that shares a few letters."""
    name = str(getattr(error, "option_name", "") or "")
    hint = did_you_mean(name, getattr(error, "possibilities", None) or ())
    return f"No such option: {name}{hint}; see {command} --help"
