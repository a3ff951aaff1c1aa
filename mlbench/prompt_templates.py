"""Read prompt templates shipped under ``prompts/``."""

from __future__ import annotations

import hashlib
from functools import cache

from mlbench.resources import resource_dir


@cache
def load_prompt(task: str, name: str) -> str:
    """The template ``prompts/<task>/<name>.txt`` without its final newline."""
    text = (resource_dir("prompts") / task / f"{name}.txt").read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


def prompt_hash(task: str, name: str) -> str:
    return hashlib.sha256(load_prompt(task, name).encode()).hexdigest()[:16]
