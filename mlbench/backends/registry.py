"""Build a backend by name; backends are imported only when chosen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.backends.cache import CachedBackend
from mlbench.errors import MlbenchError


@dataclass(frozen=True)
class ModelOptions:
    model: str
    backend: str = "hf"
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    device: str = "auto"
    batch_size: int | Literal["auto"] = "auto"
    trust_remote_code: bool = False
    seed: int = 0


def create_backend(options: ModelOptions, cache_dir: Path | None) -> Backend:
    """The backend for ``options``, behind the request cache unless ``cache_dir`` is None."""
    if options.backend != "hf":
        raise MlbenchError(f"unknown backend {options.backend!r}; available: hf")
    from mlbench.backends.hf import HFBackend

    backend: Backend = HFBackend(
        options.model,
        dtype=options.dtype,
        device=options.device,
        batch_size=options.batch_size,
        trust_remote_code=options.trust_remote_code,
        seed=options.seed,
    )
    if cache_dir is None:
        return backend
    return CachedBackend(backend, cache_dir / "requests.sqlite")
