"""Turning command-line values into mlbench's settings: model options, data sources,
the request cache, the search client. Every check here fails with one MlbenchError line."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlbench.benchmarks.options import OptionSetting
from mlbench.errors import MlbenchError
from mlbench.resources import cache_folder

if TYPE_CHECKING:
    from mlbench.backends.registry import ModelOptions


def split_list(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise MlbenchError(f"--{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def batch_size_value(value: str) -> int | str:
    if value == "auto":
        return value
    if not value.isdigit() or int(value) < 1:
        raise MlbenchError(f"--batch-size must be 'auto' or a positive integer, not {value!r}")
    return int(value)


def model_args(pairs: list[str]) -> tuple[tuple[str, str], ...]:
    """``KEY=VALUE`` strings → (key, JSON text) pairs; VALUE is read as JSON when it parses
    (4, true, {"level": 0}), else kept as a string. JSON text keeps the options hashable."""
    parsed = []
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            raise MlbenchError(f"--model-arg must look like KEY=VALUE (e.g. swap_space=8), not {pair!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        parsed.append((key.strip(), json.dumps(value)))
    return tuple(parsed)


def cache_dir_path(cache_dir: Path | None, no_cache: bool) -> Path | None:
    if no_cache:
        return None
    if cache_dir is not None:
        return cache_dir
    return cache_folder()


@dataclass(frozen=True)
class ModelFlags:
    """The engine and server flags that run and judge both take, as typed values: what
    ``model_options`` turns into ModelOptions (checked there)."""

    dtype: str
    device: str
    batch_size: str
    trust_remote_code: bool
    seed: int
    tensor_parallel_size: int
    data_parallel_size: int
    gpu_memory_utilization: float | None
    max_model_len: int | None
    enforce_eager: bool
    quantization: str | None
    model_arg: list[str] | None
    base_url: str | None
    api_key_env: str | None
    max_concurrency: int
    tokenizer: str | None
    request_timeout: float

    @classmethod
    def of(cls, parameters: dict[str, Any]) -> ModelFlags:
        """The flags among a command's parameters (its ``locals()``: typer gives them one by one)."""
        return cls(**{item.name: parameters[item.name] for item in fields(cls)})


def switch(on: bool | None, off: bool, name: str) -> bool | None:
    """A setting with a listed ``--NAME`` and a hidden ``--no-NAME`` (cli_options): True,
    False, or ``on`` as given when neither was (None: decide later)."""
    if on and off:
        raise MlbenchError(f"--{name} and --no-{name} contradict each other: give one")
    return False if off else on


def model_options(model: str, backend: str, flags: ModelFlags) -> ModelOptions:
    """The model (or judge) to run, with its engine and server settings, checked."""
    from mlbench.backends.gguf import gguf_path
    from mlbench.backends.registry import BACKENDS, ModelOptions

    # --model DIR --model-arg gguf_file=NAME names the same model as --model DIR/NAME, and
    # gets the same results folder.
    model, extra = gguf_path(model, model_args(flags.model_arg or []))

    return ModelOptions(
        model=model,
        backend=choice("backend", backend, BACKENDS),
        dtype=choice("dtype", flags.dtype, ("auto", "float32", "bfloat16", "float16")),  # type: ignore[arg-type]
        device=choice("device", flags.device, ("auto", "cpu", "cuda")),
        batch_size=batch_size_value(flags.batch_size),  # type: ignore[arg-type]
        trust_remote_code=flags.trust_remote_code,
        seed=flags.seed,
        tensor_parallel_size=flags.tensor_parallel_size,
        data_parallel_size=flags.data_parallel_size,
        gpu_memory_utilization=flags.gpu_memory_utilization,
        max_model_len=flags.max_model_len,
        enforce_eager=flags.enforce_eager,
        quantization=flags.quantization,
        model_args=extra,
        base_url=flags.base_url,
        api_key_env=flags.api_key_env,
        max_concurrency=flags.max_concurrency,
        tokenizer=flags.tokenizer,
        request_timeout=flags.request_timeout,
    )


def search_client(url: str | None, key_env: str | None, results: int) -> Any:
    if url is None:
        if key_env is not None:
            raise MlbenchError("--search-api-key-env needs --search-url")
        return None
    if not url.startswith(("http://", "https://")):
        raise MlbenchError(f"--search-url must be an http(s) URL, not {url!r}")
    from mlbench.judges.evidence import SearchClient

    client = SearchClient(url, results=results, api_key_env=key_env)
    client.headers()  # a named key variable that is not set fails now, not mid-job
    return client


def task_own_options(task_names: tuple[str, ...], settings: list[OptionSetting]) -> dict[str, Any]:
    """Each task's own options (task name → its options dataclass) from ``settings`` in
    the order given (the run file's, the deprecated flags', then -T: the later wins)."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.options import build_own_options

    for setting in settings:
        if setting.task is not None:
            get_task(setting.task)  # a table for a task that does not exist: one line naming the valid ones
    return build_own_options([get_task(name) for name in task_names], settings)
