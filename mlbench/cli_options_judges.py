"""The options of the judges (`run --judge …` and `mlbench judge`)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mlbench.cli_options import FLAG, JUDGE, RUN

JudgeOpt = Annotated[
    str,
    typer.Option(
        "--judge",
        metavar="NAME",
        help="Judge model: HF hub id, local path, or a served model's name.",
        rich_help_panel=JUDGE,
    ),
]
RunJudgeOpt = Annotated[
    Optional[str],
    typer.Option(
        "--judge",
        metavar="NAME",
        help="Judge the generated answers with this model when the run ends.",
        rich_help_panel=JUDGE,
    ),
]
JudgeKindOpt = Annotated[
    Optional[str],
    typer.Option(
        "--judge-kind",
        metavar="LIST",
        help="truth | info | verify | relevance | correctness | claims | claim_support; several comma-separated "
        "run in order with one judge model. Default: the benchmark's own (truth; CaLMQA: "
        "relevance,claims,claim_support).",
        rich_help_panel=JUDGE,
        show_default=False,
    ),
]
JudgeBackendOpt = Annotated[
    str,
    typer.Option(
        "--judge-backend", metavar="NAME", help="auto | hf | vllm | openai, for the judge model.", rich_help_panel=JUDGE
    ),
]
JudgeBaseUrlOpt = Annotated[
    Optional[str],
    typer.Option(
        "--judge-base-url",
        metavar="URL",
        help="Server URL of the judge (--judge-backend openai).",
        rich_help_panel=JUDGE,
    ),
]
JudgeChatOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--judge-chat-template",
        metavar=FLAG,
        help="Send judge prompts as chat turns; --no-judge-chat-template: never (default: when the judge has a "
        "chat template; always with a server).",
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
        help="auto | logprob | generate. Yes/no judges: P(yes) from log-probs (auto), or a generated word parsed "
        "(for APIs without log-probs). Prompted judges always generate.",
        rich_help_panel=JUDGE,
    ),
]
SearchUrlOpt = Annotated[
    Optional[str],
    typer.Option(
        "--search-url",
        metavar="URL",
        help="Search service for claim evidence where a question has no human answer (POST {q, num} → JSON "
        "results with snippets; Serper's shape works).",
        rich_help_panel=JUDGE,
    ),
]
SearchKeyEnvOpt = Annotated[
    Optional[str],
    typer.Option(
        "--search-api-key-env",
        metavar="VAR",
        help="Environment variable holding the search service's key.",
        rich_help_panel=JUDGE,
    ),
]
SearchResultsOpt = Annotated[
    int,
    typer.Option("--search-results", min=1, metavar="N", help="Search results per claim.", rich_help_panel=JUDGE),
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
