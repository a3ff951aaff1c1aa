"""The frame of every command that runs models (run, judge, import): progress bars while it
works, each task's summary once it is done, then one last line with the time it took."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path

from mlbench.cli.app import wide_console
from mlbench.cli.console import RichObserver, final_line, written_tables
from mlbench.engine.failures import SamplesFailed
from mlbench.errors import one_line


def quiet_library_warnings() -> None:
    """With -q, the deprecation notices that torch, transformers and vLLM print for their
    own maintainers (FutureWarning, DeprecationWarning) are not shown; mlbench's own
    warnings and every error still are."""
    for category in (FutureWarning, DeprecationWarning):
        warnings.filterwarnings("ignore", category=category, module=r"(?!mlbench)")


def observed(output: Path, quiet: bool, work: Callable[[RichObserver], object]) -> None:
    """Run ``work`` with a console observer. A run whose samples mostly failed still shows
    its summaries and last line before it ends with exit 1 (SamplesFailed)."""
    started = time.perf_counter()
    if quiet:
        quiet_library_warnings()
    observer = RichObserver(wide_console(), quiet=quiet)
    failed = None
    try:
        work(observer)
    except SamplesFailed as error:
        failed = error
    finally:
        observer.close()
    observer.print_summaries()  # once, after the judges: the numbers as they end up
    tables = written_tables(output, observer.results)  # (model, task) of each run finished
    print(one_line(final_line(output, time.perf_counter() - started, tables)))  # the paths whole, to copy
    if failed is not None:
        raise failed
