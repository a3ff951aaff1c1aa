"""Read the prompt templates a benchmark or judge ships in its ``prompts/`` folder."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path


@cache
def load_prompt(folder: Path, name: str) -> str:
    """The template ``folder/<name>.txt`` (or ``folder/<name>`` when it names its extension,
    e.g. ``prompts.toml``) without its final newline."""
    filename = name if "." in name else f"{name}.txt"
    text = (folder / filename).read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


def prompt_hash(folder: Path, name: str) -> str:
    return hashlib.sha256(load_prompt(folder, name).encode()).hexdigest()[:16]
