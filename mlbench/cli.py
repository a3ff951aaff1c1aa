"""The ``mlbench`` command: run, report, tasks."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console

from mlbench import cli_options as opt
from mlbench.errors import MlbenchError

app = typer.Typer(
    help="How truthful are language models across languages?",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
F = TypeVar("F", bound=Callable[..., Any])


def user_errors(command: F) -> F:
    """Bad input ends the command with one line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MlbenchError as error:
            message = " ".join(str(error).split())
            print(f"mlbench: error: {message}", file=sys.stderr)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            print("mlbench: interrupted; rerun with --resume to continue", file=sys.stderr)
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def wide_console() -> Console:
    """A console for tables: the terminal's width, or 200 columns when piped (a log file
    or CI), where rich would otherwise squeeze a many-language table into 80."""
    return Console() if sys.stdout.isatty() else Console(width=200)


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise MlbenchError(f"--{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _batch_size(value: str) -> int | str:
    if value == "auto":
        return value
    if not value.isdigit() or int(value) < 1:
        raise MlbenchError(f"--batch-size must be 'auto' or a positive integer, not {value!r}")
    return int(value)


def _model_args(pairs: list[str]) -> tuple[tuple[str, str], ...]:
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


def _cache_dir(cache_dir: Path | None, no_cache: bool) -> Path | None:
    if no_cache:
        return None
    if cache_dir is not None:
        return cache_dir
    return Path(os.environ.get("MLBENCH_CACHE_DIR", Path.home() / ".cache" / "mlbench"))


@app.command()
@user_errors
def run(
    model: opt.ModelArg,
    task: opt.TaskOpt,
    lang: opt.LangOpt = "all",
    mode: opt.ModeOpt = "all",
    data_dir: opt.DataDirOpt = None,
    sample: opt.SampleOpt = False,
    data_file: opt.DataFileOpt = None,
    fewshot: opt.FewshotOpt = None,
    limit: opt.LimitOpt = None,
    seed: opt.SeedOpt = 0,
    backend: opt.BackendOpt = "auto",
    batch_size: opt.BatchSizeOpt = "auto",
    dtype: opt.DtypeOpt = "auto",
    device: opt.DeviceOpt = "auto",
    trust_remote_code: opt.TrustRemoteCodeOpt = False,
    tensor_parallel_size: opt.TensorParallelOpt = 1,
    data_parallel_size: opt.DataParallelOpt = 1,
    gpu_memory_utilization: opt.GpuMemoryOpt = None,
    max_model_len: opt.MaxModelLenOpt = None,
    enforce_eager: opt.EnforceEagerOpt = False,
    quantization: opt.QuantizationOpt = None,
    model_arg: opt.ModelArgOpt = None,
    base_url: opt.BaseUrlOpt = None,
    api_key_env: opt.ApiKeyEnvOpt = None,
    max_concurrency: opt.MaxConcurrencyOpt = 8,
    tokenizer: opt.TokenizerOpt = None,
    chat_template: opt.ChatTemplateOpt = False,
    system_prompt: opt.SystemPromptOpt = None,
    output: opt.OutputOpt = Path("results"),
    resume: opt.ResumeOpt = False,
    cache_dir: opt.CacheDirOpt = None,
    no_cache: opt.NoCacheOpt = False,
    chunk_size: opt.ChunkSizeOpt = 32,
) -> None:
    """Evaluate a model on benchmarks, per language; results go to OUTPUT/<model>/<task>/."""
    from mlbench.backends.registry import BACKENDS, ModelOptions
    from mlbench.console import RichObserver
    from mlbench.loaders.source import DataSource
    from mlbench.pipeline import RunConfig
    from mlbench.pipeline import run as run_pipeline
    from mlbench.tasks.base import TaskOptions

    if sum((data_dir is not None, sample, data_file is not None)) > 1:
        raise MlbenchError("choose one data source: --data-dir, --sample or --data-file")
    if data_dir is not None:
        if not data_dir.is_dir():
            raise MlbenchError(f"--data-dir {data_dir} is not a folder")
        source = DataSource("local", data_dir)
    elif data_file is not None:
        source = DataSource("jsonl", data_file)
    else:
        source = DataSource("sample") if sample else DataSource("hub")
    langs = "all" if lang.strip() == "all" else _split(lang)
    config = RunConfig(
        model=ModelOptions(
            model=model,
            backend=_choice("backend", backend, BACKENDS),
            dtype=_choice("dtype", dtype, ("auto", "float32", "bfloat16", "float16")),  # type: ignore[arg-type]
            device=_choice("device", device, ("auto", "cpu", "cuda")),
            batch_size=_batch_size(batch_size),  # type: ignore[arg-type]
            trust_remote_code=trust_remote_code,
            seed=seed,
            tensor_parallel_size=tensor_parallel_size,
            data_parallel_size=data_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            max_model_len=max_model_len,
            enforce_eager=enforce_eager,
            quantization=quantization,
            model_args=_model_args(model_arg or []),
            base_url=base_url,
            api_key_env=api_key_env,
            max_concurrency=max_concurrency,
            tokenizer=tokenizer,
        ),
        tasks=_split(task),
        langs=langs,  # type: ignore[arg-type]
        mode=_choice("mode", mode, ("mc", "gen", "all")),  # type: ignore[arg-type]
        task_options=TaskOptions(source, fewshot, chat_template, system_prompt),
        limit=limit,
        seed=seed,
        output=output,
        resume=resume,
        cache_dir=_cache_dir(cache_dir, no_cache),
        chunk_size=chunk_size,
    )
    observer = RichObserver(wide_console())
    try:
        run_pipeline(config, observer)
    finally:
        observer.close()


@app.command()
@user_errors
def report(
    results_dir: Path = typer.Argument(..., help="Folder searched for results.json files."),
) -> None:
    """One table of every run under RESULTS_DIR: rows model × task × metric, columns languages."""
    from mlbench.report import collect, render_table

    wide_console().print(render_table(collect(results_dir)))


@app.command()
@user_errors
def tasks() -> None:
    """List the benchmarks with their languages, modes and data sources."""
    from rich.table import Table

    from mlbench.tasks import all_tasks

    table = Table(title="mlbench tasks", title_justify="left")
    table.add_column("task", no_wrap=True)
    table.add_column("benchmark")
    table.add_column("languages")
    table.add_column("modes", no_wrap=True)
    table.add_column("hub dataset", no_wrap=True)
    for item in all_tasks():
        table.add_row(item.name, item.title, ", ".join(item.languages), ", ".join(item.modes), item.hub_id)
    wide_console().print(table)
    print(
        "Local data: --data-dir DIR (layout of the shared datasets), --sample (embedded set), "
        "--data-file FILE.jsonl (your own questions)."
    )


def main() -> None:
    app()
