"""Sentence embeddings of saved responses, kept in the samples file so the cross-language
statistics (MSQAD's PERMANOVA) can be rebuilt without loading a model.

A vector is stored as base64 of its float32 bytes with the embedder's name and a hash of
the text it embeds; a response whose text or embedder changed is embedded again.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable

import numpy as np

from mlbench.records import SampleRecord
from mlbench.records.json_shapes import json_object, json_text
from mlbench.records.jsontypes import JsonValue

BATCH = 64


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def encode_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float64)


def add_embeddings(
    records: list[SampleRecord], embedder: str, start_progress: Callable[[str, int], Callable[[int], None]] | None
) -> bool:
    """Embed the main answer of every record that has one and lacks a current
    embedding; True when any record changed."""
    from mlbench.backends.embedders import NO_MODEL, load_embedder

    if embedder == NO_MODEL:
        return False
    todo = [r for r in records if "answer" in r.outputs and _embedding_key(r) != [embedder, _text_hash(_answer(r))]]
    if not todo:
        return False
    model = load_embedder(embedder)
    advance = start_progress("response embeddings", len(todo)) if start_progress else (lambda n: None)
    for start in range(0, len(todo), BATCH):
        chunk = todo[start : start + BATCH]
        vectors = model.embed([_answer(r) for r in chunk])
        for record, vector in zip(chunk, vectors):
            answer = _answer(record)
            record.outputs["embedding"] = {"key": [embedder, _text_hash(answer)], "vector": encode_vector(vector)}
        advance(len(chunk))
    return True


def embedding_of(record: SampleRecord) -> np.ndarray | None:
    block = record.outputs.get("embedding")
    if not block:
        return None
    return decode_vector(json_text(json_object(block, "an embedding")["vector"], "an embedding's vector"))


def _answer(record: SampleRecord) -> str:
    return json_text(record.outputs["answer"], "a saved answer")


def _embedding_key(record: SampleRecord) -> JsonValue:
    """What the saved embedding was made from (``[embedder, text hash]``), None when there is none."""
    block = record.outputs.get("embedding")
    return json_object(block, "an embedding").get("key") if block else None
