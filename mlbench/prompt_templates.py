"""Read prompt templates shipped under ``prompts/``."""

from __future__ import annotations

import hashlib
from functools import cache

from mlbench.resources import resource_dir


@cache
def load_prompt(task: str, name: str) -> str:
    """The template ``prompts/<task>/<name>.txt`` (or ``<name>`` when it names its
    extension, e.g. ``prompts.toml``) without its final newline."""
    filename = name if "." in name else f"{name}.txt"
    text = (resource_dir("prompts") / task / filename).read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


def prompt_hash(task: str, name: str) -> str:
    return hashlib.sha256(load_prompt(task, name).encode()).hexdigest()[:16]
