"""Issue 35, item 3: a hub id whose cached snapshot moves to a new revision with other
weights must get another fingerprint (which keys the request cache), as a local folder
whose files change does. Offline, against a hub cache laid out as huggingface_hub keeps it."""

from __future__ import annotations

import json
import os

import huggingface_hub.constants
import pytest

from mlbench.backends.fingerprint import files_identity, model_fingerprint

REPO = "org/name"
SETTINGS = {"backend": "hf", "dtype": "float32"}


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    cache = tmp_path / "hub"
    cache.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # huggingface_hub reads the variables once, when it is first imported.
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    return cache


def _snapshot(cache, commit: str, weights: bytes) -> None:
    """One revision of REPO as a download leaves it: blobs, a snapshot of links, refs/main."""
    repo = cache / "models--org--name"
    files = {"config.json": json.dumps({"model_type": "llama"}).encode(), "model.safetensors": weights}
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (repo / "blobs").mkdir(exist_ok=True)
    for name, content in files.items():
        blob = repo / "blobs" / f"{commit[:8]}-{name}"
        blob.write_bytes(content)
        (snapshot / name).symlink_to(os.path.relpath(blob, snapshot))
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / "main").write_text(commit)


def test_a_new_revision_with_other_weights_changes_the_fingerprint(hub_cache):
    _snapshot(hub_cache, "a" * 40, os.urandom(1 << 16))
    before = model_fingerprint(REPO, SETTINGS)
    assert files_identity(REPO)["revision"] == "a" * 40

    _snapshot(hub_cache, "b" * 40, os.urandom(1 << 16))  # refs/main now names the new commit
    assert files_identity(REPO)["revision"] == "b" * 40
    assert model_fingerprint(REPO, SETTINGS) != before
    assert model_fingerprint(REPO, SETTINGS) == model_fingerprint(REPO, SETTINGS)


def test_weights_changed_inside_a_snapshot_change_the_fingerprint(hub_cache):
    _snapshot(hub_cache, "c" * 40, b"\x00" * 4096)
    before = model_fingerprint(REPO, SETTINGS)
    blob = hub_cache / "models--org--name" / "blobs" / f"{'c' * 8}-model.safetensors"
    blob.write_bytes(b"\x01" * 4096)
    stat = blob.stat()  # an edit made later than this test's, which may fall in the same clock tick
    os.utime(blob, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert model_fingerprint(REPO, SETTINGS) != before


def test_a_hub_id_not_in_the_cache_and_a_served_name_stay_known_by_name(hub_cache):
    assert files_identity("org/absent") == {"hub_id": "org/absent"}
    _snapshot(hub_cache, "d" * 40, b"weights")
    # A served model of the same name is the server's, not this cache's.
    assert files_identity(REPO, resolve_hub=False) == {"hub_id": REPO}
