"""Greedy decoding on a GPU: fixed shapes, KV buffers at fixed addresses, the one-token step
recorded once as a CUDA graph and replayed, the host looking at the tokens every few steps.

What the CPU decoder (``greedy_decode.GreedyDecoder``) computes, arranged for a GPU, where
a step of a small model is mostly Python, kernel launches and host synchronisation:

- **Fixed shapes.** A batch's rows are padded to a row bucket (``ROW_BUCKETS``; pad rows
  repeat the first row) and its keys and values live in buffers of a fixed capacity
  (the longest prompt plus the largest budget, rounded up to ``SLOT_GRANULE``), allocated
  and recorded once per (rows, capacity) and reused by the later batches and calls at
  that capacity (freed for another capacity, and before MC scoring: ``release``).
- **Left padding, one write slot.** Every row's prompt ends at the same slot, so step t
  writes every row's new keys into the same slot: a device counter, not a Python int.
- **Positions, not lengths.** Each slot holds the real position of its key (-1 for a pad;
  the future slots the positions their tokens will have). A query sees the keys at or
  before its own position (and, on sliding-window layers, within the window): the mask is
  computed from two small integer tensors inside the step, so unwritten slots are hidden
  without being cleared and nothing about it is decided on the host.
- **No host synchronisation per token.** The step writes its token into an output buffer
  and advances its counters on the device. The host reads the buffer every ``BLOCK_STEPS``
  steps, queues the next block at once, and meanwhile ends rows by ``row_end.row_end`` (end
  token, stop string, budget) at the token where a per-token look would have; the
  overshoot is dropped. Finished rows stay in the
  batch (their work is ignored) until the live rows fit a bucket half the size, when they
  move to buffers of that size (``_compact``).
- **Attention on fused kernels, no KV copies**: ``decode_attention.folded_sdpa``.
- **CUDA graphs** through the ``step_graphs.Capture`` seam (``eager`` on the CPU, where the
  tests run this same code against ``model.generate``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mlbench.backends.attention_masks import masks_by_layer_type
from mlbench.backends.base import ProgressCallback
from mlbench.backends.decode_attention import attention_for
from mlbench.backends.greedy_decode import GreedyDecoder, Row
from mlbench.backends.kv_cache import cache_keyword
from mlbench.backends.prefix_cache import PrefixCache
from mlbench.backends.row_end import recent_tokens, row_end
from mlbench.backends.step_graphs import Capture, Step, eager
from mlbench.records import Generation

ROW_BUCKETS = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256)
SLOT_GRANULE = 256  # capacities are multiples of this: batches of similar prompts share buffers
BLOCK_STEPS = 8  # steps run on the device between two looks at the tokens


def row_bucket(rows: int) -> int:
    """The batch size ``rows`` live rows run at: the smallest bucket that holds them (beyond
    the largest, the next multiple of it)."""
    for size in ROW_BUCKETS:
        if rows <= size:
            return size
    return -(-rows // ROW_BUCKETS[-1]) * ROW_BUCKETS[-1]


def slot_capacity(tokens: int) -> int:
    """Key slots for rows that may need ``tokens`` each."""
    return -(-tokens // SLOT_GRANULE) * SLOT_GRANULE


def static_supported(model: Any) -> bool:
    """Whether the model runs on ``decode_attention.folded_sdpa``: models set to transformers'
    ``sdpa`` attention (an ``eager`` one may rely on what SDPA cannot do, soft-capping)."""
    return getattr(model.config, "_attn_implementation", None) == "sdpa"


@functools.cache
def _static_layer_class() -> type:
    """A ``DynamicLayer`` whose keys and values are fixed buffers [rows, kv heads, capacity,
    head dim]: a forward of n tokens writes them at slots ``slot`` .. ``slot`` + n - 1 (a
    device counter) and attends over the whole buffer. Defined on first use: transformers
    is imported only when needed."""
    import torch
    from transformers.cache_utils import DynamicLayer

    class StaticLayer(DynamicLayer):
        # Set from the start (a DynamicLayer's are None until its first update).
        keys: torch.Tensor
        values: torch.Tensor

        def __init__(self, keys: Any, values: Any, slot: Any, offsets: Any) -> None:
            super().__init__()
            self.keys, self.values, self.slot, self.offsets = keys, values, slot, offsets
            self.dtype, self.device, self.is_initialized = keys.dtype, keys.device, True

        def update(self, key_states: Any, value_states: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
            index = self.slot + self.offsets[: key_states.shape[-2]]
            self.keys.index_copy_(2, index, key_states)
            self.values.index_copy_(2, index, value_states)
            return self.keys, self.values

        def get_seq_length(self) -> int:
            return self.keys.shape[2]

        def get_mask_sizes(self, query_length: int) -> tuple[int, int]:
            return self.keys.shape[2], 0

    return StaticLayer


@dataclass
class _Slots:
    """The fixed tensors of one (rows, capacity) shape; a recorded step reads only these."""

    rows: int
    capacity: int
    cache: Any  # transformers Cache of StaticLayers over the buffers below
    buffers: list[tuple[Any, Any]]  # per layer: keys, values [rows, kv heads, capacity, head dim]
    ids: Any  # [rows, 1]: each row's last token, the step's input
    positions: Any  # [rows, 1]: that token's real position
    key_positions: Any  # [rows, capacity]: the real position of each slot's key, -1 for none
    slot: Any  # [1]: the slot the next token's keys go to
    step: Any  # [1]: the column of ``out`` the next token goes to
    out: Any  # [rows, capacity]: the new tokens, column t holding step t's
    run: Step | None = None  # each further step, once recorded


class StaticDecoder(GreedyDecoder):
    """``GreedyDecoder``'s results from fixed-shape steps run through ``capture``: in
    float32 the same tokens as ``model.generate`` greedy on each prompt alone (tested); in
    bfloat16 the batch shape's rounding can turn a near-tie either way, as in any batched
    decoder."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        device: str,
        prefix_cache: PrefixCache | None,
        batch_size: Callable[[int], int],
        capture: Capture = eager,
    ) -> None:
        super().__init__(model, tokenizer, device, prefix_cache, batch_size)
        self.capture = capture
        # Buffers (and recorded steps) by (rows, capacity), kept across the calls of a run
        # (a generation run's chunks decode at the same shapes: each is recorded once)
        # until another capacity is needed or MC scoring wants the memory (``release``:
        # a run of both modes records its shapes again after each call's MC).
        self._shapes: dict[tuple[int, int], _Slots] = {}
        self.max_position = int(getattr(self.config, "max_position_embeddings", 0) or 1 << 30) - 1

    def release(self) -> None:
        """Free the buffers and recorded steps (before MC batches, which size themselves
        by the memory free when the backend started)."""
        for slots in self._shapes.values():
            slots.run = None  # an eager step holds its slots: no cycle left for the collector
        self._shapes.clear()

    # -- one batch -----------------------------------------------------------------------

    def _decode(
        self, prefix: tuple[int, ...], rows: list[Row], progress: ProgressCallback | None
    ) -> list[tuple[Row, Generation]]:
        shared = len(prefix)
        width = max(len(row.prompt.tokens) - shared for row in rows)
        budget = max(row.prompt.max_new_tokens for row in rows)
        slots = self._slots(row_bucket(len(rows)), slot_capacity(shared + width + budget))
        self._prefill(slots, prefix, rows)
        live = dict(enumerate(rows))  # slot row -> row
        checked = {id(row): 0 for row in rows}  # tokens of each row already looked at
        finished: list[tuple[Row, Generation]] = []
        made, read = 1, 0  # tokens in ``out`` (the prefill gave the first), tokens read from it
        with attention_for(self.model):
            while True:
                fresh = slots.out[:, read:made].tolist()  # the one wait for the GPU per block
                read = made
                # The next block is queued before the host looks at these tokens, so the
                # GPU works while it does (a row that ended meanwhile drops its overshoot).
                queued = self._steps(slots, max(row.prompt.max_new_tokens for row in live.values()) - made)
                for index, row in live.items():
                    row.new += fresh[index]
                recent = self._recent(list(live.values()), checked)
                for (index, row), window in zip(list(live.items()), recent):
                    prompt = row.prompt
                    text = row.decoded(self.text_of)
                    end = row_end(text, checked[id(row)], prompt.max_new_tokens, prompt.stop, self.end_tokens, window)
                    checked[id(row)] = made
                    if end is not None:
                        generation, used = end
                        del row.new[used:]  # the overshoot dropped
                        finished.append((row, generation))
                        del live[index]
                        if progress:
                            progress(1)
                made += queued
                if not live:
                    return finished
                if row_bucket(len(live)) <= slots.rows // 2:
                    slots, live = self._compact(slots, live)

    def _steps(self, slots: _Slots, left: int) -> int:
        """Queue up to ``BLOCK_STEPS`` steps (``left``: the most any live row still needs)."""
        steps = max(0, min(BLOCK_STEPS, left))
        for _ in range(steps):
            self.forwards.append((slots.rows, 1))
            if slots.run is None:
                slots.run = self.capture(functools.partial(self._one_step, slots))  # took one step
            else:
                slots.run()
        return steps

    def _one_step(self, slots: _Slots) -> None:
        """One token for every row, from and into ``slots`` only (recordable as a graph)."""
        logits = self._slots_forward(slots, slots.ids, slots.positions)
        token = logits[:, -1].argmax(-1)
        slots.out.index_copy_(1, slots.step, token[:, None])
        slots.ids.copy_(token[:, None])
        # A row that has ended runs on (its tokens are dropped) and must not step past the
        # model's last position: a model with learned positions would fail on the device.
        slots.positions.add_(1).clamp_(max=self.max_position)
        slots.slot.add_(1)
        slots.step.add_(1)

    def _slots_forward(self, slots: _Slots, ids: Any, positions: Any) -> Any:
        query = positions[:, :, None]
        key = slots.key_positions[:, None, :]
        causal = (key >= 0) & (key <= query)

        def allowed(window: int | None) -> Any:
            return (causal if window is None else causal & (query - key < window))[:, None]

        output = self.model(
            input_ids=ids,
            position_ids=positions,
            attention_mask=masks_by_layer_type(self.config, allowed, None),
            use_cache=True,
            logits_to_keep=1,
            **{cache_keyword(self.model): slots.cache},
        )
        return output.logits

    # -- the buffers -----------------------------------------------------------------------

    def _slots(self, rows: int, capacity: int) -> _Slots:
        """The buffers of this shape: kept from an earlier batch, or made now."""
        import torch
        from transformers.cache_utils import Cache

        key = (rows, capacity)
        if key in self._shapes:
            return self._shapes[key]
        for other in [k for k in self._shapes if k[1] != capacity]:  # another capacity: not needed again soon
            self._shapes.pop(other).run = None
        config = self.config
        kv_heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
        on = self.device

        def zeros() -> torch.Tensor:
            # Zeros, not empty: a hidden slot's value is multiplied by a zero weight, and NaN
            # times zero would not vanish.
            return torch.zeros(rows, kv_heads, capacity, head_dim, dtype=self.model.dtype, device=on)

        buffers = [(zeros(), zeros()) for _ in range(config.num_hidden_layers)]
        slot = torch.zeros(1, dtype=torch.long, device=on)
        offsets = torch.arange(capacity, device=on)
        layer = _static_layer_class()
        slots = _Slots(
            rows,
            capacity,
            Cache(layers=[layer(k, v, slot, offsets) for k, v in buffers]),
            buffers,
            ids=torch.zeros(rows, 1, dtype=torch.long, device=on),
            positions=torch.zeros(rows, 1, dtype=torch.long, device=on),
            key_positions=torch.full((rows, capacity), -1, dtype=torch.long, device=on),
            slot=slot,
            step=torch.zeros(1, dtype=torch.long, device=on),
            out=torch.zeros(rows, capacity, dtype=torch.long, device=on),
        )
        self._shapes[key] = slots
        return slots

    def _prefill(self, slots: _Slots, prefix: tuple[int, ...], rows: list[Row]) -> None:
        """The prefix's keys from the prefix cache, each row's own tokens in one forward
        (left-padded; pad rows repeat row 0), the first new token into ``out``."""
        import torch

        shared = len(prefix)
        own = [row.prompt.tokens[shared:] for row in rows]
        own += [own[0]] * (slots.rows - len(rows))
        width = max(map(len, own))
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        positions = [[-1] * (width - len(t)) + list(range(shared, shared + len(t))) for t in own]
        key_positions = torch.full((slots.rows, slots.capacity), -1, dtype=torch.long)
        key_positions[:, :shared] = torch.arange(shared)
        key_positions[:, shared : shared + width] = torch.tensor(positions)
        after = slots.capacity - shared - width
        starts = torch.tensor([shared + len(t) for t in own])
        key_positions[:, shared + width :] = starts[:, None] + torch.arange(after)
        slots.key_positions.copy_(key_positions)
        if shared and self.prefix_cache is not None:
            for (keys, values), (k, v) in zip(slots.buffers, self.prefix_cache.kv(prefix)):
                keys[:, :, :shared] = k
                values[:, :, :shared] = v
        slots.slot.fill_(shared)
        self.forwards.append((slots.rows, width))
        ids = torch.tensor([[pad] * (width - len(t)) + t for t in own], device=self.device)
        query = torch.tensor(positions, device=self.device).clamp(min=0)  # a pad's query sees position 0
        with attention_for(self.model):
            logits = self._slots_forward(slots, ids, query)
        first = logits[:, -1].argmax(-1)
        slots.ids.copy_(first[:, None])
        slots.positions.copy_(starts[:, None].to(self.device))
        slots.out[:, 0] = first
        slots.slot.fill_(shared + width)
        slots.step.fill_(1)

    def _recent(self, rows: list[Row], checked: dict[int, int]) -> list[str]:
        """The text of each row's newest tokens, where a stop string they completed would be
        (``row_end.recent_tokens``), decoded in one call: a look costs the block's tokens,
        not the row's."""
        windows = [
            recent_tokens(row.new, checked[id(row)], row.prompt.max_new_tokens, row.prompt.stop, self.end_tokens)
            for row in rows
        ]
        return self.tokenizer.batch_decode(windows, skip_special_tokens=True)

    def _compact(self, slots: _Slots, live: dict[int, Row]) -> tuple[_Slots, dict[int, Row]]:
        """The live rows moved to buffers of the bucket they fit (pad rows repeat the first)."""
        import torch

        smaller = self._slots(row_bucket(len(live)), slots.capacity)
        kept = list(live) + [next(iter(live))] * (smaller.rows - len(live))
        index = torch.tensor(kept, device=self.device)
        for (keys, values), (old_keys, old_values) in zip(smaller.buffers, slots.buffers):
            torch.index_select(old_keys, 0, index, out=keys)
            torch.index_select(old_values, 0, index, out=values)
        for name in ("ids", "positions", "key_positions", "out"):
            torch.index_select(getattr(slots, name), 0, index, out=getattr(smaller, name))
        smaller.slot.copy_(slots.slot)
        smaller.step.copy_(slots.step)
        return smaller, {new: live[old] for new, old in enumerate(live)}
