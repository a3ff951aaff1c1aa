"""Turning command-line values into mlbench's settings: model options, data sources,
the request cache, the search client. Every check here fails with one MlbenchError line."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records.options import OptionSetting
from mlbench.resources import cache_folder

if TYPE_CHECKING:
    from mlbench.backends.registry import ModelOptions
    from mlbench.data.source import DataSource
    from mlbench.engine.judging import JudgeConfig
    from mlbench.engine.plan import RunConfig
    from mlbench.judges.evidence import SearchClient


def split_list(value: str) -> tuple[str, ...]:
    """``"en, es,en"`` → ``("en", "es")``: a name given twice means it once (in the order
    first given); a run would otherwise lock, run and write the same language twice."""
    return tuple(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))


def choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        given = clipped(repr(value))
        raise MlbenchError(f"--{name} must be one of {', '.join(allowed)}, not {given}{did_you_mean(value, allowed)}")
    return value


def cache_dir_path(cache_dir: Path | None, no_cache: bool) -> Path | None:
    if no_cache:
        return None
    if cache_dir is not None:
        return cache_dir
    return cache_folder()


def switch(on: bool | None, off: bool, name: str) -> bool | None:
    """A setting with a listed ``--NAME`` and a hidden ``--no-NAME`` (cli_options): True,
    False, or ``on`` as given when neither was (None: decide later)."""
    if on and off:
        raise MlbenchError(f"--{name} and --no-{name} contradict each other: give one")
    return False if off else on


def model_options(
    model: str,
    backend: str,
    dtype: str,
    seed: int,
    settings: Sequence[OptionSetting],
    flag: str = "-M",
    run: ModelOptions | None = None,
) -> ModelOptions:
    """The model (or judge) to run, with its backend's options (``settings``: -M or -J),
    each checked as its declaration says; against the backend that runs (``auto``
    resolved) when they are first used. A judge after ``run`` takes the run's options
    declared inherited where its backend does."""
    from mlbench.backends.options import backend_values
    from mlbench.backends.registry import BACKENDS, DType, ModelOptions

    values = backend_values(choice("backend", backend, BACKENDS), settings, flag)
    checked = cast("DType", choice("dtype", dtype, typing.get_args(DType)))
    inherit = run.given if run is not None else ()
    options = ModelOptions(model, backend, checked, seed, tuple(values.items()), flag, inherit)
    replicas = values.get("data_parallel_size", 1)
    if isinstance(replicas, int) and replicas > 1:
        # The replica count against this machine's devices, now: before the data, any
        # process or any model (one replica needs no look at the devices, nor torch).
        _ = options.options
    return options


def search_client(url: str | None, key_env: str | None, results: int) -> SearchClient | None:
    if url is None:
        if key_env is not None:
            raise MlbenchError("-J search_api_key_env needs -J search_url")
        return None
    if not url.startswith(("http://", "https://")):
        raise MlbenchError(f"-J search_url must be an http(s) URL, not {url!r}")
    from mlbench.judges.evidence import SearchClient

    client = SearchClient(url, results=results, key_env=key_env)
    client.headers()  # a named key variable that is not set fails now, not mid-job
    return client


def task_own_options(task_names: tuple[str, ...], settings: list[OptionSetting]) -> dict[str, object]:
    """Each task's own options (task name → its options dataclass) from ``settings`` in
    the order given (the run file's, then -T: the later wins)."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.options import build_own_options

    for setting in settings:
        if setting.task is not None:
            get_task(setting.task)  # a table for a task that does not exist: one line naming the valid ones
    return build_own_options([get_task(name) for name in task_names], settings)


def judge_config(
    path: Path,
    judge: str,
    settings: Sequence[OptionSetting],
    *,
    run: ModelOptions | None = None,
    langs: tuple[str, ...] | Literal["all"] = "all",
    resume: bool = False,
    cache_dir: Path | None = None,
    chunk_size: int = 32,
) -> JudgeConfig:
    """The judging stage from ``--judge MODEL`` and its -J settings. After ``run`` (the
    run's model options), the judge inherits the run's settings its backend can use, and
    any -J key given wins; ``mlbench judge`` starts from the backend's defaults."""
    from mlbench.engine.judging import JudgeConfig
    from mlbench.judges.options import split_judge_settings

    own, rest = split_judge_settings(settings)
    if own.backend == "openai" and not any(setting.key == "base_url" for setting in rest):
        raise MlbenchError("-J backend=openai needs -J base_url=URL (e.g. http://127.0.0.1:8000/v1)")
    named = {setting.key for setting in settings}
    # After a run: the run's dtype and seed unless -J sets them.
    dtype = run.dtype if run is not None and "dtype" not in named else own.dtype
    seed = run.seed if run is not None and "seed" not in named else own.seed
    options = model_options(judge, own.backend, dtype, seed, rest, "-J", run=run)
    return JudgeConfig(
        path=path,
        judge=options,
        kinds=own.kind,
        langs=langs,
        chat=own.chat_template,
        scoring=own.scoring,
        protocol=own.protocol,
        resume=resume,
        cache_dir=cache_dir,
        chunk_size=chunk_size,
        search=search_client(own.search_url, own.search_api_key_env, own.search_results),
    )


def data_source(data_dir: Path | None, sample: bool, data_file: Path | None) -> DataSource:
    """Where the questions come from: --data-dir, --sample, --data-file, else the hub."""
    from mlbench.data.source import DataSource

    if sum((data_dir is not None, sample, data_file is not None)) > 1:
        raise MlbenchError("choose one data source: --data-dir, --sample or --data-file")
    if data_dir is not None:
        if not data_dir.is_dir():
            raise MlbenchError(f"--data-dir {data_dir} is not a folder")
        return DataSource("local", data_dir)
    if data_file is not None:
        return DataSource("jsonl", data_file)
    return DataSource("sample") if sample else DataSource("hub")


def check_judged_modes(config: RunConfig) -> None:
    """``run --judge`` needs answers: each task of the run must have a mode that writes them
    (Mode.writes_answers), or its judging would stop the run after all the generation."""
    from mlbench.benchmarks import get_task

    for name in config.tasks:
        task = get_task(name)
        modes = task.modes if config.mode == "all" else (task.mode(config.mode),)
        if not any(mode.writes_answers for mode in modes):
            which = f"--mode {config.mode} of {name}" if config.mode != "all" else f"{name} (its modes)"
            raise MlbenchError(f"--judge reads generated answers, which {which} does not write")
