"""Stopping on SIGTERM and SIGUSR1 the way Ctrl-C stops.

Slurm's ``scancel``, a preemption and a job's time limit send SIGTERM (SIGKILL follows
after a grace period); ``sbatch --signal=B:USR1@120`` sends SIGUSR1 ahead of the limit.
Python's default for both is to die at once, silently, with nothing written since the last
finished chunk. Here each of them (and SIGINT) raises ``Stopped``, a KeyboardInterrupt, in
the main thread: every path that already stops cleanly on Ctrl-C (the pipeline's
``finally`` blocks that close the backend and release the locks, the engines, the judge
stages, ``user_errors``) does the same for the others. Finished samples are on disk as
they finish and every finished language's results are written when it ends, so what is
left is one line naming the command to continue with and the exit code a shell gives a
process ended by that signal (128 + its number: 130, 143, 138).

A second signal while stopping ends the process at once (a shutdown that hangs, a second
Ctrl-C): the line if it is not out yet, the worker processes ended, no traceback. One
within a second of the first is taken as the same stop sent twice, and ignored.

Python runs a signal's handler wherever the main thread is, and that can be inside a
finalizer (an object's ``__del__``, a generator being closed, a weakref callback), which
cannot pass an exception on: Python reports it as "unraisable" and goes on. While the
command runs (``command_running``), such a stop is sent again every few milliseconds until
it is raised outside a finalizer, where the work is, and the orderly stop happens (seen on
a thread pool's results: the backend was left unclosed, 1 run in 25). Once the command has
ended (Python waiting for threads, exit handlers) there is nothing left to stop in order:
the process ends at once, with the line and the signal's code.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType

from mlbench.engine.budget import EXIT_BUDGET, BudgetSpent
from mlbench.errors import one_line

# SIGUSR1 does not exist on Windows: only the signals this platform has are handled.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGUSR1") if hasattr(signal, name))
# A second signal this soon after the first is the same stop delivered twice (Slurm signals
# every process of the job, and a wrapper script may pass the signal on as well), not someone
# asking to end at once: it must not cut short the orderly stop the first one began.
SAME_STOP_S = 1.0
# How often a stop that a finalizer swallowed is sent again, until it is raised.
REDELIVER_EVERY_S = 0.02


class Stopped(KeyboardInterrupt):
    """A stop signal, raised where the main thread was when it came."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)  # the number as its only argument: it pickles like any exception
        self.signum = signum

    def __str__(self) -> str:
        return signal.Signals(self.signum).name


@dataclass
class _State:
    pid: int | None = None  # the process that installed the handlers
    stopping: int | None = None  # the first signal, once one came
    since: float = 0.0  # when it was last raised (time.monotonic)
    announced: bool = False
    running: bool = False  # inside command_running: a swallowed stop is sent again
    redelivering: bool = False  # the stop a finalizer swallowed is being sent again
    previous_unraisable: Callable[[sys.UnraisableHookArgs], object] = sys.__unraisablehook__  # the hook we replaced
    deliverer: threading.Thread | None = None  # sends a swallowed stop again (_redeliver)


_state = _State()


def stop_on_signals() -> None:
    """Stop on SIGINT, SIGTERM and SIGUSR1 with ``Stopped``; an uncaught one ends with its
    line and code instead of a traceback. For the console script's main thread."""
    _state.pid = os.getpid()
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is signal.SIG_IGN:
            continue  # ignored by whoever started us (nohup, a background job): their choice stands
        try:
            signal.signal(number, _on_signal)
        except ValueError:  # not the main thread (an embedding program): its own handlers stay
            return
    previous, _state.previous_unraisable = sys.excepthook, sys.unraisablehook

    def uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        # A signal outside every command's ``user_errors`` (while click parses, say).
        if isinstance(error, KeyboardInterrupt):
            _leave(stopped(error))
        previous(kind, error, trace)

    sys.excepthook, sys.unraisablehook = uncaught, _unraisable


@contextlib.contextmanager
def command_running() -> Iterator[None]:
    """Around the command's work: a stop a finalizer swallowed meanwhile is sent again until
    it stops the work in order. A stop not yet announced when the work ends (still unraised,
    or taken by typer, which turns a KeyboardInterrupt into exit 130) ends the process with
    the stop's line and code, not as a finished command."""
    _state.running = True
    try:
        yield
    finally:
        _state.running = False
        if _state.stopping is not None and not _state.announced:
            _leave(stopped(Stopped(_state.stopping)))


def _unraisable(report: sys.UnraisableHookArgs) -> None:
    """A signal inside a finalizer, or while Python shuts down (waiting for a thread, an
    engine's exit handler), where Python would print "Exception ignored" and go on."""
    error = report.exc_value
    if isinstance(error, Stopped):
        _redeliver_or_leave(error)
        return
    if isinstance(error, KeyboardInterrupt):
        _leave(stopped(error))
    _state.previous_unraisable(report)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _state.pid:
        # A child forked from us (vLLM can fork its workers) inherits this handler; it
        # should end as if we had installed none, not raise our exception.
        _as_without_handler(signum)
        return
    now = time.monotonic()
    if _state.stopping is not None and not _state.redelivering:
        if now - _state.since < SAME_STOP_S:
            return
        _leave(stopped(Stopped(_state.stopping)))
    if _state.stopping is None:
        _state.stopping = signum
    if _reporting_unraisable(frame):  # raised here it would be lost as well
        if not _state.redelivering:
            _redeliver_or_leave(Stopped(_state.stopping))
        return
    # Raised now, as if it had just come: copies of a stop sent again that are still on
    # their way are ignored as the same stop sent twice.
    _state.redelivering, _state.since = False, now
    raise Stopped(_state.stopping)


