"""Each backend's own options, typed and declared once: what ``-M key=value`` sets for the
model under test, what ``-J key=value`` sets for a judge, and what a run file's ``[model]``
and ``[judge]`` tables hold. ``mlbench backends NAME`` lists them.

The research options every run has (model, backend, dtype, seed) stay flags; the engine
knobs here depend on the backend (vLLM's memory share means nothing to a server), so a key
the chosen backend does not take is one line naming the keys it does. With ``--backend
auto`` any backend's key is accepted and checked once the backend is known
(``registry.check_options``). vLLM also takes ``vllm.NAME=VALUE``: any other argument of
``vllm.LLM``, VALUE read as JSON when it parses.
"""

from __future__ import annotations

import importlib.util
import json
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records.options import OptionSetting, digits_hint, option, option_names, parse_value, whole_number

PASSTHROUGH = "vllm."  # -M vllm.swap_space=8: straight to vllm.LLM
# vllm.LLM arguments that mlbench sets itself from a flag (results folder, provenance and
# hash record them), so a passthrough may not set them behind its back.
RESERVED = {
    "model": "use --model",
    "dtype": "use --dtype",
    "seed": "use --seed",
    "enable_prefix_caching": "mlbench scores with the prefix cache on",
}


def _at_least(name: str, value: float | None, least: float, most: float | None = None) -> None:
    if value is not None and (value < least or (most is not None and value > most)):
        bounds = f"between {least} and {most}" if most is not None else f"at least {least}"
        raise MlbenchError(f"{name} must be {bounds}, not {value}")


@dataclass(frozen=True)
class LocalOptions:
    """What a model loaded on this machine takes (hf, and vLLM on top)."""

    trust_remote_code: bool = option(False, "Allow model code from the hub.")
    tokenizer: str | None = option(None, "Tokenizer, if not the model's own.")
    data_parallel_size: int = option(1, "Model replicas, one per GPU.")
    gguf_file: str | None = option(None, "A .gguf file in the --model folder.")
    enforce_eager: bool = option(False, "No CUDA graphs.")

    def __post_init__(self) -> None:
        _at_least("data_parallel_size", self.data_parallel_size, 1)


@dataclass(frozen=True)
class HfOptions(LocalOptions):
    """transformers in this process (the reference scoring; CPU or one GPU per replica)."""

    device: Literal["auto", "cpu", "cuda"] = option("auto", "Where the model runs.")
    batch_size: str = option("auto", "auto, or N options, prompts or GPU questions a pass.")
    rehearse_gpu: bool = option(False, "On the CPU: the GPU's paths, graphs checked.")

    def __post_init__(self) -> None:
        super().__post_init__()
        batch_size_value(self.batch_size)


@dataclass(frozen=True)
class VllmOptions(LocalOptions):
    """vLLM's engine (GPUs); -M vllm.NAME=VALUE passes any other vllm.LLM argument."""

    tensor_parallel_size: int = option(1, "GPUs a model is split over.")
    gpu_memory_utilization: float | None = option(None, "GPU memory share.", shown="vLLM's (0.9)")
    max_model_len: int | None = option(None, "Context length (longer prompts fail).")
    quantization: str | None = option(None, "awq, gptq, fp8, ...")

    def __post_init__(self) -> None:
        super().__post_init__()
        _at_least("tensor_parallel_size", self.tensor_parallel_size, 1)
        _at_least("gpu_memory_utilization", self.gpu_memory_utilization, 0.01, 1.0)
        _at_least("max_model_len", self.max_model_len, 1)


@dataclass(frozen=True)
class OpenAIOptions:
    """An OpenAI-compatible server (vLLM serve, llama.cpp, an API)."""

    base_url: str | None = option(None, "Server URL, e.g. http://127.0.0.1:8000/v1.", shown="required")
    api_key_env: str | None = option(None, "Variable holding the key.", shown="OPENAI_API_KEY")
    max_concurrency: int = option(8, "Requests in flight.")
    request_timeout: float = option(120.0, "Seconds before a request is retried.")
    tokenizer: str | None = option(None, "Tokenizer for prompts, if not the model's own.")
    trust_remote_code: bool = option(False, "Allow the tokenizer's code from the hub.")
    # Used for the cost shown and for --max-cost; never part of a result's identity.
    prompt_price: float | None = option(None, "USD per million prompt tokens (for cost).")
    completion_price: float | None = option(None, "USD per million completion tokens.")

    def __post_init__(self) -> None:
        _at_least("max_concurrency", self.max_concurrency, 1)
        _at_least("request_timeout", self.request_timeout, 0.001)
        _at_least("prompt_price", self.prompt_price, 0)
        _at_least("completion_price", self.completion_price, 0)
        if (self.prompt_price is None) != (self.completion_price is None):
            raise MlbenchError("prompt_price and completion_price go together (USD per million tokens): give both")


