"""``mlbench agree``: Cohen's κ between two label columns (a judge against people, or two
annotators), per group, with a bootstrap interval."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from mlbench.cli import options as opt
from mlbench.cli import options_tools as topt
from mlbench.cli.app import app, wide_console
from mlbench.cli.errors import user_errors
from mlbench.errors import MlbenchError, terminal_line
from mlbench.results.files import check_output_file


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

    if output is not None:
        check_output_file(output, "--output")  # before the labels are read and the intervals drawn
    if human is not None:
        if a or b:
            raise MlbenchError("--a/--b compare columns of a label file; with --human the columns are human and judge")
        rows, unmatched = human_label_rows(source, human, kind, human_column)
        if unmatched:
            said = f"{unmatched} human labels match no sample of {source}"
            print(f"mlbench: warning: {terminal_line(said)}", file=sys.stderr)
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
        try:
            output.write_text(json.dumps([line.to_json() for line in lines], indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise MlbenchError(f"cannot write --output {output}: {error.strerror or error}") from None
