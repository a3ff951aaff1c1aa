"""How every command ends on bad input: one line on stderr and exit code 2 (and a run
whose samples mostly failed: a line per such language and exit code 1). Each line is
printed through ``errors.terminal_line``: a message that echoes a file's or a flag's text
shows its control characters as escapes, and is cut to a bounded length."""

from __future__ import annotations

import errno
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer

from mlbench.cli.signals import stopped
from mlbench.engine.failures import EXIT_FAILED, SamplesFailed
from mlbench.errors import MlbenchError, terminal_line

P = ParamSpec("P")
R = TypeVar("R")


# What the file system said, in our words; these are the user's to fix, not bugs.
_STORAGE = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def storage_error(error: OSError) -> str | None:
    """One line for a file the output, the cache or the data store could not write (full,
    read-only, not ours); None for any other OSError."""
    reason = _STORAGE.get(error.errno or 0)
    if reason is None:
        return None
    where = f" ({error.filename})" if error.filename else ""
    elsewhere = "-o/--output, MLBENCH_CACHE_DIR, MLBENCH_DATA_DIR"
    return f"{reason}{where}: make room or write elsewhere ({elsewhere}); a run continues with --resume"


def error_line(message: str) -> str:
    """``mlbench: error: MESSAGE``, as the terminal may show it (``errors.terminal_line``)."""
    return f"mlbench: error: {terminal_line(message)}"


def user_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Bad input ends the command with one line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except MlbenchError as error:
            print(error_line(str(error)), file=sys.stderr)
            raise typer.Exit(2) from None
        except SamplesFailed as failed:
            # Not bad input: the run ran and wrote its results, but measured (mostly) nothing.
            for line in failed.lines():
                print(terminal_line(line), file=sys.stderr)
            raise typer.Exit(EXIT_FAILED) from None
        except OSError as error:
            storage_line = storage_error(error)
            if storage_line is None:
                raise
            print(error_line(storage_line), file=sys.stderr)
            raise typer.Exit(2) from None
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM/SIGUSR1 (mlbench.cli.signals)
            raise typer.Exit(stopped(stop)) from None

    return wrapper


# What the validation library typer checks values with (pydantic) says, in our words: its
# error types (a documented, stable list) → a sentence about the value given.
_SAYS: dict[str, str] = {
    "int_parsing": "{value!r} is not a whole number",
    "int_type": "{value!r} is not a whole number",
    "int_from_float": "{value!r} is not a whole number",
    "float_parsing": "{value!r} is not a number",
    "float_type": "{value!r} is not a number",
    "finite_number": "{value!r} is not a finite number",
    "bool_parsing": "{value!r} is not true or false",
    "bool_type": "{value!r} is not true or false",
    "string_type": "{value!r} is not text",
    "greater_than_equal": "{value} must be at least {ge}",
    "greater_than": "{value} must be more than {gt}",
    "less_than_equal": "{value} must be at most {le}",
    "less_than": "{value} must be less than {lt}",
    "literal_error": "{value!r} is not one of {expected}",
    "enum": "{value!r} is not one of {expected}",
    "list_type": "{value!r} is not a list",
    "path_type": "{value!r} is not a path",
}


def _said(problem: dict[str, Any]) -> str:  # Any: one of pydantic's error dicts (ErrorDetails)
    """One problem pydantic found, as ``_SAYS`` words it. A ValueError our own parser raised
    (``options.at_least``) is already in our words; an unknown type keeps pydantic's text,
    less its "Input should be"/"Value error," prefixes."""
    kind, value, ctx = problem.get("type", ""), problem.get("input"), problem.get("ctx") or {}
    if kind == "value_error" and ctx.get("error") is not None:
        return str(ctx["error"])
    template = _SAYS.get(kind)
    if template is not None:
        try:
            return template.format(value=value, **{k: str(v) for k, v in ctx.items()})
        except (KeyError, IndexError):
            pass
    text = str(problem.get("msg", ""))
    for prefix in ("Value error, ", "Input should be "):
        text = text.removeprefix(prefix)
    return f"{value!r}: should be {text}" if problem.get("msg", "").startswith("Input should") else text


def _option_name(param: Any) -> str:
    """How the line names a parameter: its long flag (``--limit``), else its name (an argument)."""
    opts = [str(o) for o in getattr(param, "opts", ()) or ()]
    flags = [o for o in opts if o.startswith("--")] or [o for o in opts if o.startswith("-")]
    return flags[0] if flags else str(getattr(param, "name", "") or "value").upper()


def bad_value_line(error: Exception) -> str | None:
    """Click's BadParameter (a flag's or a run file's value that does not parse) in our words:
    ``--limit: 'abc' is not a whole number``; from a run file, ``run.toml limit: ...``.
    None where click names no parameter."""
    param, ctx = getattr(error, "param", None), getattr(error, "ctx", None)
    if param is None:
        return None
    cause = error.__cause__
    errors_of = getattr(cause, "errors", None)
    problems = errors_of() if callable(errors_of) else None  # pydantic's ValidationError
    message = "; ".join(_said(p) for p in problems) if problems else str(getattr(error, "message", error))
    if getattr(param, "name", None) == "config":
        return message  # read_run_file's own lines name the file and its key
    name = _option_name(param)
    source = ctx.get_parameter_source(param.name) if ctx is not None and param.name else None
    if getattr(source, "name", "") == "DEFAULT_MAP" and ctx is not None and ctx.params.get("config") is not None:
        return f"{Path(str(ctx.params['config'])).name} {param.name}: {message}"  # as its tables' keys are named
    return f"{name}: {message}"


def missing_line(error: Exception, command: str) -> str | None:
    """Click's MissingParameter in our words: ``mlbench run needs --model NAME`` (``command``:
    the command as typed)."""
    param = getattr(error, "param", None)
    if param is None:
        return None
    metavar = getattr(param, "metavar", None)
    is_flag = any(str(o).startswith("-") for o in getattr(param, "opts", ()) or ())
    named = f"{_option_name(param)} {metavar}" if is_flag and metavar else _option_name(param)
    return f"{command} needs {named} (see {command} --help)"
