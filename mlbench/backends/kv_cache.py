"""How a transformers model is handed its KV cache: ``Cache`` objects (never the legacy tuple
of tuples), under the keyword the installed transformers reads.

transformers renamed the forward argument from ``past_key_values`` to ``cache`` (5.24) and
drops the old name in 5.40; until then the old name still works but warns on every forward.
The keyword is read from the model's own ``forward`` signature, so each supported version
gets the name it documents and no deprecation notice is printed."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

from mlbench.backends.prefix_cache import LayerKV


@cache
def _keyword_of(forward: Callable[..., object]) -> str:
    parameters = inspect.signature(forward).parameters
    return "cache" if "cache" in parameters else "past_key_values"


def cache_keyword(model: Any) -> str:
    """``cache`` or ``past_key_values``: the name under which ``model.forward`` takes a KV cache."""
    return _keyword_of(type(model).forward)  # the class's function: read once per model class


def prefilled_cache(states: LayerKV | None) -> Any:
    """A ``DynamicCache`` holding copies of ``states`` (one (keys, values) pair per layer), or
    an empty one. Built without the model's config, so every layer is a plain full layer
    whatever the model's attention pattern: a sliding-window layer would drop prefix keys that
    later rows still see."""
    from transformers import DynamicCache

    cache = DynamicCache()
    for index, (keys, values) in enumerate(states or ()):
        cache.update(keys, values, index)  # concatenated into the layer's own tensors: the prefix stays as it is
    return cache
