"""The options of the judges (`run --judge …` and `mlbench judge`)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mlbench.cli.options import FLAG, JUDGE, RUN, at_least

JudgeOpt = Annotated[
    str,
    typer.Option("--judge", metavar="NAME", help="Judge model: hub id, path, or a served name.", rich_help_panel=JUDGE),
]
RunJudgeOpt = Annotated[
    Optional[str],
    typer.Option(
        "--judge", metavar="NAME", help="Judge the answers with this model after the run.", rich_help_panel=JUDGE
    ),
]
JudgeKindOpt = Annotated[
    Optional[str],
    typer.Option(
        "--judge-kind",
        metavar="LIST",
        help="truth, info, verify, relevance, correctness, claims, claim_support: run in order (default: "
        "the benchmark's).",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
JudgeBackendOpt = Annotated[
    str,
    typer.Option(
        "--judge-backend",
        metavar="NAME",
        help="auto | hf | vllm | openai, for the judge.",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
JudgeBaseUrlOpt = Annotated[
    Optional[str],
    typer.Option("--judge-base-url", metavar="URL", help="Server URL of the judge.", rich_help_panel=JUDGE),
]
JudgeChatOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--judge-chat-template",
        metavar=FLAG,
        help="Chat turns (--no-judge-chat-template: never; default: when the judge has a template).",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
NoJudgeChatOpt = Annotated[bool, typer.Option("--no-judge-chat-template", hidden=True)]
JudgeScoringOpt = Annotated[
    str,
    typer.Option(
        "--judge-scoring",
        metavar="NAME",
        help="auto | logprob | generate: a yes/no verdict from log-probs or a generated word.",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
SearchUrlOpt = Annotated[
    Optional[str],
    typer.Option(
        "--search-url", metavar="URL", help="Search service for claim evidence (Serper's API).", rich_help_panel=JUDGE
    ),
]
SearchKeyEnvOpt = Annotated[
    Optional[str],
    typer.Option("--search-api-key-env", metavar="VAR", help="Variable holding the search key.", rich_help_panel=JUDGE),
]
SearchResultsOpt = Annotated[
    int,
    typer.Option(
        "--search-results", parser=at_least(1), metavar="N", help="Search results per claim.", rich_help_panel=JUDGE
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
