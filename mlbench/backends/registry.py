"""The model to run (``ModelOptions``) and the backend built for it; backends are imported
only when chosen."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.backends.cache import CachedBackend, check_cache_file
from mlbench.backends.gguf import GGUF_FILE_ARG, gguf_path
from mlbench.backends.options import (
    BACKEND_OPTIONS,
    HfOptions,
    ModelBackendOptions,
    OpenAIOptions,
    VllmOptions,
    auto_backend,
    checked_options,
    inherited_values,
    refuse_others,
)
from mlbench.errors import MlbenchError

BACKENDS = ("auto", "hf", "vllm", "openai")
DType = Literal["auto", "float32", "bfloat16", "float16"]


@dataclass(frozen=True)
class ModelOptions:
    """A model to run: what every backend shares, and the options given for its backend
    (``backend_values``). ``auto`` is resolved (torch's look for a GPU) and the backend's
    own options built and checked once each, when first asked for (``runs_on``,
    ``options``), so that a model's mistakes found without torch are found in a second.
    Two specs are equal when they give the same values, in whatever order."""

    model: str
    backend: str = "hf"  # as given: auto runs on ``runs_on``
    dtype: DType = "auto"
    seed: int = 0
    given: tuple[tuple[str, object], ...] = ()  # (key, typed value), in the order given
    flag: str = "-M"  # what an error line names: -M, or -J for a judge
    inherit: tuple[tuple[str, object], ...] = ()  # a judge after a run: the options given for the run

    def __post_init__(self) -> None:
        given = dict(self.given)
        if GGUF_FILE_ARG in given:
            # --model DIR -M gguf_file=NAME names the same model as --model DIR/NAME, and gets
            # the same results folder.
            model, _ = gguf_path(self.model, ((GGUF_FILE_ARG, json.dumps(given.pop(GGUF_FILE_ARG))),))
            object.__setattr__(self, "model", model)
        object.__setattr__(self, "given", tuple(sorted(given.items(), key=lambda item: item[0])))

    @functools.cached_property
    def runs_on(self) -> str:
        """The backend that runs the model (``auto`` resolved, once)."""
        return resolve_backend(self.backend, self.base_url)

    @functools.cached_property
    def options(self) -> ModelBackendOptions:
        """The backend's own options, checked against it: a key it does not take, a server
        without its URL and more replicas than the devices are one line naming ``flag``;
        a judge after a run takes the run's options declared ``inherited`` where its
        backend does (a value given wins)."""
        values, name = dict(self.given), self.runs_on
        if name == "openai" and not self.base_url:
            raise MlbenchError(f"backend openai needs {self.flag} base_url=URL (e.g. http://127.0.0.1:8000/v1)")
        refuse_others(values, name, self.flag)
        kind = BACKEND_OPTIONS[name]
        taken = {key: value for key, value in values.items() if key in kind.model_fields}
        options = checked_options(kind, {**inherited_values(dict(self.inherit), kind), **taken}, self.flag)
        if not isinstance(options, OpenAIOptions):
            from mlbench.backends.data_parallel import check_replica_count

            device = options.device if isinstance(options, HfOptions) else "auto"
            tensor_parallel = options.tensor_parallel_size if isinstance(options, VllmOptions) else 1
            check_replica_count(options.data_parallel_size, name, device, tensor_parallel, self.flag)
        return options

    # What the stages before the backend read of the options given, without resolving
    # ``auto`` (preflight.served: whether a server holds the model).
    @property
    def base_url(self) -> str | None:
        return _text(dict(self.given).get("base_url"))

    @property
    def tokenizer(self) -> str | None:
        return _text(dict(self.given).get("tokenizer"))

    @property
    def prompt_price(self) -> float | None:
        return _number(dict(self.given).get("prompt_price"))

    @property
    def completion_price(self) -> float | None:
        return _number(dict(self.given).get("completion_price"))


def _text(value: object) -> str | None:
    return str(value) if value else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def resolve_backend(backend: str, base_url: str | None = None) -> str:
    """``auto`` → openai given a base_url, else vllm when it imports and a GPU is visible,
    else hf (``ModelOptions.runs_on`` asks once, for its model)."""
    if backend not in BACKENDS:
        raise MlbenchError(f"unknown backend {backend!r}; available: {', '.join(BACKENDS)}")
    return auto_backend(base_url) if backend == "auto" else backend


def model_spec(
    model: str,
    backend: str = "hf",
    *,
    dtype: DType = "auto",
    seed: int = 0,
    flag: str = "-M",
    inherit: tuple[tuple[str, object], ...] = (),
    **values: object,
) -> ModelOptions:
    """The model to run on ``backend`` with the option ``values`` given, its options built
    and checked now (``ModelOptions.options``)."""
    spec = ModelOptions(model, backend, dtype, seed, tuple(values.items()), flag, inherit)
    _ = spec.options  # built now: its mistakes are this call's
    return spec


def _single_backend(options: ModelOptions) -> Backend:
    """One replica of the model's backend (a module-level function so workers can build it)."""
    engine = options.options
    if isinstance(engine, HfOptions):
        from mlbench.backends.hf import HFBackend

        return HFBackend(
            options.model,
            dtype=options.dtype,
            device=engine.device,
            batch_size=engine.batch_size,
            trust_remote_code=engine.trust_remote_code,
            seed=options.seed,
            tokenizer=engine.tokenizer,
            enforce_eager=engine.enforce_eager,
            rehearse_gpu=engine.rehearse_gpu,
        )
    if isinstance(engine, VllmOptions):
        from mlbench.backends.vllm import EngineOptions, VLLMBackend

        # Each option the engine takes, by its name (the replicas are this module's, the GGUF
        # file is in the model's path, the passthrough is ``extra``).
        taken = engine.model_dump(exclude={"data_parallel_size", "gguf_file", "model_args"})
        return VLLMBackend(
            EngineOptions(options.model, options.dtype, seed=options.seed, extra=engine.model_args, **taken)
        )
    from mlbench.backends.openai import served_backend

    return served_backend(options.model, options.seed, engine)


def create_backend(options: ModelOptions, cache_dir: Path | None) -> Backend:
    """The backend for ``options``, behind the request cache unless ``cache_dir`` is None."""
    name, engine = options.runs_on, options.options
    if cache_dir is not None:
        check_cache_file(cache_dir / "requests.sqlite")
    backend: Backend
    if not isinstance(engine, OpenAIOptions) and engine.data_parallel_size > 1:
        from mlbench.backends.data_parallel import DataParallelBackend, replicas_on_gpus

        one = replace(options, backend=name, given=(*options.given, ("data_parallel_size", 1)))
        backend = DataParallelBackend(
            functools.partial(_single_backend, one),
            engine.data_parallel_size,
            name=name,
            gpus_per_replica=engine.tensor_parallel_size if isinstance(engine, VllmOptions) else 1,
            use_gpus=replicas_on_gpus(name, engine.device if isinstance(engine, HfOptions) else "auto"),
        )
    else:
        backend = _single_backend(options)
    if cache_dir is None:
        return backend
    return CachedBackend(backend, cache_dir / "requests.sqlite", seed=options.seed)
