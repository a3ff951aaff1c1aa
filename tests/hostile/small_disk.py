"""A small file system for the disk-full tests: a size-limited tmpfs where the tests may
mount one (root, as on CI), otherwise a fault-injecting stand-in that makes every write
to a file under the folder fail with "no space left" once a byte budget is spent. Both end
a write the way a full disk does: ``OSError(ENOSPC)`` from the write that does not fit."""

from __future__ import annotations

import builtins
import errno
import io
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@dataclass
class Disk:
    path: Path
    mounted: bool
    left: int = 0  # the stand-in's budget, in bytes

    def make_room(self) -> None:
        """The user frees space: the tmpfs grows, the stand-in's budget is lifted."""
        if self.mounted:
            subprocess.run(["mount", "-o", "remount,size=64m", str(self.path)], check=True)
        self.left = 1 << 40

    def charge(self, count: int) -> None:
        if count > self.left:
            self.left = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self.left -= count


class _FullFile:
    """A file whose writes are charged to the disk's budget."""

    def __init__(self, inner: Any, disk: Disk) -> None:
        self._inner, self._disk = inner, disk

    def write(self, data: Any) -> int:
        self._disk.charge(len(data.encode("utf-8") if isinstance(data, str) else data))
        return self._inner.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __enter__(self) -> _FullFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._inner.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._inner)


@contextmanager
def small_disk(
    folder: Path, kilobytes: int, monkeypatch: pytest.MonkeyPatch, *, read_only: bool = False
) -> Iterator[Disk]:
    """``folder`` with about ``kilobytes`` of room (or none, ``read_only``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if can_mount():
        options = f"size={kilobytes}k" + (",ro" if read_only else "")
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], check=True)
        try:
            yield Disk(folder, mounted=True)
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        return
    disk = Disk(folder, mounted=False, left=0 if read_only else kilobytes * 1024)
    real_open = io.open
    inside_root = folder.resolve()

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | os.PathLike) and any(m in mode for m in "wax+"):
            if Path(file).resolve().is_relative_to(inside_root):
                if read_only:
                    raise OSError(errno.EROFS, "Read-only file system", str(file))
                return _FullFile(real_open(file, mode, *args, **kwargs), disk)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
    if read_only:  # what does not write through open() (SQLite): a folder not ours to write
        folder.chmod(0o555)
    try:
        yield disk
    finally:
        folder.chmod(0o755)
