"""How every command ends on bad input: one line on stderr and exit code 2 (and a run
whose samples mostly failed: a line per such language and exit code 1)."""

from __future__ import annotations

import errno
import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from mlbench.cli.signals import stopped
from mlbench.engine.failures import EXIT_FAILED, SamplesFailed
from mlbench.errors import MlbenchError

F = TypeVar("F", bound=Callable[..., Any])


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


def user_errors(command: F) -> F:
    """Bad input ends the command with one line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MlbenchError as error:
            message = " ".join(str(error).split())
            print(f"mlbench: error: {message}", file=sys.stderr)
            raise typer.Exit(2) from None
        except SamplesFailed as failed:
            # Not bad input: the run ran and wrote its results, but measured (mostly) nothing.
            for line in failed.lines():
                print(line, file=sys.stderr)
            raise typer.Exit(EXIT_FAILED) from None
        except OSError as error:
            line = storage_error(error)
            if line is None:
                raise
            print(f"mlbench: error: {line}", file=sys.stderr)
            raise typer.Exit(2) from None
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM/SIGUSR1 (mlbench.cli.signals)
            raise typer.Exit(stopped(stop)) from None

    return wrapper  # type: ignore[return-value]
