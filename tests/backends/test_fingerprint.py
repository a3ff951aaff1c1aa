"""The model fingerprint (which keys the request cache) follows every byte of the weights."""

from __future__ import annotations

import json
import os

from mlbench.backends.fingerprint import model_fingerprint


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
