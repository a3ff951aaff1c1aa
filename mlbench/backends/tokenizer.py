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
    """A model named by path must be a folder or a GGUF file; a hub id is checked by
    whoever loads it."""
    path = Path(model).expanduser()
    if model.lower().endswith(".gguf"):
        if not path.is_file():
            raise MlbenchError(f"GGUF file not found: {model}")
    elif looks_like_path(model) and not path.is_dir():
        raise MlbenchError(f"model path not found: {model}")


def first_line(error: BaseException) -> str:
    return ((str(error).splitlines() or [type(error).__name__])[0] or type(error).__name__)[:200]


# Optional packages transformers imports when it loads its model code, for features mlbench
# never uses, and what each costs at start-up (2 cores): scikit-learn for a heuristic of
# assisted decoding (1.5 s), SciPy for object-detection losses (0.5 s); torchvision for
# image and video processors (4.8 s of an 18 s MC run on an H200 machine's image, where
# a Llama config's validators import the video utilities). Keyed by the availability
# check transformers consults, with the module that would import the package.
UNUSED_BY_MLBENCH = {
    "is_sklearn_available": "transformers.generation.candidate_generator",
    "is_scipy_available": "transformers.loss.loss_for_object_detection",
    "is_torchvision_available": "transformers.image_utils",
}


def prepare_transformers() -> None:
    """Call before importing transformers' models: transformers is made to see the packages
    of ``UNUSED_BY_MLBENCH`` as absent (unless the module that imports one is already
    loaded: then nothing changes), which only switches off those features. Our own
    progress bars are the ones to read, so transformers' are off."""
    import sys

    import transformers.utils
    from transformers.utils import logging as hf_logging

    for check, importer in UNUSED_BY_MLBENCH.items():
        if importer not in sys.modules:
            setattr(transformers.utils, check, lambda: False)
    hf_logging.disable_progress_bar()


def load_tokenizer(model: str, *, trust_remote_code: bool) -> Any:
    """The model's tokenizer, with a pad token (EOS when it has none)."""
    prepare_transformers()
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
