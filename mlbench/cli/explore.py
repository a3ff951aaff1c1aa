"""``mlbench explore``: one HTML file showing each question across languages and models."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from mlbench.cli import options_tools as topt
from mlbench.cli.app import app
from mlbench.cli.errors import user_errors
from mlbench.errors import MlbenchError, one_line, terminal_line

ExploreDirsArg = Annotated[
    list[Path], typer.Argument(help="Results folders (each searched for runs).", metavar="DIR...")
]
ExploreOutOpt = Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.", metavar="FILE")]


@app.command()
@user_errors
def explore(
    results_dirs: ExploreDirsArg, output: ExploreOutOpt = Path("explorer.html"), slices: topt.SlicesOpt = None
) -> None:
    """Each question across languages and models, in one self-contained HTML file."""
    from mlbench.report.alignment import ALIGNED_TASK
    from mlbench.report.explore_data import explorer_data
    from mlbench.report.explore_page import explorer_page
    from mlbench.results.files import check_output_file, write_atomic

    started = time.perf_counter()
    if output.exists():  # a folder, a device, a pipe: refused before any work (its folder is made below)
        check_output_file(output, "--output")
    from mlbench.report.slices import read_slices

    data = explorer_data(results_dirs, read_slices(slices) if slices is not None else None)
    for line in data.skipped:
        print(f"mlbench: skipped: {terminal_line(line)}", file=sys.stderr)
    if not data.cells:
        raise MlbenchError("nothing to explore: no run with samples under " + ", ".join(map(str, results_dirs)))
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MlbenchError(f"--output {output}: cannot make its folder ({error.strerror or error})") from None
    write_atomic(output, explorer_page(data))
    # The aligned view shows the benchmarks' own questions again: counted once, in them.
    questions = sum(len(task.questions) for name, task in data.tasks.items() if name != ALIGNED_TASK)
    models = f"{len(data.models)} model{'s' if len(data.models) != 1 else ''}"
    took = time.perf_counter() - started
    print(f"mlbench: explorer in {one_line(str(output))} ({questions} questions, {models}) — {took:.1f} s")
