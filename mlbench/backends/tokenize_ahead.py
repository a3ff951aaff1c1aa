"""The next backend call's texts tokenized in a thread while this call's batches run.

On a GPU the host is what an MC call waits on: before the first batch of a call can be
queued, every option of its 256 questions is tokenized with its context (lm-eval's split
needs the context and the context + option encoded whole), and the GPU idles meanwhile.
The pipeline builds the next chunk's requests before it makes this chunk's calls and hands
them to the backend's ``prefetch``; a thread encodes their texts then, so the next call
(which gets those same request objects) takes most of its token ids ready-made. A fast
tokenizer encodes a batch in Rust on all cores without Python's lock, so the thread takes
little from the thread that drives the GPU.

The ids are the ones the call would have computed (the same function, ``encode_all``,
on the same texts); a text the thread did not get to, or that it was not told of, is
encoded by the call as before.

Two threads call the tokenizer. transformers sets the Rust tokenizer's truncation and
padding before each batch, changing them only when they differ from what the call asks
(a tokenizer.json can come with padding set): a change while the other thread encodes
fails with "Already borrowed". So the main thread encodes once, both ways, before the
worker starts: after that both threads ask for what is already set, and nothing changes.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from mlbench.backends.chat import encode_all, texts_to_encode
from mlbench.records import GenerationRequest, LoglikelihoodRequest

Request = LoglikelihoodRequest | GenerationRequest
# Announcements kept: the one a call takes (a chunk's MC and generation calls both take
# it), the next chunk's, and one spare.
KEPT = 3


@dataclass(frozen=True)
class _Announced:
    # The request objects themselves, held so that their ids stay theirs.
    requests: list[Request]
    ids: frozenset[int]
    encoded: Future[dict[str, list[int]]]

    def holds(self, requests: list[Request]) -> bool:
        return all(id(request) in self.ids for request in requests)


class TokenizeAhead:
    """Token ids of the texts of announced requests, encoded in one worker thread."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._pool: ThreadPoolExecutor | None = None
        self._announced: list[_Announced] = []
        # Calls that found their texts encoded ahead, in the backend's life (results.json:
        # ``tokenized_ahead``).
        self.calls = 0

    def start(self, requests: list[Request]) -> None:
        """Begin encoding the texts of ``requests``, a later call's."""
        if self._pool is None:
            bos = getattr(self.tokenizer, "bos_token", None) or ""
            encode_all(self.tokenizer, ["a", bos + "a"])  # the settings both threads will ask for
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="mlbench-tokenize")
        held = list(requests)
        self._announced.append(_Announced(held, frozenset(map(id, held)), self._pool.submit(self._encode, held)))
        for dropped in self._announced[:-KEPT]:
            dropped.encoded.cancel()
        del self._announced[:-KEPT]

    def known(self, requests: list[Request]) -> dict[str, list[int]]:
        """The texts encoded ahead for the call of ``requests`` (waiting for the thread to
        finish them; those announced before it are let go), or nothing: that call was not
        announced. The call's announcement is the one that holds every one of its request
        objects (a call may take part of one: the cache sends on only its misses)."""
        for index, announced in enumerate(self._announced):
            if requests and announced.holds(requests):
                del self._announced[:index]
                encoded = announced.encoded.result()
                self.calls += bool(encoded)
                return encoded
        return {}

    def _encode(self, requests: list[Request]) -> dict[str, list[int]]:
        try:
            return encode_all(self.tokenizer, texts_to_encode(self.tokenizer, requests))
        except Exception:  # noqa: BLE001 - a hint only: the call itself encodes, and reports what is wrong
            return {}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._announced.clear()
