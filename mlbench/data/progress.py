"""A download progress bar on stderr, one line per file."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from rich.markup import escape

from mlbench.errors import terminal_text

# Called as bytes arrive: (file path, bytes done or -bytes to undo, total bytes or None).
OnBytes = Callable[[str, int, int | None], None]


@contextlib.contextmanager
def download_progress(label: str) -> Iterator[OnBytes]:
    from rich.console import Console
    from rich.errors import LiveError
    from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TextColumn, TransferSpeedColumn

    progress = Progress(
        TextColumn(f"{escape(terminal_text(label, 60))} {{task.description}}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    bars: dict[str, TaskID] = {}

    def report(path: str, done: int, total: int | None) -> None:
        if path not in bars:
            # A file's name from a hub listing: shown, never read as markup ("[/]" would end the bar).
            bars[path] = progress.add_task(escape(terminal_text(path.rsplit("/", 1)[-1], 60)), total=total)
        elif total is not None:
            progress.update(bars[path], total=total)
        progress.advance(bars[path], done)

    try:
        progress.start()
    except LiveError:  # a run's own progress display is live: one line instead of a second bar
        print(f"mlbench: fetching {terminal_text(label)} into the data cache", file=sys.stderr)
        yield lambda path, done, total: None
        return
    try:
        yield report
    finally:
        progress.stop()
