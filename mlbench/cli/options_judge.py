"""The options of the judges (`run --judge …` and `mlbench judge`)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mlbench.cli.options import FLAG, JUDGE, RUN

JudgeOpt = Annotated[
    str,
    typer.Option("--judge", metavar="NAME", help="Judge model: hub id, path, or a served name.", rich_help_panel=JUDGE),
]
RunJudgeOpt = Annotated[
    Optional[str],
    typer.Option("--judge", metavar="NAME", help="Then judge the answers with this model.", rich_help_panel=JUDGE),
]
JudgeOptionOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--judge-option",
        "-J",
        metavar="K=V",
        help="kind, backend, scoring, ... or its backend's options (repeatable).",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
JudgeResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume",
        metavar=FLAG,
        help="Keep verdicts already given by this judge; redo only failed, skipped and missing ones.",
        rich_help_panel=RUN,
    ),
]
