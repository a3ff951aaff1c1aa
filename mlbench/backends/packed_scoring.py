"""Multiple-choice log-likelihoods on a transformers model: a question to a forward.

For each question (a context and the options to score after it):

1. The prompt's shared prefix (the few-shot primer) comes from ``PrefixCache``: computed
   once per language, with every thread.
2. The rest of the context and all options follow in one packed sequence, a token tree in
   which each option sees only the context and itself (``option_tree.py``), on top of the
   prefix's KV states; the model's head runs only at the rows that predict an option token.
   On the CPU several questions run at once, one per worker thread with one torch thread each.

A question's score depends on the question alone: its prefix split comes from its prompt
and its forward has its own shapes, computed the same way whichever thread runs it. So on
the CPU scores are the same bits however a run is chunked, batched or resumed. (On a GPU,
``packed_batches.py`` stacks many questions into one forward.)

(Tried and dropped: running the head separately over the scored rows of a whole call in
fixed-size blocks, to read the vocabulary projection's weights once per block. On 2 CPU
cores it was no faster for Gemma 3 270M, whose 262k-token head is compute-bound anyway.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from mlbench.backends.attention_masks import masks_by_layer_type
from mlbench.backends.base import ProgressCallback
from mlbench.backends.kv_cache import cache_keyword, prefilled_cache
from mlbench.backends.option_tree import PackedOptions, allowed_keys, pack_options
from mlbench.backends.packed_batches import BatchedScorer
from mlbench.backends.prefix_cache import LayerKV, PrefixCache

T = TypeVar("T")
# Layer kinds whose attention a packed forward can reproduce with an explicit mask.
PACKABLE_LAYER_TYPES = {"full_attention", "sliding_attention"}


@dataclass(frozen=True)
class Question:
    """One context and the options to score after it, as token ids."""

    context: list[int]
    shared: int  # leading context tokens that are the prompt's shared prefix
    continuations: list[list[int]]

    @property
    def prefix_length(self) -> int:
        """Tokens taken from the prefix cache: never the context's last, whose output
        predicts the options' first tokens."""
        return min(self.shared, len(self.context) - 1)


def packing_supported(model: Any) -> bool:
    """Whether ``model`` takes a custom 4D attention mask (sdpa and eager attention do;
    flash attention ignores masks) on layers whose attention the mask can express."""
    implementation = getattr(model.config, "_attn_implementation", None)
    layer_types = set(getattr(model.config.get_text_config(), "layer_types", None) or ["full_attention"])
    return implementation in ("sdpa", "eager") and layer_types <= PACKABLE_LAYER_TYPES


class PackedScorer:
    def __init__(self, model: Any, device: str, workers: int, batched: BatchedScorer | None = None) -> None:
        self.model = model
        self.device = device
        self.workers = workers  # questions scored at once on the CPU
        self.batched = batched  # on a GPU: many questions per forward (packed_batches.py)
        self.config = model.config.get_text_config()
        self.prefix_cache = PrefixCache(self._prefix_kv)

    def score(self, questions: list[Question], progress: ProgressCallback | None = None) -> list[list[float]]:
        """Each question's option log-likelihoods, in order."""
        import torch

        with torch.inference_mode():  # each shared prefix once, with every thread
            for question in questions:
                if question.prefix_length:
                    self.prefix_cache.kv(tuple(question.context[: question.prefix_length]))
            if self.batched is not None:
                return self._score_batched(self.batched, questions, progress)
        out = []
        for question, scores in zip(questions, self._map(self._score, questions)):
            out.append(scores)
            if progress:
                progress(len(question.continuations))
        return out

    def _map(self, work: Callable[[Question], T], questions: list[Question]) -> Iterator[T]:
        """``work`` over ``questions`` in order. On the CPU, one question per worker thread
        with one torch thread each: a question's forward is too small to keep several cores
        busy (measured on 2 cores: 25-35% faster than one question at a time), and every
        question is computed the same single-threaded way however the work is split."""
        import torch

        def run(question: Question) -> T:
            with torch.inference_mode():  # thread-local: entered in the worker
                return work(question)

        if self.device != "cpu":
            yield from map(run, questions)
            return
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with ThreadPoolExecutor(max(1, min(self.workers, len(questions)))) as pool:
                yield from pool.map(run, questions)
        finally:
            torch.set_num_threads(threads)

    def _score_batched(
        self, batched: BatchedScorer, questions: list[Question], progress: ProgressCallback | None
    ) -> list[list[float]]:
        """The questions of each prefix packed and scored many to a forward."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for index, question in enumerate(questions):
            groups.setdefault(tuple(question.context[: question.prefix_length]), []).append(index)
        out: list[list[float]] = [[] for _ in questions]
        for prefix, members in groups.items():
            start = len(prefix)
            packs = [pack_options(questions[i].context[start:], start, questions[i].continuations) for i in members]

            def done(k: int, members: list[int] = members) -> None:
                if progress:
                    progress(len(questions[members[k]].continuations))

            scores = batched.score(packs, self.prefix_cache.kv(prefix) if start else None, start, done)
            for index, values in zip(members, scores):
                out[index] = values
        return out

    # -- the model's parts ---------------------------------------------------------------

    def _prefix_kv(self, tokens: list[int]) -> LayerKV:
        """KV states of a shared prefix, from one forward over its tokens."""
        import torch

        # A cache built without the config keeps every layer whole (a sliding-window layer
        # built from the config would drop old keys that later rows must see).
        cache = prefilled_cache(None)
        ids = torch.tensor([tokens], device=self.device)
        self.model(ids, use_cache=True, logits_to_keep=1, **{cache_keyword(self.model): cache})
        return [(layer.keys, layer.values) for layer in cache.layers]

    def _score(self, question: Question) -> list[float]:
        """One question's options from one packed forward on top of its prefix's KV states."""
        import torch

        start = question.prefix_length
        past = prefilled_cache(self.prefix_cache.kv(tuple(question.context[:start])) if start else None)
        packed = pack_options(question.context[start:], start, question.continuations)
        rows = packed.scored_rows
        output = self.model(
            input_ids=torch.tensor([packed.tokens], device=self.device),
            position_ids=torch.tensor([packed.positions], device=self.device),
            attention_mask=self._attention_mask(packed, start),
            use_cache=True,
            logits_to_keep=torch.tensor(rows, device=self.device),
            **{cache_keyword(self.model): past},
        )
        logprobs = torch.log_softmax(output.logits[0].float(), dim=-1)
        where = {row: i for i, row in enumerate(rows)}
        pairs = [pair for plan in packed.targets for pair in plan]
        picked = logprobs[[where[row] for row, _ in pairs], [token for _, token in pairs]].tolist()
        scores, at = [], 0
        for plan in packed.targets:
            scores.append(sum(picked[at : at + len(plan)]))
            at += len(plan)
        return scores

    def _attention_mask(self, packed: PackedOptions, prefix_length: int) -> Any:
        """Additive 4D mask(s) for a packed forward: one tensor, or one per layer type for
        models whose layers attend differently (Gemma 3's sliding-window layers)."""
        import torch

        def allowed(window: int | None) -> Any:
            return torch.from_numpy(allowed_keys(packed, prefix_length, window)).to(self.device)[None, None]

        return masks_by_layer_type(self.config, allowed, self.model.dtype)
