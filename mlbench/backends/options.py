"""Each backend's own options, typed and declared once: what ``-M key=value`` sets for the
model under test, what ``-J key=value`` sets for a judge, and what a run file's ``[model]``
and ``[judge]`` tables hold. ``mlbench backends NAME`` lists them.

The research options every run has (model, backend, dtype, seed) stay flags; the engine
knobs here depend on the backend (vLLM's memory share means nothing to a server), so a key
the chosen backend does not take is one line naming the keys it does. With ``--backend
auto`` any backend's key is read and checked by the backends that declare it
(``backend_values``), then refused once the backend is known unless that backend takes it
(``refuse_others``, when ``registry.ModelOptions`` builds its options). vLLM also takes
``vllm.NAME=VALUE``: any other argument of ``vllm.LLM``, VALUE read as JSON when it parses.

A declaration is a pydantic field: its type, default and range (``ge``, ``le``) and, in
``declared``, its help, what its default means where the value does not say it (``shown``),
how a user writes it where that is not its type (``reads``: batch_size is text, ``auto`` or
a count) and whether a judge run after the model takes the model's value (``inherited``).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.json_schema import JsonDict
from pydantic_core import PydanticCustomError

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.options import OptionSetting, digits_hint, parse_value, whole_number

PASSTHROUGH = "vllm."  # -M vllm.swap_space=8: straight to vllm.LLM
# vllm.LLM arguments that mlbench sets itself from a flag (results folder, provenance and
# hash record them), so a passthrough may not set them behind its back.
RESERVED = {
    "model": "use --model",
    "dtype": "use --dtype",
    "seed": "use --seed",
    "enable_prefix_caching": "mlbench scores with the prefix cache on",
}
OWN_ERROR = "mlbench"  # a validator's error already in our words: its line is ctx["line"]


def declared(
    default: Any,  # Any: a field's default, of the field's own type
    help: str,
    *,
    shown: str | None = None,
    reads: Literal["text"] | None = None,
    inherited: bool = False,
    listed: bool = True,
    ge: float | None = None,
    le: float | None = None,
) -> Any:  # Any: what pydantic's Field returns, typed as the field's value
    """A backend option: ``default``, the ``help`` `mlbench backends NAME` shows, ``shown``
    in place of a default that does not say what it means (None: ``OPENAI_API_KEY``),
    ``reads``: how a user writes it when not as its type, ``inherited``: a judge run after
    the model takes the model's value (the machine's engine and server limits; never the
    model's trust in remote code nor its API key: the judge is another model, maybe on
    another server), ``listed``: a key a user sets (the vLLM passthrough is not)."""
    extra: JsonDict = {"inherited": inherited, "listed": listed}
    if shown is not None:
        extra["shown"] = shown
    if reads is not None:
        extra["reads"] = reads
    return Field(default, description=help, json_schema_extra=extra, ge=ge, le=le)


class BackendOptions(BaseModel):
    """What one backend takes; frozen (a model's options are its identity) and closed."""

    # Built at first use, not at import: every command imports the declarations, few check options.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    backend: ClassVar[str]


class LocalOptions(BackendOptions):
    """What a model loaded on this machine takes (hf, and vLLM on top)."""

    trust_remote_code: bool = declared(False, "Allow model code from the hub.")
    tokenizer: str | None = declared(None, "Tokenizer, if not the model's own.")
    data_parallel_size: int = declared(1, "Model replicas, one per GPU.", ge=1)
    gguf_file: str | None = declared(None, "A .gguf file in the --model folder.")
    enforce_eager: bool = declared(False, "No CUDA graphs.", inherited=True)


class HfOptions(LocalOptions):
    """transformers in this process (the reference scoring; CPU or one GPU per replica)."""

    backend: ClassVar[str] = "hf"
    device: Literal["auto", "cpu", "cuda"] = declared("auto", "Where the model runs.", inherited=True)
    batch_size: int | Literal["auto"] = declared(
        "auto", "auto, or N options, prompts or GPU questions a pass.", reads="text", inherited=True
    )
    rehearse_gpu: bool = declared(False, "On the CPU: the GPU's paths, graphs checked.")

    @field_validator("batch_size", mode="before")
    @classmethod
    def _batch_size(cls, value: object) -> int | Literal["auto"]:
        try:  # a count from TOML or Python is read as its digits, as from the command line
            return batch_size_value(value if isinstance(value, str) else str(value))
        except MlbenchError as error:
            raise PydanticCustomError(OWN_ERROR, "{line}", {"line": str(error)}) from None


class VllmOptions(LocalOptions):
    """vLLM's engine (GPUs); -M vllm.NAME=VALUE passes any other vllm.LLM argument."""

    backend: ClassVar[str] = "vllm"
    tensor_parallel_size: int = declared(1, "GPUs a model is split over.", ge=1, inherited=True)
    gpu_memory_utilization: float | None = declared(
        None, "GPU memory share.", shown="vLLM's (0.9)", ge=0.01, le=1.0, inherited=True
    )
    max_model_len: int | None = declared(None, "Context length (longer prompts fail).", ge=1, inherited=True)
    quantization: str | None = declared(None, "awq, gptq, fp8, ...")
    # (key, JSON text) of -M vllm.KEY=VALUE, for vllm.LLM: hashable, and as results.json records them.
    model_args: tuple[tuple[str, str], ...] = declared((), "Other vllm.LLM arguments.", listed=False)


class OpenAIOptions(BackendOptions):
    """An OpenAI-compatible server (vLLM serve, llama.cpp, an API)."""

    backend: ClassVar[str] = "openai"
    base_url: str | None = declared(None, "Server URL, e.g. http://127.0.0.1:8000/v1.", shown="required")
    api_key_env: str | None = declared(None, "Variable holding the key.", shown="OPENAI_API_KEY")
    max_concurrency: int = declared(8, "Requests in flight.", ge=1, inherited=True)
    request_timeout: float = declared(120.0, "Seconds before a request is retried.", ge=0.001, inherited=True)
    tokenizer: str | None = declared(None, "Tokenizer for prompts, if not the model's own.")
    trust_remote_code: bool = declared(False, "Allow the tokenizer's code from the hub.")
    # Used for the cost shown and for --max-cost; never part of a result's identity.
    prompt_price: float | None = declared(None, "USD per million prompt tokens (for cost).", ge=0)
    completion_price: float | None = declared(None, "USD per million completion tokens.", ge=0)

    @model_validator(mode="after")
    def _prices_together(self) -> OpenAIOptions:
        if (self.prompt_price is None) != (self.completion_price is None):
            line = "prompt_price and completion_price go together (USD per million tokens): give both"
            raise PydanticCustomError(OWN_ERROR, "{line}", {"line": line})
        return self


_Options = TypeVar("_Options", bound=BackendOptions)
ModelBackendOptions = HfOptions | VllmOptions | OpenAIOptions
BACKEND_OPTIONS: dict[str, type[ModelBackendOptions]] = {"hf": HfOptions, "vllm": VllmOptions, "openai": OpenAIOptions}
# The order results.json's ``engine`` block lists the options a run set (a file format,
# kept as first written). What the block leaves out is recorded elsewhere in the file
# (batch_size) or says nothing of the results (device, trust_remote_code, gguf_file:
# the model's path holds it).
RECORDED = (
    "tensor_parallel_size", "data_parallel_size", "gpu_memory_utilization", "max_model_len", "enforce_eager",
    "rehearse_gpu", "quantization", "model_args", "base_url", "api_key_env", "max_concurrency", "tokenizer",
    "request_timeout", "prompt_price", "completion_price",
)  # fmt: skip


def field_extra(kind: type[BackendOptions], name: str) -> JsonDict:
    """What ``declared`` says of a field beyond its type, default and range."""
    extra = kind.model_fields[name].json_schema_extra
    return extra if isinstance(extra, dict) else {}


def option_keys(kind: type[BackendOptions]) -> tuple[str, ...]:
    """The keys a user sets for ``kind``, in their declared order."""
    return tuple(name for name in kind.model_fields if field_extra(kind, name).get("listed", True))


def backend_keys(backend: str) -> tuple[str, ...]:
    """The -M keys ``backend`` takes (``auto``: every backend's)."""
    kinds = BACKEND_OPTIONS.values() if backend == "auto" else (BACKEND_OPTIONS[backend],)
    return tuple(dict.fromkeys(name for kind in kinds for name in option_keys(kind)))


def default_of(key: str) -> object:
    """A key's default, the same in every backend that declares it."""
    kind = next(kind for kind in BACKEND_OPTIONS.values() if key in kind.model_fields)
    return kind.model_fields[key].default


def inherited_values(run: Mapping[str, object], judge: type[BackendOptions]) -> dict[str, object]:
    """What a judge run after the model takes of the options given for the model (``run``):
    each one declared ``inherited`` that the judge's backend takes too (a key means the
    same in every backend that declares it)."""
    return {
        key: value
        for key, value in run.items()
        if key in judge.model_fields and field_extra(judge, key).get("inherited")
    }


def recorded_settings(given: Mapping[str, object]) -> JsonObject:
    """The options given for a run, as results.json's ``engine`` block lists them: their
    defaults left out, ``model_args`` as a table."""
    settings: JsonObject = {}
    for name in RECORDED:
        value = given.get(name, default_of(name))
        if value != default_of(name):
            settings[name] = _json_value(value)
    return settings


def _json_value(value: object) -> JsonValue:
    if isinstance(value, tuple):  # the (key, JSON text) pairs of -M vllm.KEY=VALUE
        return {str(key): str(text) for key, text in value}
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def gpu_visible() -> bool:
    import torch

    return torch.cuda.is_available()


def auto_backend(base_url: str | None) -> str:
    """What ``--backend auto`` runs: openai given a base_url, else vllm when it imports and a
    GPU is visible, else hf."""
    if base_url:
        return "openai"
    return "vllm" if importlib.util.find_spec("vllm") is not None and gpu_visible() else "hf"


def batch_size_value(value: str) -> int | Literal["auto"]:
    """``auto`` or a count: the ASCII digits 0-9 (``whole_number``: not ², not ١٢)."""
    if value == "auto":
        return "auto"
    count = whole_number(value, signed=False)
    if count is None or count < 1:
        hint = digits_hint(value)
        raise MlbenchError(f"batch_size must be 'auto' or a positive integer, not {clipped(repr(value))}{hint}")
    return count


def backend_values(backend: str, settings: Sequence[OptionSetting], flag: str = "-M") -> dict[str, object]:
    """The options that ``settings`` give, typed and checked for ``backend`` (``auto``: each
    by the backends that declare it): only the keys given (a judge inherits the rest from
    the run), the later of two winning; ``vllm.*`` keys become ``model_args``."""
    keys = backend_keys(backend)
    values: dict[str, object] = {}  # parsed: str, int, float, bool, tuple
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
        else:
            values[key] = _read(where, key, setting.value)
    kinds = BACKEND_OPTIONS.values() if backend == "auto" else (BACKEND_OPTIONS[backend],)
    checked: dict[str, object] = {}
    for kind in kinds:  # each backend's declaration checks the values of its keys
        own = checked_options(kind, {key: value for key, value in values.items() if key in kind.model_fields}, flag)
        checked = {**{key: getattr(own, key) for key in values if key in kind.model_fields}, **checked}
    if extra:
        checked["model_args"] = tuple(extra.items())
    return {key: checked[key] for key in [*values, *(["model_args"] if extra else [])]}


def checked_options(kind: type[_Options], values: dict[str, object], flag: str = "-M") -> _Options:
    """``kind`` with ``values``, each checked as its declaration says; a value out of its
    range is one line naming the flag and the key, in our words (never pydantic's)."""
    try:
        return kind.model_validate(values)
    except ValidationError as error:
        raise MlbenchError(f"{flag} {_error_line(kind, error)}") from None


def _error_line(kind: type[BackendOptions], error: ValidationError) -> str:
    first = error.errors()[0]
    ctx = first.get("ctx") or {}
    if first["type"] == OWN_ERROR:
        return str(ctx["line"])
    name = str(first["loc"][0]) if first["loc"] else kind.backend
    bounds = {"ge": None, "le": None}
    for item in kind.model_fields[name].metadata if name in kind.model_fields else ():
        bounds.update({bound: getattr(item, bound) for bound in bounds if getattr(item, bound, None) is not None})
    least, most = bounds["ge"], bounds["le"]
    if least is not None and most is not None:
        return f"{name} must be between {least} and {most}, not {first['input']}"
    if least is not None:
        return f"{name} must be at least {least}, not {first['input']}"
    return f"{name}: {clipped(repr(first['input']))} is not a value it takes"


def _read(where: str, key: str, value: object) -> object:
    """A setting's value as its declaration types it (``reads``: as the user writes it)."""
    kind = next(kind for kind in BACKEND_OPTIONS.values() if key in kind.model_fields)
    if field_extra(kind, key).get("reads") == "text":
        # batch_size is "auto" or a count: a run file's TOML gives the count as a number.
        return parse_value(where, str, str(value) if isinstance(value, int) else value)
    return parse_value(where, kind.model_fields[key].annotation, value)


def refuse_others(values: Mapping[str, object], backend: str, flag: str = "-M") -> None:
    """Options set (other than their defaults) that ``backend`` does not take are refused,
    not ignored: with ``--backend auto``, -M (or a judge's -J) reads every backend's keys
    until the backend is known."""
    taken = backend_keys(backend)
    given = [
        key for key in backend_keys("auto") if key in values and key not in taken and values[key] != default_of(key)
    ]
    if values.get("model_args") and backend != "vllm":
        given.append(f"{PASSTHROUGH}*")
    if given:
        raise MlbenchError(
            f"{flag} {', '.join(given)}: backend {backend} does not take {'them' if len(given) > 1 else 'it'}"
            f" (it takes {', '.join(taken)})"
        )


def _hint(key: str, keys: Sequence[str]) -> str:
    """The did-you-mean of an unknown -M key: a near key, or the backends that take it."""
    owners = [name for name, kind in BACKEND_OPTIONS.items() if key in option_keys(kind)]
    return f" (backend {' and '.join(owners)} takes it)" if owners else did_you_mean(key, keys)


def _auto_backend(settings: Sequence[OptionSetting]) -> str:
    """The backend ``--backend auto`` would run with ``settings`` (for an error line)."""
    return auto_backend(next((str(setting.value) for setting in settings if setting.key == "base_url"), None))


def _json_text(value: object) -> str:
    """A passthrough value as JSON text (4, true, {"level": 0} read as JSON; else a string),
    which keeps the options hashable."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
    return json.dumps(value)
