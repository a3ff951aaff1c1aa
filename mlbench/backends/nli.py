"""Zero-shot classification with an NLI model, for MSQAD's refusal detector (docs/protocols.md#msqad).

Each (response, label) pair is posed as premise and hypothesis; the entailment logits of
one response's hypotheses are turned into probabilities with a softmax across its labels.
This is what transformers' ``zero-shot-classification`` pipeline does with one label per
answer (``multi_label=False``), and a test holds the two equal. The model loads on first
use and stays loaded for the process; any transformers sequence-classification model
whose labels name an entailment class works (the paper's: an XNLI model).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from mlbench.backends.embedders import torch_device
from mlbench.errors import MlbenchError

DEFAULT_NLI_MODEL = "joeddav/xlm-roberta-large-xnli"
MAX_TOKENS = 512


class NliClassifier:
    def __init__(self, name: str, batch_size: int = 16) -> None:
        try:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(name)
            self.model = AutoModelForSequenceClassification.from_pretrained(name).to(torch_device()).eval()
        except Exception as error:  # noqa: BLE001 - hub, file and format errors all end here
            reason = (str(error).splitlines() or [type(error).__name__])[0][:160]
            raise MlbenchError(
                f"could not load the NLI model {name!r} ({reason}); pass -T nli_model=PATH with a "
                "local sequence-classification model, or use -T refusal=patterns (offline)"
            ) from None
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.name = name
        self.batch_size = batch_size
        self.entailment = _entailment_index(self.model.config.label2id)
        limits = [self.tokenizer.model_max_length, getattr(self.model.config, "max_position_embeddings", MAX_TOKENS)]
        self.max_tokens = min(MAX_TOKENS, *limits)

    def entailment_logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """The entailment logit of each (premise, hypothesis) pair."""
        import torch

        # Longest first, so each batch pads little.
        order = sorted(range(len(pairs)), key=lambda i: -len(pairs[i][0]))
        logits = np.zeros(len(pairs))
        for start in range(0, len(order), self.batch_size):
            chosen = order[start : start + self.batch_size]
            encoded = self.tokenizer(
                [pairs[i][0] for i in chosen],
                [pairs[i][1] for i in chosen],
                padding=True,
                truncation="only_first",  # cut the response, never the label
                max_length=self.max_tokens,
                return_tensors="pt",
            )
            with torch.inference_mode():
                out = self.model(**encoded.to(self.model.device)).logits
            logits[chosen] = out[:, self.entailment].float().cpu().numpy()
        return logits

    def label_probabilities(self, texts: Sequence[str], hypotheses: Sequence[Sequence[str]]) -> list[list[float]]:
        """For each text, the probability of each of its hypotheses: the softmax of their
        entailment logits."""
        pairs = [(text, h) for text, mine in zip(texts, hypotheses, strict=True) for h in mine]
        logits = self.entailment_logits(pairs)
        out, start = [], 0
        for mine in hypotheses:
            row = logits[start : start + len(mine)]
            start += len(mine)
            weights = np.exp(row - row.max())
            out.append([float(w) for w in weights / weights.sum()])
        return out


def _entailment_index(label2id: dict[str, int]) -> int:
    for label, index in label2id.items():
        if label.lower().startswith("entail"):
            return int(index)
    raise MlbenchError(f"the NLI model has no entailment label (its labels: {', '.join(label2id)})")


@functools.lru_cache(maxsize=2)
def load_nli(name: str) -> NliClassifier:
    return NliClassifier(name)
