"""Turning command-line values into mlbench's settings: model options, data sources,
the request cache, the search client. Every check here fails with one MlbenchError line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records.options import OptionSetting
from mlbench.resources import cache_folder

if TYPE_CHECKING:
    from mlbench.backends.registry import ModelOptions
    from mlbench.data.source import DataSource
    from mlbench.engine.judging import JudgeConfig
    from mlbench.engine.plan import RunConfig


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
    model: str, backend: str, dtype: str, seed: int, settings: Sequence[OptionSetting], flag: str = "-M"
) -> ModelOptions:
    """The model (or judge) to run, with its backend's options (``settings``: -M or -J), checked."""
    from mlbench.backends.gguf import gguf_path
    from mlbench.backends.options import backend_values
    from mlbench.backends.registry import BACKENDS, ModelOptions, check_replicas

    values = backend_values(choice("backend", backend, BACKENDS), settings, flag)
    # --model DIR -M gguf_file=NAME names the same model as --model DIR/NAME, and gets the
    # same results folder.
    model, values["model_args"] = gguf_path(model, values.get("model_args", ()))
    dtype = choice("dtype", dtype, ("auto", "float32", "bfloat16", "float16"))
    options = ModelOptions(model=model, backend=backend, dtype=dtype, seed=seed, **values)  # type: ignore[arg-type]
    check_replicas(options, flag)  # data_parallel_size against this machine's devices, now
    return options


def search_client(url: str | None, key_env: str | None, results: int) -> Any:
    if url is None:
        if key_env is not None:
            raise MlbenchError("-J search_api_key_env needs -J search_url")
        return None
    if not url.startswith(("http://", "https://")):
        raise MlbenchError(f"-J search_url must be an http(s) URL, not {url!r}")
    from mlbench.judges.evidence import SearchClient

    client = SearchClient(url, results=results, api_key_env=key_env)
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
    langs: tuple[str, ...] | str = "all",
    resume: bool = False,
    cache_dir: Path | None = None,
    chunk_size: int = 32,
) -> JudgeConfig:
    """The judging stage from ``--judge MODEL`` and its -J settings. After ``run`` (the
    run's model options), the judge inherits the run's settings its backend can use, and
    any -J key given wins; ``mlbench judge`` starts from the backend's defaults."""
    from dataclasses import replace

    from mlbench.backends.gguf import gguf_path
    from mlbench.backends.options import backend_values
    from mlbench.engine.judging import JudgeConfig, chained_judge_options
    from mlbench.judges.options import split_judge_settings

    own, rest = split_judge_settings(settings)
    if own.backend == "openai" and not any(setting.key == "base_url" for setting in rest):
        raise MlbenchError("-J backend=openai needs -J base_url=URL (e.g. http://127.0.0.1:8000/v1)")
    if run is None:
        options = model_options(judge, own.backend, own.dtype, own.seed, rest, "-J")
    else:
        given = backend_values(own.backend, rest, "-J")
        judge, given["model_args"] = gguf_path(judge, given.get("model_args", ()))  # -J gguf_file=NAME
        chained = chained_judge_options(run, judge, own.backend, given.get("base_url"))
        named = {setting.key for setting in settings}
        own_model = {key: getattr(own, key) for key in ("dtype", "seed") if key in named}
        options = replace(chained, **given, **own_model)
    return JudgeConfig(
        path=path,
        judge=options,
        kinds=own.kind,
        langs=langs,  # type: ignore[arg-type]
        chat=own.chat_template,
        scoring=own.scoring,
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
