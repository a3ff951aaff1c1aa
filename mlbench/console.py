"""Rich output for the CLI: progress bars while scoring, tables when done."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from mlbench.pipeline import RunObserver
from mlbench.results import count_names, format_value, shown_metrics
from mlbench.schema import RunResult


def results_table(run: RunResult, metric_order: list[str]) -> Table:
    table = Table(title=f"{run.model} · {run.task}", title_justify="left")
    table.add_column("metric")
    for lang in run.languages:
        table.add_column(lang, justify="right")
    table.add_row("n", *(str(r.n) for r in run.languages.values()))
    for metric in shown_metrics(run, metric_order):
        table.add_row(
            metric,
            *(format_value(metric, r.metrics[metric]) if metric in r.metrics else "–" for r in run.languages.values()),
        )
    for name in count_names(run):
        table.add_row(name, *(str(r.counts.get(name, 0)) for r in run.languages.values()))
    return table


class RichObserver(RunObserver):
    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress: Progress | None = None

    def start(self, task: str, lang: str, total: int, done: int) -> Callable[[int], None]:
        if self.progress is None:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self.console,
            )
            self.progress.start()
        progress = self.progress
        bar = progress.add_task(f"{task} {lang}", total=total, completed=done)
        return lambda n: progress.advance(bar, n)

    def finish(self, run: RunResult, metric_order: list[str]) -> None:
        self.close()
        self.console.print(results_table(run, metric_order))

    def warn(self, message: str) -> None:
        print(f"mlbench: warning: {message}", file=sys.stderr)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
