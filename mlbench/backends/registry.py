"""Build a backend by name; backends are imported only when chosen."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.backends.cache import CachedBackend, check_cache_file
from mlbench.backends.gguf import gguf_path
from mlbench.backends.options import auto_backend
from mlbench.errors import MlbenchError

BACKENDS = ("auto", "hf", "vllm", "openai")


@dataclass(frozen=True)
class ModelOptions:
    model: str
    backend: str = "hf"
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    device: str = "auto"
    batch_size: int | Literal["auto"] = "auto"
    trust_remote_code: bool = False
    seed: int = 0
    # Engine options (vLLM; data_parallel_size also replicates the HF backend).
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    gpu_memory_utilization: float | None = None
    max_model_len: int | None = None
    enforce_eager: bool = False
    rehearse_gpu: bool = False  # hf on the CPU: the GPU's paths, graph capture checked
    quantization: str | None = None
    model_args: tuple[tuple[str, str], ...] = ()  # (key, JSON text) for vllm.LLM
    # OpenAI-compatible server.
    base_url: str | None = None
    api_key_env: str | None = None
    max_concurrency: int = 8
    tokenizer: str | None = None
    request_timeout: float = 120.0  # seconds per server request, before it is retried
    prompt_price: float | None = None  # USD per million tokens, for the cost (records/usage.py)
    completion_price: float | None = None


def resolve_backend(options: ModelOptions) -> str:
    """``auto`` → vllm when it imports and a GPU is visible, else hf."""
    if options.backend not in BACKENDS:
        raise MlbenchError(f"unknown backend {options.backend!r}; available: {', '.join(BACKENDS)}")
    if options.backend != "auto":
        return options.backend
    return auto_backend(options.base_url)


def check_options(options: ModelOptions, backend: str, flag: str = "-M") -> None:
    """Options the chosen backend does not take are refused, not ignored: with ``--backend
    auto``, -M (or a judge's -J) takes every backend's keys until the backend is known."""
    from dataclasses import fields

    from mlbench.backends.options import backend_keys

    if backend == "openai" and not options.base_url:
        raise MlbenchError(f"backend openai needs {flag} base_url=URL (e.g. http://127.0.0.1:8000/v1)")
    default = ModelOptions(options.model)
    names = {field.name for field in fields(ModelOptions)}
    taken = backend_keys(backend)
    given = [
        key
        for key in backend_keys("auto")
        if key in names and key not in taken and getattr(options, key) != getattr(default, key)
    ]
    if options.model_args and backend != "vllm":
        given.append("vllm.*")
    if given:
        raise MlbenchError(
            f"{flag} {', '.join(given)}: backend {backend} does not take {'them' if len(given) > 1 else 'it'}"
            f" (it takes {', '.join(taken)})"
        )
    if backend != "openai":
        from mlbench.backends.data_parallel import check_replica_count

        check_replica_count(options.data_parallel_size, backend, options.device, options.tensor_parallel_size, flag)


def check_replicas(options: ModelOptions, flag: str = "-M") -> None:
    """The replica count against this machine's devices, as the options are read: before
    the data, any process or any model (check_options does it again at the backend)."""
    if options.data_parallel_size > 1:  # one replica needs no look at the devices (nor torch)
        check_options(options, resolve_backend(options), flag)


def _single_backend(options: ModelOptions, backend: str) -> Backend:
    """One replica of the chosen backend (a module-level function so workers can build it)."""
    if backend == "hf":
        from mlbench.backends.hf import HFBackend

        return HFBackend(
            options.model,
            dtype=options.dtype,
            device=options.device,
            batch_size=options.batch_size,
            trust_remote_code=options.trust_remote_code,
            seed=options.seed,
            tokenizer=options.tokenizer,
            enforce_eager=options.enforce_eager,
            rehearse_gpu=options.rehearse_gpu,
        )
    if backend == "vllm":
        from mlbench.backends.vllm import EngineOptions, VLLMBackend

        return VLLMBackend(
            EngineOptions(
                model=options.model,
                dtype=options.dtype,
                tensor_parallel_size=options.tensor_parallel_size,
                gpu_memory_utilization=options.gpu_memory_utilization,
                max_model_len=options.max_model_len,
                enforce_eager=options.enforce_eager,
                quantization=options.quantization,
                trust_remote_code=options.trust_remote_code,
                seed=options.seed,
                extra=options.model_args,
                tokenizer=options.tokenizer,
            )
        )
    from mlbench.backends.openai import OpenAIBackend

    assert options.base_url is not None
    return OpenAIBackend(
        options.model,
        base_url=options.base_url,
        api_key_env=options.api_key_env,
        max_concurrency=options.max_concurrency,
        tokenizer=options.tokenizer,
        trust_remote_code=options.trust_remote_code,
        seed=options.seed,
        timeout_s=options.request_timeout,
    )


def create_backend(options: ModelOptions, cache_dir: Path | None) -> Backend:
    """The backend for ``options``, behind the request cache unless ``cache_dir`` is None."""
    model, model_args = gguf_path(options.model, options.model_args)
    options = replace(options, model=model, model_args=model_args)
    name = resolve_backend(options)
    check_options(options, name)
    if cache_dir is not None:
        check_cache_file(cache_dir / "requests.sqlite")
    backend: Backend
    if options.data_parallel_size > 1:
        from mlbench.backends.data_parallel import DataParallelBackend, replicas_on_gpus

        factory = functools.partial(_single_backend, replace(options, data_parallel_size=1), name)
        backend = DataParallelBackend(
            factory,
            options.data_parallel_size,
            name=name,
            gpus_per_replica=options.tensor_parallel_size,
            use_gpus=replicas_on_gpus(name, options.device),
        )
    else:
        backend = _single_backend(options, name)
    if cache_dir is None:
        return backend
    return CachedBackend(backend, cache_dir / "requests.sqlite", seed=options.seed)
