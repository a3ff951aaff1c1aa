"""A stable identity for a model: what the request cache is keyed on."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

_CHUNK = 1 << 20


def _file_digest(path: Path) -> str:
    # Weights can be tens of GB: hash the size and the first and last MiB, which changes
    # whenever the tensors do, instead of reading every byte.
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(_CHUNK))
        if size > 2 * _CHUNK:
            handle.seek(-_CHUNK, 2)
            digest.update(handle.read(_CHUNK))
    return digest.hexdigest()


def model_fingerprint(model: str, settings: dict[str, object]) -> str:
    """Hash of the model's files (a local dir) or its id and revision (hub), plus the
    settings that change its numbers (backend, dtype, ...)."""
    parts: dict[str, object] = {"settings": settings}
    path = Path(model).expanduser()
    if path.is_dir():
        parts["files"] = {
            f.name: _file_digest(f) for f in sorted(path.iterdir()) if f.is_file() and not f.name.startswith(".")
        }
    else:
        parts["hub_id"] = model
    blob = json.dumps(parts, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
