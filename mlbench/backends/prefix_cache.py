"""KV states of shared prompt prefixes (the few-shot primer), computed once and reused.

Every question of a language starts with the same primer. Its KV states are computed by
one forward over the primer's tokens alone and kept, and each question's forward starts
from them. Which tokens form the prefix is decided by the request itself (its prompt's
``shared_prefix``), never by the other questions of a backend call, so a question's score
is the same bits however a run is chunked or wherever it resumed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

# Per layer, the (keys, values) tensors of a run of tokens: [batch=1, kv heads, tokens, head dim].
LayerKV = list[tuple[Any, Any]]

MAX_BYTES = 1 << 30  # prefixes kept (least recently used dropped first)


class PrefixCache:
    def __init__(self, forward: Callable[[list[int]], LayerKV], max_bytes: int = MAX_BYTES) -> None:
        self.forward = forward  # the KV states of a token sequence from its start
        self.max_bytes = max_bytes
        self._kept: OrderedDict[tuple[int, ...], tuple[LayerKV, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # questions are scored from several threads

    def __len__(self) -> int:
        return len(self._kept)

    def kv(self, prefix: tuple[int, ...]) -> LayerKV:
        """The KV states of ``prefix``, computed on first use."""
        with self._lock:
            return self._kv(prefix)

    def _kv(self, prefix: tuple[int, ...]) -> LayerKV:
        if prefix in self._kept:
            self._kept.move_to_end(prefix)
            return self._kept[prefix][0]
        states = self.forward(list(prefix))
        size = sum(k.numel() * k.element_size() + v.numel() * v.element_size() for k, v in states)
        self._kept[prefix] = (states, size)
        self._bytes += size
        while self._bytes > self.max_bytes and len(self._kept) > 1:
            _, (_, dropped) = self._kept.popitem(last=False)
            self._bytes -= dropped
        return states
