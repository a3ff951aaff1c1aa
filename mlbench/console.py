"""Rich output for the CLI: progress bars while scoring, tables when done."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from mlbench.pipeline import RunObserver
from mlbench.schema import RunResult
from mlbench.stats.agreement import Agreement
from mlbench.tables import TextTable, run_tables


def rich_table(table: TextTable) -> Table:
    """A TextTable for the terminal: first column left, the rest right-aligned."""
    shown = Table(title=table.title, title_justify="left", caption=" ".join(table.notes[1:]) or None)
    for i, column in enumerate(table.columns):
        shown.add_column(column, justify="left" if i == 0 else "right")
    for row in table.rows:
        shown.add_row(*row)
    return shown


# Longer or wider tables (Tukey HSD over every metric, temperature and pair; XLingHealth's
# per-dataset table of 30 metrics) stay in table.md only.
TERMINAL_ROWS = 60
TERMINAL_COLUMNS = 16


def results_tables(run: RunResult, metric_order: list[str], group_name: str = "group") -> list[Table]:
    tables = run_tables(run, metric_order, group_name)
    return [
        rich_table(table)
        for table in tables
        if len(table.rows) <= TERMINAL_ROWS and len(table.columns) <= TERMINAL_COLUMNS
    ]


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

    def finish(self, run: RunResult, metric_order: list[str], group_name: str = "group") -> None:
        self.close()
        for table in results_tables(run, metric_order, group_name):
            self.console.print(table)

    def warn(self, message: str) -> None:
        print(f"mlbench: warning: {message}", file=sys.stderr)

    def note(self, message: str) -> None:
        self.console.print(f"mlbench: {message}")

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def agreement_table(lines: list[Agreement], a: str, b: str) -> Table:
    """One row per group: items compared, missing labels, agreement and κ [95% CI]."""
    table = Table(title=f"agreement: {a} vs {b} (Cohen's κ, 95% bootstrap CI)", title_justify="left")
    for column in ("group", "n", f"missing {a}", f"missing {b}", "agreement", "κ [95% CI]"):
        table.add_column(column, justify="left" if column == "group" else "right")
    for line in lines:
        kappa = "n/a" if math.isnan(line.kappa) else f"{line.kappa:.3f}"
        interval = "" if math.isnan(line.ci_low) else f" [{line.ci_low:.3f}, {line.ci_high:.3f}]"
        share = "n/a" if math.isnan(line.agreement) else f"{100 * line.agreement:.1f}%"
        table.add_row(line.group, str(line.n), str(line.missing_a), str(line.missing_b), share, kappa + interval)
    return table
