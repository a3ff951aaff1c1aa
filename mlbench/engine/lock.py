"""One process at a time per (model, task, language) in an output folder.

Two runs of the same language into the same folder both appended every sample to
``samples_<lang>.jsonl`` (each sample written twice, the result read from a mix of both).
A run now holds an OS file lock on ``<run_dir>/.lock-<lang>`` from its checks until it
ends. It is an OS lock (``flock``), not a file whose presence means "locked": the kernel
drops it when the process ends in any way (finished, killed, crashed, out of memory), so
no stale lock is ever left to clear by hand. The file itself stays; it only records the
pid of the last holder, for the message a second run prints.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path

from mlbench.errors import MlbenchError

try:
    import fcntl
except ImportError:  # Windows: no flock; runs there are not protected (see take_language_lock)
    fcntl = None  # type: ignore[assignment]


def lock_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f".lock-{lang}"


class LanguageLock(AbstractContextManager["LanguageLock"]):
    """The held lock on one language of a run folder; ``release`` (or leaving the
    ``with``) lets the next run in."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor drops the flock
            self.fd = None

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> str:
    """The pid the holder wrote, as text ('unknown' in the instant before it writes it)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return text if text.isdigit() else "unknown"


def take_language_lock(run_dir: Path, lang: str, warn: Callable[[str], None] | None = None) -> LanguageLock:
    """Lock ``lang`` of ``run_dir`` for this process, or stop with an MlbenchError naming
    the process that holds it. Never waits: a run that would wait hours behind another
    job looks hung, and the user may want another --output instead."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = lock_path(run_dir, lang)
    if fcntl is None:
        return LanguageLock(None)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            holder = _holder(fd)
            os.close(fd)
            raise MlbenchError(
                f"{run_dir}: {lang} is being run by another process (pid {holder}); wait for it or use another --output"
            ) from None
        # A file system without locks (some network mounts): run unprotected rather than
        # refuse every run there, and say so.
        os.close(fd)
        if warn is not None:
            warn(f"{path}: cannot lock ({error.strerror}); do not run {lang} twice into this folder at once")
        return LanguageLock(None)
    # Ours now: record the pid for the message another run would print.
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return LanguageLock(fd)


def lock_languages(
    stack: ExitStack, run_dir: Path, langs: list[str], warn: Callable[[str], None] | None = None
) -> None:
    """Lock every language in ``langs``, held until ``stack`` closes; on a refusal the
    locks already taken are released with the stack."""
    for lang in langs:
        stack.enter_context(take_language_lock(run_dir, lang, warn))
