"""``mlbench tasks [NAME]``: the benchmarks mlbench knows; with NAME, one in full."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.text import Text

from mlbench.cli import options as opt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors
from mlbench.cli.layout import Column, Listing
from mlbench.cli.listing_json import JsonOpt

if TYPE_CHECKING:
    from mlbench.benchmarks.base import Task
    from mlbench.records.jsontypes import JsonValue


@app.command()
@user_errors
def tasks(
    name: Annotated[Optional[str], typer.Argument(help="One benchmark: its modes, options and data.")] = None,
    include: opt.IncludeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the benchmarks; with NAME, one in full (modes, metrics, options and their values, data sources)."""
    from mlbench.benchmarks import all_tasks, get_task, include_files
    from mlbench.data.catalog import SOURCES

    include_files(include or [])
    chosen = [get_task(name)] if name is not None else list(all_tasks())
    sources = list(SOURCES.values())  # after the benchmarks are found: each adds its own
    if as_json:
        from mlbench.cli.listing_json import dumps, task_json

        described: list[JsonValue] = [task_json(task, sources) for task in chosen]
        print(dumps({"task": described[0]} if name is not None else {"tasks": described}))
        return
    console = wide_console()
    if name is not None:
        from mlbench.cli.task_info import print_task

        print_task(console, chosen[0], sources)
        return
    console.print(task_listing(chosen))
    console.print(Text(NOTE), highlight=False)


# Under the table: where the rest is (each task's languages, options and data; the sources).
NOTE = (
    "One task in full (languages, options and their values, data): mlbench tasks NAME\n"
    "Data: fetched into mlbench's cache on first use (mlbench data list); or --data-dir DIR (a local copy, "
    "laid out as upstream ships it), --sample (the embedded set), --data-file FILE.jsonl (your own questions).\n"
    "For scripts: --json."
)


def task_listing(chosen: list[Task]) -> Listing:
    """A row per task: its name, title, how many languages, its default shots and modes,
    its data's licence and how it was translated; a block per task where a row would not
    fit whole."""
    from mlbench.data.alignment import translation_text
    from mlbench.data.catalog import data_licence

    columns = [
        Column("task", no_wrap=True), Column("title"), Column("langs", no_wrap=True, justify="right"),
        Column("shots", no_wrap=True, justify="right"), Column("modes"), Column("licence"), Column("translation"),
    ]  # fmt: skip
    listing = Listing("mlbench tasks", columns)
    for item in chosen:
        listing.add(
            item.name, item.title, str(len(item.languages)), str(item.default_fewshot), list(item.mode_names),
            data_licence(item.name) or "not stated", translation_text(item.alignment) or "—",
        )  # fmt: skip
    return listing
