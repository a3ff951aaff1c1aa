"""Many runs → one table: rows model × task × metric, columns languages.

Reads only results.json files (never torch): fast enough for hundreds of runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from mlbench.results import find_runs
from mlbench.tables import format_value


@dataclass
class ReportRow:
    model: str
    task: str
    metric: str
    cells: dict[str, str]  # lang → formatted value


def collect(root: Path) -> list[ReportRow]:
    """One row per (model, task, metric); languages of separate runs are merged."""
    rows: dict[tuple[str, str, str], ReportRow] = {}
    for _, run in find_runs(root):
        for lang, result in run.languages.items():
            for metric, value in result.metrics.items():
                key = (run.model, run.task, metric)
                row = rows.setdefault(key, ReportRow(run.model, run.task, metric, {}))
                row.cells[lang] = format_value(metric, value, compact=True)
            n_key = (run.model, run.task, "n")
            rows.setdefault(n_key, ReportRow(run.model, run.task, "n", {})).cells[lang] = str(result.n)
    return list(rows.values())


def render_table(rows: list[ReportRow]) -> Table:
    langs: list[str] = []
    for row in rows:
        langs.extend(lang for lang in row.cells if lang not in langs)
    table = Table(title="mlbench report: mean [95% CI]", title_justify="left")
    for column in ("model", "task", "metric"):
        table.add_column(column, no_wrap=True, overflow="fold" if column == "model" else "ellipsis")
    for lang in langs:
        table.add_column(lang, justify="right")
    previous: tuple[str, str] | None = None
    for row in sorted(rows, key=lambda r: (r.model, r.task, r.metric != "n")):
        # Name the model and task once per block of rows, not on every metric.
        label = (row.model, row.task)
        shown = ("", "") if label == previous else label
        previous = label
        table.add_row(*shown, row.metric, *(row.cells.get(lang, "–") for lang in langs), end_section=False)
    return table
