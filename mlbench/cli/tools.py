"""The commands that read what runs wrote, or tell about mlbench: agree, surface, report,
tasks. They register on ``mlbench.cli.main.app`` (which imports this module)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from mlbench.cli import options as opt
from mlbench.cli import options_tools as topt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors
from mlbench.cli.settings import (
    choice,
    split_list,
)
from mlbench.errors import MlbenchError


@app.command()
@user_errors
def agree(
    source: Annotated[Path, typer.Argument(help="A CSV/JSONL of labels, or a run folder (with --human).")],
    a: topt.ColumnAOpt = None,
    b: topt.ColumnBOpt = None,
    by: topt.ByOpt = None,
    human: topt.HumanOpt = None,
    kind: topt.KindOpt = "truth",
    human_column: topt.HumanColumnOpt = None,
    seed: opt.BootstrapSeedOpt = 0,
    output: topt.AgreeOutputOpt = None,
) -> None:
    """Cohen's κ between two label columns, per group, with a 95% bootstrap interval."""
    from mlbench.cli.console import agreement_table
    from mlbench.results.labels import agreement_by_group, file_label_rows, human_label_rows

    if human is not None:
        if a or b:
            raise MlbenchError("--a/--b compare columns of a label file; with --human the columns are human and judge")
        rows, unmatched = human_label_rows(source, human, kind, human_column)
        if unmatched:
            print(f"mlbench: warning: {unmatched} human labels match no sample of {source}", file=sys.stderr)
        a, b, by = "human", "judge", by or "lang"
    else:
        if not a or not b:
            raise MlbenchError(
                "give the two label columns to compare: --a COLUMN --b COLUMN (or a run folder with --human)"
            )
        rows = file_label_rows(source, [a, b, *([by] if by else [])])
    lines = agreement_by_group(rows, a, b, by=by, seed=seed)
    wide_console().print(agreement_table(lines, a, b))
    if output is not None:
        output.write_text(json.dumps([line.to_json() for line in lines], indent=2) + "\n", encoding="utf-8")


@app.command()
@user_errors
def surface(
    file: Annotated[Path, typer.Argument(help="JSONL of answers, one per line.")],
    text_field: Annotated[
        str, typer.Option(help="Field holding the answer; a dotted path reaches inside (outputs.answer).")
    ] = "answer",
    lang_field: Annotated[str, typer.Option(help="Field holding the question's language code.")] = "lang",
    lang: Annotated[
        Optional[str], typer.Option(help="One language code for every line (files without a language field).")
    ] = None,
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Write each answer's surface block here (JSONL).")
    ] = None,
    seed: opt.BootstrapSeedOpt = 0,
) -> None:
    """Wrong language, repetition and non-answer markers of answers produced anywhere, per language."""
    from rich.progress import Progress

    from mlbench.cli.console import rich_table
    from mlbench.results.surface_file import check_answers, read_answers, surface_result
    from mlbench.results.tables import surface_table

    answers = read_answers(file, text_field, lang_field, lang)
    console = wide_console()
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task("surface checks", total=len(answers))
        records = check_answers(answers, lambda n: progress.advance(bar, n))
    result = surface_result(records, str(file), seed)
    table = surface_table(result)
    assert table is not None  # every record has surface metrics
    console.print(rich_table(table))
    empty = sum(r.outputs["empty"] for r in records)
    if empty:
        print(f"{empty} empty answer(s) checked as such", file=sys.stderr)
    if output is not None:
        rows = [{"id": r.id, "lang": r.lang, "surface": r.surface} for r in records]
        lines = [json.dumps(row, ensure_ascii=False) for row in rows]
        output.write_text("\n".join(lines) + "\n", encoding="utf-8")


@app.command()
@user_errors
def report(
    results_dir: Path = typer.Argument(..., help="Folder searched for results.json files."),
    task: topt.ReportTaskOpt = "",
    model: topt.ReportModelOpt = "",
    metric: topt.ReportMetricOpt = "",
    ref_lang: topt.RefLangOpt = None,
    fmt: topt.ReportFormatOpt = "",
    out: topt.ReportOutOpt = None,
    plots: topt.PlotsOpt = False,
    resamples: topt.ResamplesOpt = 1000,
    seed: topt.ReportSeedOpt = 0,
) -> None:
    """Per-language tables of the runs under RESULTS_DIR; each gap to --ref-lang tested per question."""
    from mlbench.report import FORMATS, make_report, write_report
    from mlbench.report.terminal import caption, render

    formats = [choice("format", f, tuple(FORMATS)) for f in split_list(fmt)]
    if out is not None and not formats:
        formats = list(FORMATS)  # a folder was named: fill it
    made = make_report(
        results_dir, split_list(task), split_list(model), split_list(metric), ref_lang, seed=seed, resamples=resamples
    )
    console = Console()  # the tables are narrow: a log gets 80 columns, a terminal its width
    for table in render(made.tables):
        console.print(table)
    if made.tables:
        console.print(caption(made.tables, made.ref_lang), highlight=False)
    for note in made.collection.notes:
        print(f"note: {note}", file=sys.stderr)
    if formats or plots:
        folder = out or results_dir / "report"
        written = write_report(made, folder, formats=formats, plots=plots, seed=seed, resamples=resamples)
        print(f"wrote {len(written)} file(s) to {folder}")


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
        table.add_row(item.name, item.title, ", ".join(item.languages), ", ".join(item.mode_names), home)
    wide_console().print(table)
    print(
        "Data: fetched into mlbench's cache on first use (`mlbench data list`); or --data-dir DIR (a local copy, "
        "laid out as upstream ships it), --sample (the embedded set), --data-file FILE.jsonl (your own questions)."
    )
