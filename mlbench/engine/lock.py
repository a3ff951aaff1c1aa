"""One process at a time per (model, task, language) in an output folder.

Two runs of the same language into the same folder both appended every sample to
``samples_<lang>.jsonl`` (each sample written twice, the result read from a mix of both).
A run now holds an OS file lock on ``<run_dir>/.lock-<lang>`` from its checks until it
ends. It is an OS lock (``flock``), not a file whose presence means "locked": the kernel
drops it when the process ends in any way (finished, killed, crashed, out of memory), so
no stale lock is ever left to clear by hand. The file records the holder's pid, for the
message a second run prints, and the holder removes it when it lets go (a finished run,
or one refused or failed before it started, leaves none); only a killed process leaves
its file, which the next run takes over.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path

from mlbench.errors import MlbenchError

if sys.platform == "win32":  # no flock; runs there are not protected (see take_language_lock)
    fcntl = None
else:
    import fcntl


def lock_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f".lock-{lang}"


class LanguageLock(AbstractContextManager["LanguageLock"]):
    """The held lock on one language of a run folder; ``release`` (or leaving the
    ``with``) lets the next run in."""

    def __init__(self, fd: int | None, path: Path | None = None) -> None:
        self.fd = fd
        self.path = path

    def release(self) -> None:
        if self.fd is not None:
            # Removed while still held: a run that opened the file meanwhile finds, once it
            # has the lock, that the path names no file or another one, and tries again.
            if self.path is not None:
                try:
                    self.path.unlink()
                except OSError:
                    pass  # gone already, or a read-only folder: the lock still goes below
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
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                holder = _holder(fd)
                os.close(fd)
                raise MlbenchError(
                    f"{run_dir}: {lang} is being run by another process (pid {holder}); "
                    "wait for it or use another --output"
                ) from None
            # A file system without locks (some network mounts): run unprotected rather
            # than refuse every run there, and say so. The file would protect nothing.
            os.close(fd)
            path.unlink(missing_ok=True)
            if warn is not None:
                warn(f"{path}: cannot lock ({error.strerror}); do not run {lang} twice into this folder at once")
            return LanguageLock(None)
        if _names(path, fd):
            break
        os.close(fd)  # the holder before us removed the file we locked: lock the one there now
    # Ours now: record the pid for the message another run would print.
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return LanguageLock(fd, path)


def _names(path: Path, fd: int) -> bool:
    """Whether ``path`` is still the file open as ``fd`` (not removed, nor made anew)."""
    try:
        on_disk, held = os.stat(path), os.fstat(fd)
    except FileNotFoundError:
        return False
    return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


def lock_languages(
    stack: ExitStack, run_dir: Path, langs: list[str], warn: Callable[[str], None] | None = None
) -> None:
    """Lock every language in ``langs``, held until ``stack`` closes; on a refusal the
    locks already taken are released with the stack."""
    for lang in langs:
        stack.enter_context(take_language_lock(run_dir, lang, warn))
