"""The static decoder's attention: PyTorch's fused SDPA kernels on a boolean mask, with
grouped-query attention folded into the query instead of copied into the keys.

transformers' ``sdpa`` attention, handed a mask on a GPU, repeats every key and value head
once per query head that shares it (``repeat_kv``) before calling SDPA: for a 1 B Llama
with 4 query heads per key head, each decode step copied the whole KV cache four times over,
every layer. A decode step has one query per row, so the query heads of a group can stand
in for query positions instead: queries [rows, kv heads, group, dim] against keys [rows, kv
heads, slots, dim], the row's mask broadcast over the group. Each query head sees exactly
the keys and values it saw before, no tensor is copied, and the call stays on a fused
kernel (memory-efficient attention takes arbitrary masks; flash attention takes none).
A forward of several tokens per row (the prefill) keeps transformers' way.

Registered with transformers' ``AttentionInterface`` under ``ATTENTION_NAME`` and selected
only for the static decoder's own forwards (``attention_for``); the model's setting is
put back afterwards. Scaling is the model's; like transformers' ``sdpa``, it takes no
soft-capping (models that need it run ``eager`` and decode on the CPU decoder's path).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

ATTENTION_NAME = "mlbench_static"


def folded_sdpa(
    module: Any,
    query: Any,
    key: Any,
    value: Any,
    attention_mask: Any,
    dropout: float = 0.0,
    scaling: float | None = None,
    **kwargs: Any,
) -> tuple[Any, None]:
    """Attention output [rows, queries, heads, dim], as transformers' attention functions
    return it. ``attention_mask``: boolean [rows, 1, queries, keys], True where a query may
    look."""
    import torch

    rows, heads, queries, dim = query.shape
    kv_heads = key.shape[1]
    sdpa = torch.nn.functional.scaled_dot_product_attention
    if queries == 1 and heads != kv_heads:
        group = heads // kv_heads
        folded = query.reshape(rows, kv_heads, group, dim)  # head h = kv head h // group, as repeat_kv pairs them
        out = sdpa(folded, key, value, attn_mask=attention_mask, dropout_p=dropout, scale=scaling)
        out = out.reshape(rows, heads, 1, dim)
    else:
        if heads != kv_heads:
            group = heads // kv_heads
            key = key.repeat_interleave(group, dim=1)
            value = value.repeat_interleave(group, dim=1)
        out = sdpa(query, key, value, attn_mask=attention_mask, dropout_p=dropout, scale=scaling)
    return out.transpose(1, 2).contiguous(), None


@functools.cache
def _registered() -> str:
    from transformers import AttentionInterface

    AttentionInterface.register(ATTENTION_NAME, folded_sdpa)
    return ATTENTION_NAME


@contextmanager
def attention_for(model: Any) -> Iterator[None]:
    """``folded_sdpa`` as the model's attention while the block runs (read by each layer
    when the forward runs: a recorded CUDA graph keeps what it read)."""
    config = model.config
    # The setter passes a value on to every sub-config (a multimodal model's text config):
    # each is put back to its own value, the outer one first.
    configs = [config, *(getattr(config, key, None) for key in getattr(config, "sub_configs", {}))]
    before = [(c, c._attn_implementation) for c in configs if c is not None]
    config._attn_implementation = _registered()
    try:
        yield
    finally:
        for each, value in before:
            each._attn_implementation = value
