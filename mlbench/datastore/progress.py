"""A download progress bar on stderr, one line per file."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from mlbench.datastore.store import OnBytes


@contextlib.contextmanager
def download_progress(label: str) -> Iterator[OnBytes]:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    progress = Progress(
        TextColumn(f"{label} {{task.description}}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    bars: dict[str, int] = {}

    def report(path: str, done: int, total: int | None) -> None:
        if path not in bars:
            bars[path] = progress.add_task(path.rsplit("/", 1)[-1], total=total)
        elif total is not None:
            progress.update(bars[path], total=total)
        progress.advance(bars[path], done)

    with progress:
        yield report
