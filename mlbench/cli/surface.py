"""``mlbench surface``: the surface checks (wrong language, repetition, non-answer markers)
on answers produced anywhere, read from a JSONL file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from mlbench.cli import options as opt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors
from mlbench.errors import terminal_line


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

    from mlbench.cli.console import text_table_listing
    from mlbench.results.files import check_output_file
    from mlbench.results.surface_file import check_answers, read_answers, surface_result
    from mlbench.results.tables import surface_table

    if output is not None:
        check_output_file(output, "--output")  # before the checks run
    answers = read_answers(file, text_field, lang_field, lang)
    console = wide_console()
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task("surface checks", total=len(answers))
        records = check_answers(answers, lambda n: progress.advance(bar, n))
    result = surface_result(records, str(file), seed)
    table = surface_table(result)
    assert table is not None  # every record has surface metrics
    console.print(text_table_listing(table))
    if len(table.notes) > 1:
        console.print(terminal_line(" ".join(table.notes[1:])), markup=False, highlight=False)
    empty = sum(r.outputs["empty"] is True for r in records)
    if empty:
        print(f"{empty} empty answer(s) checked as such", file=sys.stderr)
    if output is not None:
        rows = [{"id": r.id, "lang": r.lang, "surface": r.surface} for r in records]
        lines = [json.dumps(row, ensure_ascii=False) for row in rows]
        output.write_text("\n".join(lines) + "\n", encoding="utf-8")
