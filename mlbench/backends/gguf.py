"""GGUF models: one file (llama.cpp's format) instead of a Hugging Face folder.

``--model path/to/file.gguf`` (or ``--model DIR -M gguf_file=NAME``) is read with
transformers' GGUF loader: the vocabulary becomes a fast tokenizer and the weights are
dequantized to ``--dtype``. Reading a large vocabulary and dequantizing take tens of
seconds (Gemma 3: ~30 s each on 2 cores), so the result is written once as a folder in
mlbench's cache, keyed by the file's content hash and the dtype; later runs load that
folder in seconds. Both the hf and the vllm backend load the folder, so they score the
same weights (vLLM's own GGUF reader moved to a plugin in vLLM 0.24 and does not run on
its CPU build). The model fingerprint is the GGUF file's hash, not the folder's.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from mlbench.backends.fingerprint import file_sha256
from mlbench.errors import MlbenchError, one_line
from mlbench.resources import cache_folder

GGUF_FILE_ARG = "gguf_file"  # -M gguf_file=NAME


def is_gguf(model: str) -> bool:
    return model.lower().endswith(".gguf")


def gguf_path(model: str, model_args: tuple[tuple[str, str], ...]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``--model DIR -M gguf_file=NAME`` as the one path ``DIR/NAME``, with the
    other model args; any other model is returned as it is."""
    import json

    named = [json.loads(value) for key, value in model_args if key == GGUF_FILE_ARG]
    if not named:
        return model, model_args
    if len(named) > 1 or not isinstance(named[0], str):
        raise MlbenchError("-M gguf_file takes one file name")
    if is_gguf(model):
        raise MlbenchError(f"--model {model} is already a GGUF file; drop -M gguf_file")
    rest = tuple((key, value) for key, value in model_args if key != GGUF_FILE_ARG)
    return str(Path(model).expanduser() / named[0]), rest


def check_gguf(path: Path) -> str:
    """The file's architecture, once it is known transformers can read it (else one
    clear error line)."""
    if not path.is_file():
        raise MlbenchError(f"GGUF file not found: {path}")
    try:
        from gguf import GGUFReader
        from transformers.modeling_gguf_pytorch_utils import GGUF_SUPPORTED_ARCHITECTURES
    except ImportError as error:
        raise MlbenchError(f"reading GGUF files needs the gguf package: pip install gguf ({error})") from None
    try:
        field = GGUFReader(path).fields.get("general.architecture")
    except (ValueError, OSError) as error:
        raise MlbenchError(f"{path}: not a readable GGUF file ({error})") from None
    if field is None:
        raise MlbenchError(f"{path}: the GGUF file names no architecture (general.architecture)")
    architecture = str(field.contents())
    if architecture not in GGUF_SUPPORTED_ARCHITECTURES:
        known = ", ".join(sorted(a for a in GGUF_SUPPORTED_ARCHITECTURES if a not in ("general", "tokenizer")))
        raise MlbenchError(
            f"{path.name}: transformers cannot read GGUF files of architecture {architecture!r} "
            f"(it reads: {known}); convert the model to a Hugging Face folder with llama.cpp's tools"
        )
    return architecture


def special_token_flags(path: Path) -> dict[str, bool]:
    """llama.cpp's ``add_bos_token`` / ``add_eos_token`` flags of the file. transformers'
    GGUF tokenizer ignores them (5.19), and Gemma fed without its ``<bos>`` is a much worse
    model (its greedy text degenerates to "The The The")."""
    from gguf import GGUFReader

    fields = GGUFReader(path).fields
    return {
        key: bool(fields[f"tokenizer.ggml.{key}"].contents())
        for key in ("add_bos_token", "add_eos_token")
        if f"tokenizer.ggml.{key}" in fields
    }


def convert_gguf(path: Path, out: Path, dtype: str = "float32") -> dict[str, bool]:
    """Write ``path`` as a Hugging Face folder ``out`` (config, safetensors in ``dtype``,
    tokenizer files) that loads without the GGUF. Returns the BOS/EOS flags the written
    tokenizer follows."""
    import torch

    from mlbench.backends.tokenizer import prepare_transformers

    prepare_transformers()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    flags = special_token_flags(path)
    for key, value in flags.items():
        if getattr(tokenizer, key) != value:
            setattr(tokenizer, key, value)  # rewrites the post-processor that tokenizer.json saves
    # Any: transformers' model classes do not declare ``hf_quantizer``, set below.
    model: Any = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=getattr(torch, dtype))
    # The weights are plain tensors now; left in place, the GGUF quantizer would make
    # save_pretrained refuse (or record a quantization the folder no longer has).
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return flags


def gguf_folder(path: Path, dtype: str) -> Path:
    """The cached folder of ``path`` in ``dtype``, converted on first use."""
    path = path.expanduser().resolve()
    target = cache_folder() / "gguf" / f"{path.stem}-{file_sha256(path)[:16]}-{dtype}"
    if (target / "config.json").is_file():
        return target
    check_gguf(path)
    print(
        f"mlbench: converting {one_line(path.name)} once to a folder in {one_line(str(target.parent))} ({dtype}); "
        "later runs load it in seconds",
        file=sys.stderr,
        flush=True,
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        convert_gguf(path, partial, dtype)
        try:
            os.rename(partial, target)  # atomic: a killed run never leaves a folder that looks finished
        except OSError:
            if not (target / "config.json").is_file():  # not another job's finished copy
                raise
    except (ValueError, KeyError, RuntimeError) as error:
        raise MlbenchError(f"transformers could not convert {path.name}: {type(error).__name__}: {error}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target
