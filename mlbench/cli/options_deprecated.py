"""The benchmark flags of earlier releases (``--topic``, ``--samples``, ...), kept for one
release: hidden from the help, each maps to the task option that replaced it (``-T
topics=...``) and says so in one warning line. As before, a task that does not take the
option ignores it (``--kind`` other than all excepted: it was refused then too)."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from mlbench.benchmarks.options import OptionSetting


def _hidden(flag: str) -> Any:
    return typer.Option(flag, hidden=True, show_default=False)


# parameter name → (flag, the task option it sets)
DEPRECATED = {
    "kind": ("--kind", "kind"),
    "dataset": ("--dataset", "datasets"),
    "healthqa": ("--healthqa", "healthqa_file"),
    "samples": ("--samples", "samples"),
    "temperatures": ("--temperatures", "temperatures"),
    "embedder": ("--embedder", "embedder"),
    "bertscore_model": ("--bertscore-model", "bertscore_model"),
    "bertscore_layer": ("--bertscore-layer", "bertscore_layer"),
    "verify_scoring": ("--verify-scoring", "verify_scoring"),
    "topic": ("--topic", "topics"),
    "refusal": ("--refusal", "refusal"),
    "nli_model": ("--nli-model", "nli_model"),
    "refusal_threshold": ("--refusal-threshold", "refusal_threshold"),
    "permutations": ("--permutations", "permutations"),
}

# Each takes text, read by the task option's parser like a -T value.
KindOpt = Annotated[Optional[str], _hidden("--kind")]
DatasetOpt = Annotated[Optional[str], _hidden("--dataset")]
HealthQAOpt = Annotated[Optional[str], _hidden("--healthqa")]
SamplesOpt = Annotated[Optional[str], _hidden("--samples")]
TemperaturesOpt = Annotated[Optional[str], _hidden("--temperatures")]
EmbedderOpt = Annotated[Optional[str], _hidden("--embedder")]
BertscoreModelOpt = Annotated[Optional[str], _hidden("--bertscore-model")]
BertscoreLayerOpt = Annotated[Optional[str], _hidden("--bertscore-layer")]
VerifyScoringOpt = Annotated[Optional[str], _hidden("--verify-scoring")]
TopicOpt = Annotated[Optional[str], _hidden("--topic")]
RefusalOpt = Annotated[Optional[str], _hidden("--refusal")]
NliModelOpt = Annotated[Optional[str], _hidden("--nli-model")]
RefusalThresholdOpt = Annotated[Optional[str], _hidden("--refusal-threshold")]
PermutationsOpt = Annotated[Optional[str], _hidden("--permutations")]


def deprecated_settings(parameters: dict[str, Any]) -> list[OptionSetting]:
    """The deprecated flags given among a command's ``parameters``, as task option settings;
    one warning line for each."""
    settings = []
    for name, (flag, key) in DEPRECATED.items():
        value = parameters.get(name)
        if value is None:
            continue
        print(
            f"mlbench: {flag} is deprecated and will be removed in the next release; use -T {key}=...",
            file=sys.stderr,
        )
        strict = name == "kind" and value.strip() != "all"
        settings.append(OptionSetting(key, value, origin=flag, strict=strict))
    return settings
