"""The data cache against a local stand-in for GitHub and the hub (tests/datastore/fake_homes.py)."""

from __future__ import annotations

import hashlib

import pytest

from mlbench.data import catalog
from mlbench.data.catalog import PinnedFile, Source
from tests.data.fake_homes import FakeHomes, start

COMMIT = "a" * 40
NEW_COMMIT = "b" * 40


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """An empty fake GitHub + hub on 127.0.0.1, with mlbench's data cache in tmp_path."""
    fake = FakeHomes()
    server, base = start(fake)
    monkeypatch.setenv("MLBENCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MLBENCH_GITHUB_RAW_URL", f"{base}/raw")
    monkeypatch.setenv("MLBENCH_GITHUB_API_URL", f"{base}/ghapi")
    monkeypatch.setenv("HF_ENDPOINT", base)
    import datasets.config

    # datasets keeps an Arrow copy of every folder it reads: in tmp_path, not the user's cache.
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets")
    for name in ("HF_HUB_OFFLINE", "MLBENCH_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "GITHUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def add_source(monkeypatch):
    """Put a Source into the catalog for one test: ``add_source(Source(...))``."""

    def add(source: Source) -> Source:
        monkeypatch.setitem(catalog.SOURCES, source.name, source)
        return source

    return add


def github_source(name: str, files: dict[str, bytes], revision: str = COMMIT, pin: bool = True, **rows) -> Source:
    pinned = tuple(
        PinnedFile(path, sha256(content) if pin else None, rows.get(path)) for path, content in files.items()
    )
    return Source(name, (name,), "github", f"owner/{name}", revision, "MIT", pinned)


@pytest.fixture(autouse=True)
def benchmark_sources():
    """The built-in benchmarks' sources, as a command finds them (they register on import)."""
    from mlbench.benchmarks import discover

    discover()
