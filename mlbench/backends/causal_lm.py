"""Loading a causal language model for the HF backend: its tokenizer and weights (read at
the same time), from a folder, a hub id or a GGUF file, with one clear error line for what
cannot be loaded; and the hashing of its files for the fingerprint, which the backend
runs while the weights load."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from mlbench.backends.fingerprint import files_identity
from mlbench.backends.gguf import gguf_folder, is_gguf
from mlbench.backends.tokenizer import check_model_path, first_line, load_tokenizer, prepare_transformers
from mlbench.errors import MlbenchError

DType = Literal["auto", "float32", "bfloat16", "float16"]


def load_causal_lm(
    model: str, *, dtype: DType, device: str, trust_remote_code: bool, tokenizer: str | None = None
) -> tuple[Any, Any]:
    """Tokenizer and model, or one clear error line (missing path, not a causal LM, ...).
    ``model`` may be a GGUF file (read once into a cached folder: ``gguf.py``);
    ``tokenizer`` replaces the model's own."""
    import torch

    prepare_transformers()
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    check_model_path(model)
    if dtype == "auto":
        # float32 on the CPU (bf16 matmuls are slow there and lose the 1e-4 parity);
        # bfloat16 on a GPU (float16 where it has no bfloat16), the precision GPUs run
        # language models in and lm-eval's --model_args dtype=bfloat16.
        torch_dtype: Any = torch.float32 if device == "cpu" else gpu_dtype()
    else:
        torch_dtype = getattr(torch, dtype)
    if is_gguf(model):
        model = str(gguf_folder(Path(model), str(torch_dtype).removeprefix("torch.")))
    try:
        config = AutoConfig.from_pretrained(model, trust_remote_code=trust_remote_code)
    except Exception as error:  # noqa: BLE001 - hub, JSON and auth errors all end here
        raise MlbenchError(f"could not load model config for {model}: {first_line(error)}") from None
    if config.model_type not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and not trust_remote_code:
        raise MlbenchError(f"{model} is a '{config.model_type}' model, not a causal language model")
    # The tokenizer is read while the weights load: a large vocabulary is parsed in Python
    # (Gemma 3's 262k tokens: ~3 s), the weights mostly outside the interpreter lock.
    with ThreadPoolExecutor(1) as reader:
        tokenizer_object = reader.submit(load_tokenizer, tokenizer or model, trust_remote_code=trust_remote_code)
        try:
            # On a GPU the weights go straight from the safetensors files to the device.
            placed: dict[str, Any] = {} if device == "cpu" else {"device_map": {"": device}}  # Any: from_pretrained's
            # Any: transformers types ``to`` as a wrapper its own models do not match.
            lm: Any = AutoModelForCausalLM.from_pretrained(
                model, dtype=torch_dtype, trust_remote_code=trust_remote_code, **placed
            )
        except (OSError, ValueError) as error:
            raise MlbenchError(f"could not load model {model}: {first_line(error)}") from None
        return tokenizer_object.result(), lm.to(device).eval()


def remember_file_hashes(model: str, tokenizer: str | None) -> None:
    """The hashes a fingerprint of ``model`` (and ``tokenizer``) reads, computed and
    remembered now; an error here is left to the load and the fingerprint to report."""
    try:
        for location in (model, tokenizer):
            if location is not None:
                files_identity(location, resolve_hub=False)
    except (OSError, ValueError):
        pass


def gpu_dtype() -> Any:
    """bfloat16, or float16 on a GPU without it."""
    import torch

    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
