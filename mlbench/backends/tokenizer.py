"""Finding a model and loading its tokenizer, with one clear error line when either fails.

Every backend tokenizes on our side (vLLM and the OpenAI backend get token ids), so the
token boundaries of a scored option are the same whichever backend runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError


def looks_like_path(model: str) -> bool:
    return model.startswith((".", "/", "~")) or Path(model).expanduser().exists()


def check_model_path(model: str) -> None:
    """A model named by path must be a folder; a hub id is checked by whoever loads it."""
    if looks_like_path(model) and not Path(model).expanduser().is_dir():
        raise MlbenchError(f"model path not found: {model}")


def first_line(error: BaseException) -> str:
    return ((str(error).splitlines() or [type(error).__name__])[0] or type(error).__name__)[:200]


def load_tokenizer(model: str, *, trust_remote_code: bool) -> Any:
    """The model's tokenizer, with a pad token (EOS when it has none)."""
    from transformers import AutoTokenizer

    check_model_path(model)
    try:
        tokenizer = AutoTokenizer.from_pretrained(model, trust_remote_code=trust_remote_code)
    except (OSError, ValueError) as error:
        raise MlbenchError(f"could not load the tokenizer of {model}: {first_line(error)}") from None
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def chat_template_hash(tokenizer: Any) -> str | None:
    import hashlib

    template = getattr(tokenizer, "chat_template", None) or ""
    return hashlib.sha256(template.encode()).hexdigest()[:16] if template else None
