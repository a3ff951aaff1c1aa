"""Attention masks in the form transformers takes them, from which keys each query may see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def layer_window(config: Any, layer_type: str | None) -> int | None:
    """The sliding window a layer of ``layer_type`` attends through (None: the whole
    sequence); ``layer_type`` None for a model whose layers all attend alike."""
    if layer_type is None:
        return getattr(config, "sliding_window", None)
    return config.sliding_window if layer_type == "sliding_attention" else None


def windows(config: Any) -> list[int | None]:
    """Every distinct window the model's layers attend through, in a fixed order."""
    layer_types = getattr(config, "layer_types", None) or [None]
    return sorted({layer_window(config, kind) for kind in layer_types}, key=str)


def masks_by_layer_type(config: Any, allowed: Callable[[int | None], Any], dtype: Any) -> Any:
    """Attention mask(s) from ``allowed(window)``, a boolean tensor of the keys each query
    may see (``window``: the sliding window, None on full-attention layers): one mask for a
    model whose layers all attend alike, else one per layer type, as transformers takes
    them. Additive in ``dtype`` (what eager attention adds to its scores), or the boolean
    tensors themselves with ``dtype`` None (what SDPA takes as is)."""
    import torch

    def additive(window: int | None) -> Any:
        keep = allowed(window)
        if dtype is None:
            return keep
        return torch.zeros(keep.shape, dtype=dtype, device=keep.device).masked_fill_(~keep, torch.finfo(dtype).min)

    layer_types = getattr(config, "layer_types", None)
    if not layer_types:
        return additive(layer_window(config, None))
    return {kind: additive(layer_window(config, kind)) for kind in set(layer_types)}
