"""Greedy generation on a transformers model: the primer's KV once, a batch that shrinks.

What ``model.generate`` computes greedily, less the waste of a few-shot run:

1. The prompt's shared prefix (the few-shot primer, ``Prompt.shared_prefix``) comes from
   ``PrefixCache``: computed once per language, copied into every row of a batch.
2. Prompts sorted by length are batched. Each row's own tokens follow the primer, padded
   on their left to the batch's longest, in one forward whose head runs only at the last
   position. Every real token gets its position in its own unpadded prompt and an explicit
   4D mask hides the pads (and, on sliding-window layers, keys a window or more behind in
   real positions), so a row computes what it would compute alone.
3. Then one token per step for the rows still running. Each row's new tokens are decoded
   as they arrive; a row ends at a stop string in its text, an end-of-sequence token, or
   its token budget, and leaves the batch and the KV cache at once.

Keys and values live in buffers allocated once per batch (grown by doubling when needed):
a step writes one slot where ``DynamicCache`` would copy the whole cache.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from mlbench.backends.attention_masks import masks_by_layer_type
from mlbench.backends.base import ProgressCallback
from mlbench.backends.kv_cache import cache_keyword
from mlbench.backends.packed_scoring import packing_supported
from mlbench.backends.prefix_cache import PrefixCache
from mlbench.backends.row_end import RowText, recent_tokens, row_end
from mlbench.records import Generation

# The CPU head's rows: padded to a multiple of HEAD_ROW_BLOCK from HEAD_DIRECT_ROWS on
# (see GreedyDecoder._head_in_blocks).
HEAD_ROW_BLOCK = 16
HEAD_DIRECT_ROWS = 4

# Generation-config settings under which greedy decoding is more than argmax of the logits.
_LOGIT_CHANGING = {
    "repetition_penalty": (None, 1.0),
    "encoder_repetition_penalty": (None, 1.0),
    "no_repeat_ngram_size": (None, 0),
    "bad_words_ids": (None,),
    "suppress_tokens": (None,),
    "begin_suppress_tokens": (None,),
    "forced_bos_token_id": (None,),
    "forced_eos_token_id": (None,),
    "sequence_bias": (None,),
    "min_length": (None, 0),
    "min_new_tokens": (None, 0),
    "exponential_decay_length_penalty": (None,),
    "guidance_scale": (None, 1.0),
}


def greedy_supported(model: Any) -> bool:
    """Whether ``GreedyDecoder`` reproduces ``model.generate(do_sample=False)``: the model
    takes explicit 4D masks (``packing_supported``) and its generation config changes no
    logits (no repetition penalty, suppressed tokens, ...)."""
    config = getattr(model, "generation_config", None)
    plain = all(getattr(config, name, None) in allowed for name, allowed in _LOGIT_CHANGING.items())
    return packing_supported(model) and plain


def end_token_ids(model: Any, tokenizer: Any) -> set[int]:
    """The tokens that end a sequence for ``model.generate``: its generation config's
    (one id or several), else the tokenizer's."""
    ids = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if ids is None:
        ids = tokenizer.eos_token_id
    return set(ids if isinstance(ids, (list, tuple)) else [] if ids is None else [ids])


@dataclass(frozen=True)
class GreedyPrompt:
    tokens: list[int]
    shared: int  # leading tokens that are the prompt's shared prefix (0: none)
    max_new_tokens: int  # at least 1; already within the model's context
    stop: tuple[str, ...] = ()

    @property
    def prefix_length(self) -> int:
        """Tokens taken from the prefix cache: never the prompt's last, whose output gives
        the first new token."""
        return min(self.shared, len(self.tokens) - 1)


@dataclass
class Row:
    """A prompt being decoded: its place in the caller's list and its new tokens so far."""

    index: int  # in the caller's list
    prompt: GreedyPrompt
    new: list[int] = field(default_factory=list)
    text: RowText | None = None  # the text of ``new``, as far as the decoder looked at it

    def decoded(self, decode: Callable[[list[int]], str]) -> RowText:
        """The text of the row's new tokens (one object for the row's life: it keeps what
        was decoded)."""
        if self.text is None:
            self.text = RowText(self.new, decode)
        return self.text


