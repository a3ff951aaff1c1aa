"""Turning command-line values into mlbench's settings: model options, data sources,
the request cache, the search client. Every check here fails with one MlbenchError line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError
from mlbench.resources import cache_folder


def split_list(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def existing_file(path: Path | None, flag: str) -> Path | None:
    if path is not None and not path.is_file():
        raise MlbenchError(f"{flag} {path}: no such file")
    return path


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


# The command parameters that become ModelOptions fields (run and judge take them all).
MODEL_SETTINGS = (
    "dtype", "device", "batch_size", "trust_remote_code", "seed", "tensor_parallel_size", "data_parallel_size",
    "gpu_memory_utilization", "max_model_len", "enforce_eager", "quantization", "model_arg", "base_url",
    "api_key_env", "max_concurrency", "tokenizer", "request_timeout",
)  # fmt: skip


def switch(on: bool | None, off: bool, name: str) -> bool | None:
    """A setting with a listed ``--NAME`` and a hidden ``--no-NAME`` (cli_options): True,
    False, or ``on`` as given when neither was (None: decide later)."""
    if on and off:
        raise MlbenchError(f"--{name} and --no-{name} contradict each other: give one")
    return False if off else on


def model_options(model: str, backend: str, parameters: dict[str, Any]) -> Any:
    """ModelOptions from a command's parameters (the MODEL_SETTINGS among them)."""
    settings = {name: parameters[name] for name in MODEL_SETTINGS}
    from mlbench.backends.gguf import gguf_path
    from mlbench.backends.registry import BACKENDS, ModelOptions

    # --model DIR --model-arg gguf_file=NAME names the same model as --model DIR/NAME, and
    # gets the same results folder.
    model, extra = gguf_path(model, model_args(settings["model_arg"] or []))

    return ModelOptions(
        model=model,
        backend=choice("backend", backend, BACKENDS),
        dtype=choice("dtype", settings["dtype"], ("auto", "float32", "bfloat16", "float16")),  # type: ignore[arg-type]
        device=choice("device", settings["device"], ("auto", "cpu", "cuda")),
        batch_size=batch_size_value(settings["batch_size"]),  # type: ignore[arg-type]
        trust_remote_code=settings["trust_remote_code"],
        seed=settings["seed"],
        tensor_parallel_size=settings["tensor_parallel_size"],
        data_parallel_size=settings["data_parallel_size"],
        gpu_memory_utilization=settings["gpu_memory_utilization"],
        max_model_len=settings["max_model_len"],
        enforce_eager=settings["enforce_eager"],
        quantization=settings["quantization"],
        model_args=extra,
        base_url=settings["base_url"],
        api_key_env=settings["api_key_env"],
        max_concurrency=settings["max_concurrency"],
        tokenizer=settings["tokenizer"],
        request_timeout=settings["request_timeout"],
    )


def search_client(url: str | None, key_env: str | None, results: int) -> Any:
    if url is None:
        if key_env is not None:
            raise MlbenchError("--search-api-key-env needs --search-url")
        return None
    if not url.startswith(("http://", "https://")):
        raise MlbenchError(f"--search-url must be an http(s) URL, not {url!r}")
    from mlbench.evidence import SearchClient

    client = SearchClient(url, results=results, api_key_env=key_env)
    client.headers()  # a named key variable that is not set fails now, not mid-job
    return client


def temperature_list(value: str) -> tuple[float, ...]:
    """``0,0.5,1`` → (0.0, 0.5, 1.0); each a number ≥ 0."""
    temperatures = []
    for item in split_list(value):
        try:
            temperature = float(item)
        except ValueError:
            raise MlbenchError(f"--temperatures: {item!r} is not a number") from None
        if temperature < 0 or temperature != temperature or temperature == float("inf"):
            raise MlbenchError(f"--temperatures: {item} must be a finite number ≥ 0")
        temperatures.append(temperature)
    if not temperatures:
        raise MlbenchError("--temperatures needs at least one value")
    return tuple(temperatures)
