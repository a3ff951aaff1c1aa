"""How every command ends on bad input: one line on stderr and exit code 2 (and a run
whose samples mostly failed: a line per such language and exit code 1)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from mlbench.engine.failures import EXIT_FAILED, SamplesFailed
from mlbench.errors import MlbenchError

F = TypeVar("F", bound=Callable[..., Any])


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
        except KeyboardInterrupt:
            print("mlbench: interrupted; rerun with --resume to continue", file=sys.stderr)
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]
