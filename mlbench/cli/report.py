"""``mlbench report``: per-language tables of finished runs, each gap to a reference
language tested per question, and models that answered the same questions compared with
each other; markdown, CSV, LaTeX, JSON, HTML and figures on request."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from mlbench.cli import options_tools as topt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors
from mlbench.cli.settings import choice, split_list
from mlbench.errors import MlbenchError, clipped, one_line, terminal_line


@app.command()
@user_errors
def report(
    results_dir: Path = typer.Argument(..., help="Folder searched for results.json files."),
    task: topt.ReportTaskOpt = "",
    model: topt.ReportModelOpt = "",
    metric: topt.ReportMetricOpt = "",
    ref_lang: topt.RefLangOpt = None,
    ref_model: topt.RefModelOpt = None,
    by: topt.ByOpt = None,
    align: topt.AlignOpt = None,
    slices: topt.SlicesOpt = None,
    fmt: topt.ReportFormatOpt = "",
    output: topt.ReportOutputOpt = None,
    out: topt.ReportOutOpt = None,
    plots: topt.PlotsOpt = False,
    resamples: topt.ResamplesOpt = 1000,
    seed: topt.ReportSeedOpt = 0,
) -> None:
    """Per-language tables of the runs under RESULTS_DIR; each gap to --ref-lang tested per question, and
    models that answered the same questions compared (each pair, or each against --ref-model)."""
    from mlbench.report import FORMATS, make_report, write_report
    from mlbench.report.terminal import caption, pairs_caption, render, render_pairs
    from mlbench.report.translation_tables import translations_line

    if output is not None and out is not None and output != out:
        raise MlbenchError(
            f"--output {clipped(str(output))} and --out {clipped(str(out))}: give one (--out is --output)"
        )
    output = output if output is not None else out
    formats = [choice("format", f, tuple(FORMATS)) for f in split_list(fmt)]
    if output is not None and not formats:
        formats = list(FORMATS)  # a folder was named: fill it
    from mlbench.report.slices import read_slices

    filters = split_list(task), split_list(model), split_list(metric)
    labels = read_slices(slices) if slices is not None else None
    if labels is not None and by is None:
        if len(labels.fields) > 1:
            raise MlbenchError(f"--slices {slices} has {', '.join(labels.fields)}: choose one with --by")
        by = labels.fields[0]
    # A flag's note (--ref-lang pt-BR: using pt) is the console's, not the report's Notes.
    made = make_report(
        results_dir,
        *filters,
        ref_lang,
        seed=seed,
        resamples=resamples,
        ref_model=ref_model,
        by=by,
        slices=labels,
        align=align,
        note=_said,
    )
    console = wide_console()  # a terminal's width, $COLUMNS, or 100 columns when piped
    width = console.width
    for table in render(made.tables, width):
        console.print(table)
    if made.tables:
        console.print(caption(made.tables, made.ref_lang, width, bool(formats or plots)), highlight=False)
    if made.pairs:
        for table in render_pairs(made.pairs, width):
            console.print(table)
        console.print(pairs_caption(made.pairs, made.ref_model, width, bool(formats or plots)), highlight=False)
    if made.per_translation:
        console.print(translations_line(made.per_translation, bool(formats)), highlight=False, markup=False)
    for note in made.collection.notes:  # a note names models and tasks a results.json gives
        print(f"note: {terminal_line(note)}", file=sys.stderr)
    if formats or plots:
        folder = output or results_dir / "report"
        written = write_report(made, folder, formats=formats, plots=plots, seed=seed, resamples=resamples)
        print(f"wrote {len(written)} file(s) to {one_line(str(folder))}")


def _said(line: str) -> None:
    print(f"mlbench: {terminal_line(line)}", file=sys.stderr)
