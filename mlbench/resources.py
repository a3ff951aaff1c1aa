"""Files shipped with mlbench (``data/``, ``prompts/``) and mlbench's cache folder.

Both trees sit at the repository root, next to the package, in a checkout or an editable
install; a wheel carries them inside the package as ``mlbench/_shipped/`` (pyproject's
force-include). Either way the location comes from the installed package, never from the
current directory. Prompt templates are read here, once, and hashed for results.json.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from importlib.resources import files
from pathlib import Path


def resource_dir(name: str) -> Path:
    """The directory of shipped files called ``name`` (``"data"`` or ``"prompts"``)."""
    packaged = Path(str(files("mlbench"))) / "_shipped" / name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"mlbench is installed without its {name}/ folder")


def prompts_dir(owner: str) -> Path:
    """The templates of one built-in benchmark (its package name) or of the judges: ``prompts/<owner>/``."""
    return resource_dir("prompts") / owner


@cache
def load_prompt(folder: Path, name: str) -> str:
    """The template ``folder/<name>.txt`` (or ``folder/<name>`` when it names its extension,
    e.g. ``prompts.toml``) without its final newline."""
    filename = name if "." in name else f"{name}.txt"
    text = (folder / filename).read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


def prompt_hash(folder: Path, name: str) -> str:
    return hashlib.sha256(load_prompt(folder, name).encode()).hexdigest()[:16]


def cache_folder() -> Path:
    """Where mlbench keeps what it can compute again (request cache, file hashes, GGUF
    tokenizers): ``$MLBENCH_CACHE_DIR``, else ``~/.cache/mlbench``."""
    return Path(os.environ.get("MLBENCH_CACHE_DIR", Path.home() / ".cache" / "mlbench"))