def _redeliver_or_leave(error: Stopped) -> None:
    """While the command runs, the stop sent again until it is raised where the work is;
    once it has ended (or no thread can start), the process ends now."""
    if _state.running:
        try:
            _redeliver()
            return
        except RuntimeError:  # "can't create new thread at interpreter shutdown"
            pass
    _leave(stopped(error))


def _redeliver() -> None:
    """Send the stop to the main thread again every few milliseconds, until the handler
    raises it outside a finalizer; from one thread, which lives while the command runs."""
    _state.redelivering = True
    if _state.deliverer is not None:
        return

    def deliver() -> None:
        while _state.running:
            time.sleep(REDELIVER_EVERY_S)
            if not (_state.redelivering and _state.stopping is not None):
                continue
            if hasattr(signal, "pthread_kill"):  # to the main thread: it wakes a blocking call
                signal.pthread_kill(threading.main_thread().ident or 0, _state.stopping)
            else:  # Windows: the handler runs in the main thread all the same
                signal.raise_signal(_state.stopping)

    thread = threading.Thread(target=deliver, name="mlbench-stop", daemon=True)
    thread.start()  # may raise (no threads at shutdown): then no thread is taken as started
    _state.deliverer = thread


def _reporting_unraisable(frame: FrameType | None) -> bool:
    """Whether ``frame`` is in ``_unraisable`` or below it (the report of a swallowed stop)."""
    while frame is not None:
        if frame.f_code is _unraisable.__code__:
            return True
        frame = frame.f_back
    return False


def _as_without_handler(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def exit_code(error: KeyboardInterrupt) -> int:
    """What a shell reports for a process ended by the signal: 128 + its number (a spent
    --max-cost/--max-tokens budget, which stops the same way: EXIT_BUDGET)."""
    if isinstance(error, BudgetSpent):
        return EXIT_BUDGET
    return 128 + (error.signum if isinstance(error, Stopped) else signal.SIGINT)


def stopped(error: KeyboardInterrupt) -> int:
    """Print the one line saying the run stopped and how to continue it (once, however many
    signals came), and return the exit code to end with."""
    if not _state.announced:
        _state.announced = True  # first: a signal arriving while it prints must not print it twice
        print(stop_line(error, sys.argv), file=sys.stderr, flush=True)
    return exit_code(error)


def stop_line(error: KeyboardInterrupt, argv: list[str]) -> str:
    """``mlbench: stopped by SIGTERM; ...`` and, for a command that continues with
    --resume, that command as it was given with --resume in place of --overwrite."""
    why = f"stopped by {error}" if isinstance(error, Stopped) and error.signum != signal.SIGINT else "interrupted"
    why = error.why if isinstance(error, BudgetSpent) else why
    args = argv[1:]
    if not _takes_resume(args):
        return f"mlbench: {why}"
    again = [arg for arg in args if arg != "--overwrite"]  # the two are refused together
    if "--resume" not in again:
        again.append("--resume")
    program = "mlbench"
    if Path(argv[0]).name == "__main__.py":  # started as ``python -m mlbench``
        program = f"{Path(sys.executable).name} -m mlbench"
    return f"mlbench: {why}; what finished is saved; continue with: {program} {' '.join(map(_shell_word, again))}"


def _shell_word(arg: str) -> str:
    """``arg`` as a POSIX shell reads it back (``shlex.quote``); one holding a character
    the terminal escaper makes visible (``errors.one_line``) as bash's ``$'...'``, that
    character written as an escape bash reads back (``\\x1b``, ``\\u009b``: bash's ``\\xNN``
    is a byte), so that the line can be pasted and nothing in it acts on the terminal."""
    if one_line(arg) == arg:
        return shlex.quote(arg)
    return "$'" + "".join(_ansi_c(char) for char in arg) + "'"


def _ansi_c(char: str) -> str:
    if char in "\\'":
        return "\\" + char
    if one_line(char) == char:
        return char
    return one_line(char) if ord(char) < 0x80 else f"\\u{ord(char):04x}"


def _takes_resume(args: list[str]) -> bool:
    """Whether the command ``args`` name (``run``, ``judge``, ``data fetch``) has --resume."""
    try:
        import typer.main

        from mlbench.cli.app import app

        command = typer.main.get_command(app)
        for word in args:
            found = getattr(command, "commands", {}).get(word)
            if found is None:
                break
            command = found
        return any("--resume" in getattr(param, "opts", ()) for param in getattr(command, "params", ()))
    except Exception:  # only the wording of the line depends on it: never fail the stop over it
        return False


def _leave(code: int) -> None:
    """End now. The files need nothing more: each chunk of samples is forced to disk as it
    is written (a line cut in half here is dropped by --resume) and each result file is
    replaced whole; only worker processes need ending."""
    # os._exit skips multiprocessing's exit handler, which ends daemon workers (data parallel
    # replicas): without this they would work on until they find their pipe closed.
    for child in multiprocessing.active_children():
        child.terminate()
    for stream in (sys.stdout, sys.stderr):
        # A closed pipe must not stop the exit, nor a signal that came while this thread was
        # writing to the same stream (its buffer refuses a reentrant flush: RuntimeError).
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            stream.flush()
    os._exit(code)