BACKEND_OPTIONS: dict[str, type] = {"hf": HfOptions, "vllm": VllmOptions, "openai": OpenAIOptions}


def backend_keys(backend: str) -> tuple[str, ...]:
    """The -M keys ``backend`` takes (``auto``: every backend's)."""
    kinds = BACKEND_OPTIONS.values() if backend == "auto" else (BACKEND_OPTIONS[backend],)
    return tuple(dict.fromkeys(name for kind in kinds for name in option_names(kind)))


def _hint(key: str, keys: Sequence[str]) -> str:
    """The did-you-mean of an unknown -M key: a near key, or the backends that take it."""
    owners = [name for name, kind in BACKEND_OPTIONS.items() if key in option_names(kind)]
    return f" (backend {' and '.join(owners)} takes it)" if owners else did_you_mean(key, keys)


def backend_values(backend: str, settings: Sequence[OptionSetting], flag: str = "-M") -> dict[str, object]:
    """The ModelOptions fields that ``settings`` give, typed and checked for ``backend``:
    only the keys given (a judge inherits the rest from the run), the later of two winning;
    ``gguf_file`` and ``vllm.*`` keys become ``model_args``."""
    keys = backend_keys(backend)
    hints = {name: hint for kind in BACKEND_OPTIONS.values() for name, hint in typing.get_type_hints(kind).items()}
    values: dict[str, object] = {}  # parsed: str, int, float, bool, Path, tuple
    extra: dict[str, str] = {}
    for setting in settings:
        key, where = setting.key, setting.origin or f"{flag} {setting.key}"
        if key.startswith(PASSTHROUGH) and backend in ("vllm", "auto") and len(key) > len(PASSTHROUGH):
            name = key[len(PASSTHROUGH) :]
            if name in RESERVED or name in backend_keys("auto"):
                raise MlbenchError(f"{where}: {name} is not passed through; {RESERVED.get(name, f'use -M {name}')}")
            extra[name] = _json_text(setting.value)
        elif key not in keys:
            # With auto, name the backend that would run and its keys, not every backend's.
            running = _auto_backend(settings) if backend == "auto" else backend
            named = f"{running} (auto)" if backend == "auto" else backend
            passthrough = f", {PASSTHROUGH}NAME" if running == "vllm" else ""
            valid = backend_keys(running)
            raise MlbenchError(
                f"{where}: backend {named} has no option {key!r}{_hint(key, valid)}; valid: {', '.join(valid)}"
                f"{passthrough} (mlbench backends NAME)"
            )
        elif key == "gguf_file":
            extra["gguf_file"] = json.dumps(parse_value(where, hints[key], setting.value))
        else:
            # batch_size is "auto" or a count: a run file's TOML gives the count as a number.
            value = str(setting.value) if key == "batch_size" and isinstance(setting.value, int) else setting.value
            values[key] = parse_value(where, hints[key], value)
    try:
        _check(backend, values)
    except MlbenchError as error:  # a range: name the flag it came from
        raise MlbenchError(f"{flag} {error}") from None
    if "batch_size" in values:
        values["batch_size"] = batch_size_value(values["batch_size"])
    if extra:
        values["model_args"] = tuple(extra.items())
    return values


def gpu_visible() -> bool:
    import torch

    return torch.cuda.is_available()


def auto_backend(base_url: str | None) -> str:
    """What ``--backend auto`` runs: openai given a base_url, else vllm when it imports and a
    GPU is visible, else hf."""
    if base_url:
        return "openai"
    return "vllm" if importlib.util.find_spec("vllm") is not None and gpu_visible() else "hf"


def _auto_backend(settings: Sequence[OptionSetting]) -> str:
    """The backend ``--backend auto`` would run with ``settings``."""
    return auto_backend(next((str(setting.value) for setting in settings if setting.key == "base_url"), None))


def _check(backend: str, values: dict[str, object]) -> None:
    """The ranges each backend's dataclass checks, on the values given (one line each)."""
    kinds = BACKEND_OPTIONS.values() if backend == "auto" else (BACKEND_OPTIONS[backend],)
    for kind in kinds:
        names = set(option_names(kind))
        kind(**{key: value for key, value in values.items() if key in names})


def batch_size_value(value: str | int) -> int | Literal["auto"]:
    """``auto`` or a count: the ASCII digits 0-9 (``whole_number``: not ², not ١٢)."""
    if value == "auto":
        return "auto"
    text = str(value)
    count = whole_number(text, signed=False)
    if count is None or count < 1:
        hint = digits_hint(text)
        raise MlbenchError(f"batch_size must be 'auto' or a positive integer, not {clipped(repr(value))}{hint}")
    return count


def _json_text(value: object) -> str:
    """A passthrough value as JSON text (4, true, {"level": 0} read as JSON; else a string),
    which keeps the options hashable."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
    return json.dumps(value)