@functools.cache
def _slot_layer_class() -> type:
    """``DynamicLayer`` with its keys and values in buffers [batch, kv heads, capacity,
    head dim] (so that a ``Cache`` takes it as one of its own); the model sees the first
    ``length`` slots. Defined on first use: transformers is imported only when needed."""
    import torch
    from transformers.cache_utils import DynamicLayer

    class SlotLayer(DynamicLayer):
        def __init__(self, rows: int, capacity: int, prefix: tuple[Any, Any] | None) -> None:
            super().__init__()
            self.rows, self.capacity, self.length = rows, capacity, 0
            if prefix is not None:
                self.update(*prefix)

        def update(self, key_states: Any, value_states: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
            if not self.is_initialized:
                self._allocate(self.capacity, key_states, value_states)
            end = self.length + key_states.shape[-2]
            if end > self.buffers[0].shape[2]:  # doubled: a copy now and then, not every step
                kept = [b[:, :, : self.length] for b in self.buffers]
                self._allocate(max(end, 2 * self.buffers[0].shape[2]), *kept)
                for buffer, old in zip(self.buffers, kept):
                    buffer[:, :, : self.length] = old
            self.buffers[0][:, :, self.length : end] = key_states  # a shared prefix's one row: to every row
            self.buffers[1][:, :, self.length : end] = value_states
            self.length = end
            self._view()
            return self.keys, self.values

        def _allocate(self, slots: int, keys: Any, values: Any) -> None:
            options = {"dtype": keys.dtype, "device": keys.device}
            self.buffers = tuple(
                torch.empty(self.rows, like.shape[1], slots, like.shape[3], **options) for like in (keys, values)
            )
            self.dtype, self.device, self.is_initialized = keys.dtype, keys.device, True

        def _view(self) -> None:
            self.keys = self.buffers[0][:, :, : self.length]
            self.values = self.buffers[1][:, :, : self.length]

        def keep_rows(self, rows: Any) -> None:
            self.buffers = tuple(b.index_select(0, rows) for b in self.buffers)
            self.rows = len(rows)
            self._view()

        def get_seq_length(self) -> int:
            return self.length

        def get_mask_sizes(self, query_length: int) -> tuple[int, int]:
            return self.length + query_length, 0

    return SlotLayer


class GreedyDecoder:
    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        device: str,
        prefix_cache: PrefixCache | None,
        batch_size: Callable[[int], int],
    ) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.device = device
        self.prefix_cache = prefix_cache  # None: every prompt computed whole
        self.batch_size = batch_size  # rows per batch, given the slots a row may need
        self.config = model.config.get_text_config()
        self.end_tokens = end_token_ids(model, tokenizer)
        self.text_of = functools.partial(tokenizer.decode, skip_special_tokens=True)  # token ids -> text
        self.forwards: list[tuple[int, int]] = []  # the last call's forwards: (rows, tokens per row)

    def generate(self, prompts: list[GreedyPrompt], progress: ProgressCallback | None = None) -> list[Generation]:
        """Each prompt's greedy continuation, in order."""
        return [generation for _, generation in self.decode(prompts, progress)]

    def decode(
        self, prompts: list[GreedyPrompt], progress: ProgressCallback | None = None
    ) -> list[tuple[list[int], Generation]]:
        """Each prompt's new token ids (the last one that ended it included) and its result."""
        import torch

        self.forwards = []
        results: dict[int, tuple[list[int], Generation]] = {}
        groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for index, prompt in enumerate(prompts):
            length = prompt.prefix_length if self.prefix_cache is not None else 0
            groups[tuple(prompt.tokens[:length])].append(index)
        with torch.inference_mode():
            for prefix, members in groups.items():
                members.sort(key=lambda i: len(prompts[i].tokens))
                start = 0
                while start < len(members):
                    longest = len(prompts[members[-1]].tokens) + max(prompts[i].max_new_tokens for i in members)
                    chunk = members[start : start + max(1, self.batch_size(longest))]
                    rows = [Row(i, prompts[i]) for i in chunk]
                    for row, generation in self._decode(prefix, rows, progress):
                        results[row.index] = (row.new, generation)
                    start += len(chunk)
        return [results[index] for index in range(len(prompts))]

    # -- one batch -----------------------------------------------------------------------

    def _decode(
        self, prefix: tuple[int, ...], rows: list[Row], progress: ProgressCallback | None
    ) -> list[tuple[Row, Generation]]:
        import torch
        from transformers.cache_utils import Cache

        shared = len(prefix)
        own = [row.prompt.tokens[shared:] for row in rows]
        width = max(map(len, own))
        capacity = shared + width + min(64, max(row.prompt.max_new_tokens for row in rows))
        states = self.prefix_cache.kv(prefix) if shared and self.prefix_cache is not None else None
        slot_layer = _slot_layer_class()
        layers = [
            slot_layer(len(rows), capacity, states[i] if states else None) for i in range(self.config.num_hidden_layers)
        ]
        cache = Cache(layers=layers)
        # Real positions of the key slots (-1: a pad): the prefix, then each row's own tokens
        # after its left padding.
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        ids = torch.tensor([[pad] * (width - len(t)) + t for t in own], device=self.device)
        positions = torch.tensor(
            [[-1] * (width - len(t)) + list(range(shared, shared + len(t))) for t in own], device=self.device
        )
        key_positions = torch.cat([torch.arange(shared, device=self.device).expand(len(rows), shared), positions], 1)
        # A pad's query looks at position 0 only (there is always one): no row is fully masked.
        logits = self._forward(ids, positions.clamp(min=0), key_positions, cache)
        finished: list[tuple[Row, Generation]] = []
        next_positions = positions[:, -1] + 1
        while True:
            tokens = logits[:, -1].argmax(-1)
            keep = []
            recent = self._append(rows, tokens.tolist())
            for k, (row, text) in enumerate(zip(rows, recent)):
                generation = self._finished(row, text)
                if generation is None:
                    keep.append(k)
                else:
                    finished.append((row, generation))
                    if progress:
                        progress(1)
            if not keep:
                return finished
            if len(keep) < len(rows):
                index = torch.tensor(keep, device=self.device)
                for layer in layers:  # the cache's own layers, as SlotLayers
                    layer.keep_rows(index)
                rows = [rows[k] for k in keep]
                tokens, next_positions, key_positions = tokens[index], next_positions[index], key_positions[index]
            query = next_positions[:, None]
            key_positions = torch.cat([key_positions, query], 1)
            logits = self._forward(tokens[:, None], query, key_positions, cache)
            next_positions = next_positions + 1

    def _forward(self, ids: Any, positions: Any, key_positions: Any, cache: Any) -> Any:
        self.forwards.append((ids.shape[0], ids.shape[1]))
        with self._head_in_blocks():
            output = self.model(
                input_ids=ids,
                position_ids=positions,
                attention_mask=self._attention_mask(positions, key_positions),
                use_cache=True,
                logits_to_keep=1,
                **{cache_keyword(self.model): cache},
            )
        return output.logits

    @contextmanager
    def _head_in_blocks(self) -> Iterator[None]:
        """On the CPU, the vocabulary head of a forward over 4 or more rows runs on a
        multiple of 16 rows (zeros added): for fewer rows the BLAS takes a kernel that
        reads the head's weights once per ~3 rows (Gemma 3's 262k x 640 head on 2 cores:
        12 rows 117 ms, padded to 16 52 ms; 1 row 24 ms). Each row's logits are computed
        alone by either kernel; only the model's own head is swapped, so whatever the model
        does after it (soft-capping, scaling) still applies."""
        import torch

        head = self.model.get_output_embeddings()
        if self.device != "cpu" or type(head) is not torch.nn.Linear:
            yield
            return

        def forward(hidden: Any) -> Any:
            rows = hidden.reshape(-1, hidden.shape[-1])
            if rows.shape[0] < HEAD_DIRECT_ROWS:
                return torch.nn.functional.linear(hidden, head.weight, head.bias)
            padded = rows.new_zeros(-(-rows.shape[0] // HEAD_ROW_BLOCK) * HEAD_ROW_BLOCK, rows.shape[1])
            padded[: rows.shape[0]] = rows
            logits = torch.nn.functional.linear(padded, head.weight, head.bias)[: rows.shape[0]]
            return logits.reshape(*hidden.shape[:-1], logits.shape[-1])

        # Any: the forward of this one module is replaced, which Linear's type does not allow.
        patched: Any = head
        patched.forward = forward
        try:
            yield
        finally:
            del patched.forward

    def _append(self, rows: list[Row], tokens: list[int]) -> list[str]:
        """Each row's new token added; the text of each row's newest tokens, where a stop
        string the token completed would be (``row_end.recent_tokens``, decoded in one call)."""
        windows = []
        for row, token in zip(rows, tokens):
            row.new.append(token)
            budget, stop = row.prompt.max_new_tokens, row.prompt.stop
            windows.append(recent_tokens(row.new, len(row.new) - 1, budget, stop, self.end_tokens))
        return self.tokenizer.batch_decode(windows, skip_special_tokens=True)

    def _finished(self, row: Row, recent: str) -> Generation | None:
        """The row's result once it is done (``row_end``: an end token, a stop string, its
        budget), looked at after each token; ``recent`` is its newest tokens' text."""
        prompt = row.prompt
        text = row.decoded(self.text_of)
        end = row_end(text, len(row.new) - 1, prompt.max_new_tokens, prompt.stop, self.end_tokens, recent)
        if end is None:
            return None
        generation, used = end
        del row.new[used:]  # tokens past a stop string only the whole text showed
        return generation

    def _attention_mask(self, query_positions: Any, key_positions: Any) -> Any:
        """Additive 4D mask(s) [rows, 1, queries, keys] from real positions (a pad's key
        is -1, hidden from all): causal, and on sliding layers only keys fewer than
        ``window`` positions back. One tensor, or one per layer type."""
        query = query_positions[:, :, None]
        key = key_positions[:, None, :]
        causal = (key >= 0) & (key <= query)

        def allowed(window: int | None) -> Any:
            return (causal if window is None else causal & (query - key < window))[:, None]

        return masks_by_layer_type(self.config, allowed, self.model.dtype)
