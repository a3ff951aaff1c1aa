"""The tokens an OpenAI-compatible request cost: the server's ``usage`` object where it sends
one, else our own count (marked ``estimated``) with the model's tokenizer when it is on this
machine, else tiktoken's ``o200k_base`` (what OpenAI's current models use; offline, see
``metrics/o200k.py``). A tokenizer is never downloaded to count: a hosted model's name is
no hub id, and a count must not stall a run on the network."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from mlbench.records.jsontypes import JsonObject
from mlbench.records.usage import Usage

# OpenAI's rule of thumb for chat prompts: each message costs a few tokens of framing, and
# the reply is primed with a few more (their cookbook's count_tokens for gpt-4o).
PER_MESSAGE = 3
REPLY_PRIMING = 3


def _count(value: Any) -> int | None:
    """A token count as the server wrote it, or None for anything that is not one."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def server_counts(answer: JsonObject) -> tuple[int | None, int | None]:
    """(prompt_tokens, completion_tokens) from the answer's ``usage``; None where absent."""
    usage = answer.get("usage")
    if not isinstance(usage, dict):
        return None, None
    return _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))


def reported_usage(answer: JsonObject) -> Usage | None:
    """What the server reported, counting nothing ourselves (None: it reported nothing);
    for an answer that could not be used but may still have been billed."""
    prompt_tokens, completion_tokens = server_counts(answer)
    if prompt_tokens is None and completion_tokens is None:
        return None
    return Usage(prompt_tokens or 0, completion_tokens or 0, prompt_tokens is None or completion_tokens is None)


def request_usage(answer: JsonObject, prompt: Callable[[], int], completion: Callable[[], int]) -> Usage:
    """The usage of one answered request: the server's counts, each missing one counted by
    ``prompt()`` / ``completion()`` (called only when needed) and the whole marked estimated."""
    prompt_tokens, completion_tokens = server_counts(answer)
    estimated = prompt_tokens is None or completion_tokens is None
    return Usage(
        prompt_tokens if prompt_tokens is not None else prompt(),
        completion_tokens if completion_tokens is not None else completion(),
        estimated,
    )


class TokenCounter:
    """Counts texts and chat prompts for a model whose server gives no usage. ``loaded()``
    returns the backend's tokenizer if it already has one (MC scoring loads it)."""

    def __init__(self, name: str, *, trust_remote_code: bool, loaded: Callable[[], Any] | None = None) -> None:
        self.name = name
        self.trust_remote_code = trust_remote_code
        self._loaded = loaded or (lambda: None)
        self._tokenizer: Any = None
        self._encoding: Any = None
        # Requests are answered on several threads, and a fast tokenizer used from two at once
        # can fail ("Already borrowed"): counting is brief, so one thread counts at a time.
        self._lock = threading.RLock()

    def _resolve(self) -> None:
        with self._lock:
            if self._tokenizer is not None or self._encoding is not None:
                return
            self._tokenizer = self._loaded() or _local_tokenizer(self.name, self.trust_remote_code)
            if self._tokenizer is None:
                from mlbench.metrics.o200k import o200k_encoding

                self._encoding = o200k_encoding()

    def text(self, text: str) -> int:
        self._resolve()
        with self._lock:
            if self._tokenizer is not None:
                return len(self._tokenizer.encode(text, add_special_tokens=False))
            return len(self._encoding.encode(text, disallowed_special=()))

    def chat(self, messages: list[JsonObject]) -> int:
        """A chat prompt as the server renders it: with the model's template when its
        tokenizer has one, else the contents with OpenAI's framing per message."""
        self._resolve()
        if self._tokenizer is not None and getattr(self._tokenizer, "chat_template", None):
            try:
                with self._lock:
                    ids = self._tokenizer.apply_chat_template(messages, tokenize=True, add_generation_prompt=True)
                return len(ids["input_ids"] if hasattr(ids, "keys") else ids)  # a BatchEncoding in newer transformers
            except Exception:  # a template that refuses these roles: the plain count below will do
                pass
        return sum(self.text(str(m.get("content", ""))) + PER_MESSAGE for m in messages) + REPLY_PRIMING


def _local_tokenizer(name: str, trust_remote_code: bool) -> Any:
    """The tokenizer of ``name`` from this machine only (a folder, or the hub cache), or None."""
    try:
        from mlbench.backends.tokenizer import prepare_transformers

        prepare_transformers()
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(name, local_files_only=True, trust_remote_code=trust_remote_code)
    except Exception:  # not on this machine, not a hub id at all (gpt-4o), no transformers: o200k_base
        return None
