"""Find files shipped with mlbench (``data/``, ``prompts/``), and mlbench's cache folder.

In a wheel they live inside the package (hatch force-include → ``mlbench/data``); in a
source checkout or an editable install they sit next to the package directory. Either
way the location is derived from the installed package, never from the current directory.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path


def resource_dir(name: str) -> Path:
    """The directory of shipped files called ``name`` (``"data"`` or ``"prompts"``)."""
    packaged = Path(str(files("mlbench"))) / name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"mlbench is installed without its {name}/ folder")


def cache_folder() -> Path:
    """Where mlbench keeps what it can compute again (request cache, file hashes, GGUF
    tokenizers): ``$MLBENCH_CACHE_DIR``, else ``~/.cache/mlbench``."""
    return Path(os.environ.get("MLBENCH_CACHE_DIR", Path.home() / ".cache" / "mlbench"))
