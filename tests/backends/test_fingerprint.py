"""The model fingerprint (which keys the request cache) follows every byte of the weights;
each file is hashed once and remembered under its path, size, modification time and inode,
so a model's later runs read the remembered hashes instead of the weights."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading

from mlbench.backends import fingerprint
from mlbench.backends.fingerprint import file_sha256, model_fingerprint


def _model(folder, payload: bytes):
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"model_type": "llama"}))
    (folder / "model.safetensors").write_bytes(payload)
    return str(folder)


def test_a_tensor_changed_in_place_at_the_same_size_changes_the_fingerprint(tmp_path):
    # Issue 20 case 1: scaling one tensor in the middle of a large file, same size, used
    # to leave the fingerprint (size + first and last MiB) and so the cached answers alone.
    payload = bytearray(os.urandom(5 << 20))
    model = _model(tmp_path / "m", bytes(payload))
    before = model_fingerprint(model, {})
    payload[len(payload) // 2] ^= 0xFF
    (tmp_path / "m" / "model.safetensors").write_bytes(bytes(payload))
    assert model_fingerprint(model, {}) != before


def test_the_settings_that_change_the_outputs_change_the_fingerprint(tmp_path):
    model = _model(tmp_path / "m", os.urandom(1 << 20))
    assert model_fingerprint(model, {"dtype": "float32"}) != model_fingerprint(model, {"dtype": "bfloat16"})
    assert model_fingerprint(model, {"dtype": "float32"}) == model_fingerprint(model, {"dtype": "float32"})


def counting_sha256(monkeypatch) -> list[int]:
    """Each hash object fingerprint.py makes, counted."""
    made, real = [], hashlib.sha256

    def sha256(*args):
        if not args:  # a file's digest (the fingerprint's own JSON blob is hashed with one argument)
            made.append(1)
        return real(*args)

    monkeypatch.setattr(fingerprint.hashlib, "sha256", sha256)
    return made


def test_a_file_is_hashed_once_then_read_from_the_memo(tmp_path, monkeypatch):
    weights, memo = tmp_path / "model.safetensors", tmp_path / "cache" / "file_hashes.json"
    weights.write_bytes(b"w" * 10_000)
    made = counting_sha256(monkeypatch)
    first = file_sha256(weights, memo)
    assert first == hashlib.sha256(b"w" * 10_000).hexdigest() and len(made) == 1
    assert file_sha256(weights, memo) == first and len(made) == 1  # this process remembers it
    monkeypatch.setattr(fingerprint, "_HASHED", {})  # a later process: the memo file answers
    assert file_sha256(weights, memo) == first and len(made) == 1
    assert list(json.loads(memo.read_text()).values()) == [first]


def test_two_threads_asking_for_one_file_hash_it_once(tmp_path, monkeypatch):
    """The backend's hashing thread and a GGUF loader (or the fingerprint) asking at once:
    the second waits for the first, even with a memo folder it cannot write."""
    weights = tmp_path / "model.gguf"
    weights.write_bytes(os.urandom(1 << 22) * 8)
    made = counting_sha256(monkeypatch)
    unwritable = tmp_path / "file" / "file_hashes.json"
    (tmp_path / "file").write_text("a file where the cache folder would be")
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(file_sha256(weights, unwritable))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 4 and len(made) == 1


def test_a_file_changed_in_place_is_hashed_again(tmp_path, monkeypatch):
    weights, memo = tmp_path / "model.safetensors", tmp_path / "file_hashes.json"
    weights.write_bytes(b"a" * 100)
    before = file_sha256(weights, memo)
    stat = weights.stat()
    weights.write_bytes(b"b" * 100)  # same size: the modification time tells it apart
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    made = counting_sha256(monkeypatch)
    assert file_sha256(weights, memo) == hashlib.sha256(b"b" * 100).hexdigest() != before and len(made) == 1


def test_loading_a_model_leaves_its_files_hashed(tiny_model, tmp_path, monkeypatch):
    """The HF backend hashes while the weights load: the fingerprint after it, and any
    later run of the model, hash nothing."""
    from mlbench.backends.hf import HFBackend

    monkeypatch.setenv("MLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    model = tmp_path / "model"
    shutil.copytree(tiny_model, model)
    backend = HFBackend(str(model), device="cpu")
    remembered = json.loads((tmp_path / "cache" / "file_hashes.json").read_text())
    assert {key.rsplit("|", 3)[0].rsplit("/", 1)[1] for key in remembered} >= {"model.safetensors", "config.json"}
    made = counting_sha256(monkeypatch)
    assert model_fingerprint(str(model), {"backend": "hf", "dtype": backend.dtype}) == backend.fingerprint
    assert made == []
