"""``mlbench import``: runs made elsewhere, read into ordinary mlbench runs (lm-eval's sample logs)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from mlbench.cli import options as opt
from mlbench.cli.errors import user_errors
from mlbench.engine.failures import EXIT_FAILED
from mlbench.errors import MlbenchError, one_line, terminal_line

import_app = typer.Typer(
    help="Read runs made with other tools into mlbench runs (judge, surface, report work on them).",
    no_args_is_help=True,
    add_completion=False,
)

PathsArg = Annotated[
    list[Path],
    typer.Argument(
        help="lm-eval output folders or samples_<task>_<date>.jsonl files (with their results_<date>.json).",
        show_default=False,
    ),
]


@import_app.command("lm-eval")
@user_errors
def lm_eval(
    paths: PathsArg,
    output: opt.OutputOpt = Path("results"),
    data_dir: opt.DataDirOpt = None,
    sample: opt.SampleOpt = False,
    overwrite: opt.OverwriteOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """lm-eval sample logs → mlbench runs in OUTPUT/<model>/<task>/, scored by mlbench.

    A logged answer is imported only where lm-eval's prompt is mlbench's, character for character; the rest is listed.
    """
    started = time.perf_counter()
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.cli.app import wide_console
    from mlbench.cli.console import RichObserver, final_line
    from mlbench.data.source import DataSource
    from mlbench.engine.lm_eval_import.importer import import_lm_eval

    if data_dir is not None and sample:
        raise MlbenchError("choose one data source: --data-dir or --sample")
    if data_dir is not None and not data_dir.is_dir():
        raise MlbenchError(f"--data-dir {data_dir} is not a folder")
    source = DataSource("local", data_dir) if data_dir else DataSource("sample") if sample else DataSource("hub")
    observer = RichObserver(wide_console(), quiet=quiet)
    try:
        summary = import_lm_eval(paths, output, TaskOptions(source), overwrite=overwrite, observer=observer)
    finally:
        observer.close()
    observer.print_summaries()
    for line in summary.lines:
        print(f"mlbench: {terminal_line(line)}")  # names from lm-eval's logs
    print(
        f"mlbench: imported {summary.imported} samples into {len(summary.runs)} runs; "
        f"{summary.left_out} left out (listed above)"
        if summary.left_out
        else f"mlbench: imported {summary.imported} samples into {len(summary.runs)} runs"
    )
    if not summary.runs:  # every log was left out: nothing done is not a success
        raise MlbenchError(
            "nothing was imported: no log is of a task mlbench imports, or every sample was left out (listed above)"
        )
    print(one_line(final_line(output, time.perf_counter() - started)))
    if summary.failed is not None:  # a run whose samples mostly failed: exit 1, as `run` does
        print("mlbench: error: most samples of a language were not imported (listed above)", file=sys.stderr)
        raise typer.Exit(EXIT_FAILED)
