"""``mlbench tasks [NAME]``: the benchmarks mlbench knows; with NAME, one in full."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mlbench.cli import options as opt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors


@app.command()
@user_errors
def tasks(
    name: Annotated[Optional[str], typer.Argument(help="One benchmark: its modes, options and data.")] = None,
    include: opt.IncludeOpt = None,
) -> None:
    """List the benchmarks; with NAME, one in full (modes, metrics, options, data sources)."""
    from rich.table import Table

    from mlbench.benchmarks import all_tasks, get_task, include_files
    from mlbench.data.catalog import SOURCES

    include_files(include or [])
    if name is not None:
        from mlbench.cli.task_info import print_task

        print_task(wide_console(), get_task(name), list(SOURCES.values()))
        return

    table = Table(title="mlbench tasks", title_justify="left")
    table.add_column("task", no_wrap=True)
    table.add_column("benchmark")
    table.add_column("languages")
    table.add_column("modes", no_wrap=True)
    table.add_column("data (mlbench data list)", no_wrap=True)
    for item in all_tasks():
        home = next((f"{s.name}: {s.home} {s.repo}" for s in SOURCES.values() if item.name in s.tasks), item.hub_id)
        languages = f"{len(item.languages)}: {', '.join(item.languages)}"
        table.add_row(item.name, item.title, languages, ", ".join(item.mode_names), home)
    wide_console().print(table)
    print(
        "Data: fetched into mlbench's cache on first use (`mlbench data list`); or --data-dir DIR (a local copy, "
        "laid out as upstream ships it), --sample (the embedded set), --data-file FILE.jsonl (your own questions)."
    )
