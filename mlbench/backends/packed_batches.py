"""Multiple-choice log-likelihoods on a GPU: many packed questions per forward.

On the CPU a question's packed forward (``packed_scoring.py``) is big enough to keep a core
busy, so questions run side by side on threads. On a GPU one question's forward (a few
hundred rows) leaves the device mostly idle: the measured H200 run scored 817 questions as
817 forwards at ~10% utilisation. Here questions that share a prefix are stacked into the
rows of one batch:

- **Batched by tokens.** Questions sorted by their packed length (longest first) fill a
  batch while its rows times its longest length stays within a token budget
  (``batch_budget``: what the GPU's memory holds, at most ``MAX_TOKENS``). Every question
  keeps its own row: its tail and option tree, its real positions, its own mask.
- **One mask a fused kernel takes.** Each row's mask is its question's own (the prefix,
  the causal tail, each option seeing only itself: ``option_tree.allowed_keys``), padded
  with hidden keys to the batch's shape: [rows, 1, length, prefix + length]. SDPA runs it on
  its memory-efficient kernel. The prefix's keys and values come from the prefix cache,
  shared by every row.
- **The head only where it is needed**, across the whole batch: the model's own output
  layer is swapped, for the forward, for one that gathers the rows that predict an option
  token first, so a 49k- or 262k-token vocabulary is projected for those rows alone.
- **Vectorised per batch.** The rows, tokens and option sums of a batch are index arrays
  built on the host; the log-softmax runs in float32 over blocks of rows; one copy brings
  the picked log-probabilities back, and each option's sum is a segment sum (float64).
- **The GPU is never left waiting for the host.** A batch's log-probabilities are copied
  back asynchronously and read only after the next batch has been queued, so the host
  builds batch i + 1 while the GPU computes batch i.

A question's scores equal the one-question forward's up to the float rounding of another
batch shape (within 1e-5 in float32; tested); unlike the CPU path, the last bits can depend
on which questions share a batch, as with lm-eval's batches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mlbench.backends.attention_masks import masks_by_layer_type, windows
from mlbench.backends.kv_cache import cache_keyword, prefilled_cache
from mlbench.backends.option_tree import PackedOptions, allowed_keys
from mlbench.backends.prefix_cache import LayerKV

MAX_TOKENS = 32768  # rows x length of one forward: more does not use a GPU better
MAX_ROWS = 512
SOFTMAX_ROWS = 2048  # rows of logits taken to float32 at a time


@dataclass(frozen=True)
class BatchBudget:
    """How large a batch may be: ``tokens`` (rows x longest packed length) and ``rows``."""

    tokens: int
    rows: int


def plan_batches(lengths: list[int], budget: BatchBudget) -> list[list[int]]:
    """Indices of questions (by packed length) in batches, longest first: each batch's rows
    times its first (longest) length stays within the budget (a question longer than the
    budget goes alone)."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for index in order:
        if batches and len(batches[-1]) < budget.rows:
            if (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= budget.tokens:
                batches[-1].append(index)
                continue
        batches.append([index])
    return batches


def batch_budget(model: Any, prefix_length: int, memory: int) -> BatchBudget:
    """The largest batch ``memory`` bytes hold for this model over a prefix of
    ``prefix_length`` tokens: each row copies the prefix's keys and values, and each token
    costs its own keys and values, its activations, its logits and its mask."""
    config = model.config.get_text_config()
    size = model.dtype.itemsize
    kv_heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    kv = 2 * config.num_hidden_layers * kv_heads * head_dim * size
    # transformers' SDPA attention copies each key head per query head sharing it, one
    # layer at a time: the prefix and the row's own keys and values again, times the group.
    repeated = 2 * config.num_attention_heads * head_dim * size
    activations = (6 * config.hidden_size + 3 * config.intermediate_size) * size
    # The head's output (its float32 copies are taken SOFTMAX_ROWS at a time) and a
    # mask row per layer kind (at most two), of up to the prefix and 1,024 tokens.
    per_token = kv + repeated + activations + config.vocab_size * size + 2 * (prefix_length + 1024) * size
    per_row = prefix_length * (kv + repeated)
    # A row of a typical length (256 tokens) sets how many rows fit.
    rows = max(1, min(MAX_ROWS, memory // (per_row + 256 * per_token)))
    tokens = max(256, min(MAX_TOKENS, memory // per_token, rows * 1024))
    return BatchBudget(tokens, rows)


@dataclass(frozen=True)
class _Batch:
    """A batch's device tensors and the host's index arrays to read its results."""

    ids: Any  # [rows, length]
    positions: Any
    allowed: Any  # numpy bool [rows, length, prefix + length] per window: see _batch
    scored: Any  # flat row indices (row * length + position) whose logits are needed
    pair_rows: Any  # per (option, token): its row in ``scored``
    pair_tokens: Any
    pair_order: Any  # the pairs sorted by row (stable)
    option_starts: Any  # per option: its first pair
    options: list[int]  # per row: its question's options


class BatchedScorer:
    """Scores lists of packed questions that share one prefix, batch by batch."""

    def __init__(self, model: Any, device: str, budget: Callable[[int], BatchBudget]) -> None:
        self.model = model
        self.device = device
        self.budget = budget  # the batch size for a prefix of that many tokens
        self.config = model.config.get_text_config()
        self.forwards: list[tuple[int, int]] = []  # the last call's forwards: (rows, length)

    def score(
        self, packs: list[PackedOptions], prefix: LayerKV | None, prefix_length: int, done: Callable[[int], None]
    ) -> list[list[float]]:
        """Each packed question's option log-likelihoods, in order; ``done(i)`` as question
        ``i``'s are read."""
        self.forwards = []
        out: list[list[float]] = [[] for _ in packs]
        plan = plan_batches([len(p.tokens) for p in packs], self.budget(prefix_length))
        waiting: tuple[list[int], _Batch, Any] | None = None
        for members in plan:
            batch = self._prepare([packs[i] for i in members], prefix_length)
            launched = (members, batch, self._launch(batch, prefix, prefix_length))
            if waiting is not None:
                self._read(*waiting, out, done)
            waiting = launched
        if waiting is not None:
            self._read(*waiting, out, done)
        return out

    # -- host side -----------------------------------------------------------------------

    def _prepare(self, packs: list[PackedOptions], prefix_length: int) -> _Batch:
        import numpy as np

        rows, length = len(packs), max(len(p.tokens) for p in packs)
        ids = np.zeros((rows, length), dtype=np.int64)
        positions = np.zeros((rows, length), dtype=np.int64)
        allowed = {w: np.zeros((rows, length, prefix_length + length), dtype=bool) for w in windows(self.config)}
        scored: list[int] = []
        pair_rows: list[int] = []
        pair_tokens: list[int] = []
        option_starts: list[int] = []
        for row, packed in enumerate(packs):
            size = len(packed.tokens)
            ids[row, :size] = packed.tokens
            positions[row, :size] = packed.positions
            positions[row, size:] = packed.positions[-1]
            for window, mask in allowed.items():
                own = allowed_keys(packed, prefix_length, window)
                mask[row, :size, :prefix_length] = own[:, :prefix_length]
                mask[row, :size, prefix_length : prefix_length + size] = own[:, prefix_length:]
                mask[row, size:, prefix_length + size - 1] = True  # a pad row sees one key: no empty softmax
            first = len(scored)
            rows_here = packed.scored_rows
            where = {r: first + k for k, r in enumerate(rows_here)}
            scored += [row * length + r for r in rows_here]
            for plan in packed.targets:
                option_starts.append(len(pair_rows))
                pair_rows += [where[r] for r, _ in plan]
                pair_tokens += [t for _, t in plan]
        return _Batch(
            ids,
            positions,
            allowed,
            np.asarray(scored),
            np.asarray(pair_rows),
            np.asarray(pair_tokens),
            np.argsort(np.asarray(pair_rows), kind="stable"),
            np.asarray(option_starts),
            [len(p.targets) for p in packs],
        )

    # -- device side ---------------------------------------------------------------------

    def _to_device(self, array: Any) -> Any:
        import torch

        tensor = torch.from_numpy(array)
        if self.device == "cpu":
            return tensor
        # Pinned, so that the copy is queued behind the GPU's work instead of waiting for it.
        return tensor.pin_memory().to(self.device, non_blocking=True)

    def _launch(self, batch: _Batch, prefix: LayerKV | None, prefix_length: int) -> Any:
        """Queue the batch's forward; the picked log-probs (float32), on their way to the host."""
        import torch

        rows, length = batch.ids.shape
        self.forwards.append((rows, length))
        masks = {w: self._to_device(m) for w, m in batch.allowed.items()}
        scored = self._to_device(batch.scored)
        states = [(k.expand(rows, -1, -1, -1), v.expand(rows, -1, -1, -1)) for k, v in prefix] if prefix else None
        with self._head_at(scored):
            logits = self.model(
                input_ids=self._to_device(batch.ids),
                position_ids=self._to_device(batch.positions),
                attention_mask=masks_by_layer_type(self.config, lambda w: masks[w][:, None], self.model.dtype),
                use_cache=True,
                **{cache_keyword(self.model): prefilled_cache(states)},
            ).logits[0]
        # Pairs in row order (``batch.pair_order``), so that each block of rows owns a
        # contiguous run of them whose bounds the host knows: no boolean indexing, which
        # would wait for the GPU.
        order = batch.pair_order
        pair_rows = self._to_device(batch.pair_rows[order])
        pair_tokens = self._to_device(batch.pair_tokens[order])
        bounds = batch.pair_rows[order].searchsorted(range(0, logits.shape[0] + SOFTMAX_ROWS, SOFTMAX_ROWS))
        picked = torch.empty(len(order), dtype=torch.float32, device=logits.device)
        for block, start in enumerate(range(0, logits.shape[0], SOFTMAX_ROWS)):
            first, last = int(bounds[block]), int(bounds[block + 1])
            logprobs = torch.log_softmax(logits[start : start + SOFTMAX_ROWS].float(), dim=-1)
            picked[first:last] = logprobs[pair_rows[first:last] - start, pair_tokens[first:last]]
        if self.device == "cpu":
            return picked
        host = torch.empty(picked.shape, dtype=picked.dtype, pin_memory=True)
        host.copy_(picked, non_blocking=True)
        event = torch.cuda.Event()
        event.record()
        return host, event

    def _read(
        self, members: list[int], batch: _Batch, launched: Any, out: list[list[float]], done: Callable[[int], None]
    ) -> None:
        """Each option's log-likelihood: the sum of its tokens' log-probs, per question."""
        import numpy as np

        if self.device == "cpu":
            picked = launched.numpy()  # a view: the unsorting below copies
        else:
            host, event = launched
            event.synchronize()
            picked = host.numpy()
        unsorted = np.empty_like(picked)
        unsorted[batch.pair_order] = picked
        sums = np.add.reduceat(unsorted.astype(np.float64), batch.option_starts).tolist()
        at = 0
        for index, count in zip(members, batch.options):
            out[index] = sums[at : at + count]
            at += count
            done(index)

    @contextmanager
    def _head_at(self, rows: Any) -> Iterator[None]:
        """The model's output layer, for one forward, applied only to the hidden states of
        the flat rows ``rows`` (whatever the model does to its logits afterwards, scaling or
        soft-capping, still applies): logits [1, len(rows), vocabulary]."""
        head = self.model.get_output_embeddings()

        def forward(hidden: Any) -> Any:
            flat = hidden.reshape(-1, hidden.shape[-1]).index_select(0, rows)
            return type(head).forward(head, flat[None])

        head.forward = forward
        try:
            yield
        finally:
            del head.forward
