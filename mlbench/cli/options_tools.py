"""The options of `mlbench agree` and `mlbench report`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mlbench.cli.options import FLAG, OUT, at_least
from mlbench.records.options import SEED_MAX

AGREE = "Agreement"
ColumnAOpt = Annotated[
    Optional[str], typer.Option("--a", metavar="COLUMN", help="First label column.", rich_help_panel=AGREE)
]
ColumnBOpt = Annotated[
    Optional[str], typer.Option("--b", metavar="COLUMN", help="Second label column.", rich_help_panel=AGREE)
]
HumanOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--human",
        metavar="FILE",
        help="CSV/JSONL of human labels with id and lang columns, joined with the run's verdicts.",
        rich_help_panel=AGREE,
    ),
]
KindOpt = Annotated[
    str,
    typer.Option(
        "--kind", metavar="NAME", help="Which judge's verdicts to compare (with --human).", rich_help_panel=AGREE
    ),
]
HumanColumnOpt = Annotated[
    Optional[str],
    typer.Option(
        "--human-column",
        metavar="COLUMN",
        help="Label column of the human file (default: KIND, human or label).",
        rich_help_panel=AGREE,
    ),
]
AgreeOutputOpt = Annotated[
    Optional[Path],
    typer.Option("--output", "-o", metavar="FILE", help="Also write the table as JSON here.", rich_help_panel=OUT),
]


# mlbench report
ReportTaskOpt = Annotated[
    str, typer.Option("--task", metavar="LIST", help="Only these tasks, comma-separated (default: all).")
]
ReportModelOpt = Annotated[
    str,
    typer.Option("--model", metavar="LIST", help="Only these models, comma-separated: hub ids or local folder names."),
]
ReportMetricOpt = Annotated[
    str,
    typer.Option(
        "--metric",
        metavar="LIST",
        help="Only these metrics (and plot them), comma-separated; mc2 also takes mc2@*.",
    ),
]
# No "[default: …]" inside help text: rich takes the brackets for markup and drops them,
# which left "compared with ." in the help.
RefLangOpt = Annotated[
    Optional[str],
    typer.Option(
        "--ref-lang",
        metavar="LANG",
        help="The language every other is compared with (default: en).",
        show_default=False,
    ),
]
RefModelOpt = Annotated[
    Optional[str],
    typer.Option(
        "--ref-model",
        metavar="MODEL",
        help="Compare each other model with this one (a label as the report shows it, or the model as run); "
        "without it, every pair of models that answered the same questions.",
        show_default=False,
    ),
]
ByOpt = Annotated[
    Optional[str],  # noqa: UP045 - typer reads the annotation
    typer.Option(
        "--by",
        metavar="FIELD",
        help="Tables per label of this field (category, type, topic, kind, … or a --slices column).",
        show_default=False,
    ),
]
AlignOpt = Annotated[
    Optional[str],  # noqa: UP045 - typer reads the annotation
    typer.Option(
        "--align",
        metavar="FIELD",
        help="Pair questions across benchmarks by this field (tqa_index: TruthfulQA's row), "
        "so that a language of one translation is compared with another's.",
        show_default=False,
    ),
]
SlicesOpt = Annotated[
    Optional[Path],  # noqa: UP045 - typer reads the annotation
    typer.Option(
        "--slices",
        metavar="FILE.csv",
        help="Labels of your own per question id (columns: id, optional task, one per field).",
        show_default=False,
    ),
]
ReportFormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="LIST",
        help="Files to write, comma-separated: md, csv, latex, html, json, explore (linked from html).",
    ),
]
# -o/--output names where a command writes, as in `run` and `explore`.
ReportOutputOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--output",
        "-o",
        metavar="DIR",
        help="Folder for the report files (default: RESULTS_DIR/report).",
        show_default=False,
    ),
]
# --out, report's spelling in earlier releases, kept working for the scripts that use it;
# hidden so that the help shows one spelling, the one every command shares.
ReportOutOpt = Annotated[Optional[Path], typer.Option("--out", metavar="DIR", hidden=True)]
PlotsOpt = Annotated[
    bool,
    typer.Option("--plots", metavar=FLAG, help="Also write PNG figures (heatmap and bar chart per headline metric)."),
]
ResamplesOpt = Annotated[int, typer.Option(min=100, metavar="N", help="Bootstrap resamples for the gaps' intervals.")]
ReportSeedOpt = Annotated[
    int, typer.Option(parser=at_least(0, most=SEED_MAX), metavar="N", help="Seed of the bootstrap resamples.")
]
