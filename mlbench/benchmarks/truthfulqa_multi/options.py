"""TruthfulQA-Multi's own options (`-T key=value`; `mlbench tasks truthfulqa_multi` lists them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mlbench.benchmarks.options import check_choices, option


@dataclass(frozen=True)
class TruthfulQAMultiOptions:
    answer_format: Literal["authors", "clean"] = option(
        "authors",
        "What BLEU scores in gen mode: 'authors' the completion as generated (' A: ...', as "
        "the paper's released runs), 'clean' the answer with its 'A:' label and outer "
        "whitespace removed. Judges and surface checks always read the clean answer.",
    )

    def __post_init__(self) -> None:
        check_choices(self, "truthfulqa_multi")
