"""The ``mlbench`` command and its model-running subcommands, run and judge (agree, surface,
report and tasks: cli_tools.py; data: cli_data.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from mlbench.cli import config as copt
from mlbench.cli import options as opt
from mlbench.cli import options_deprecated as bopt
from mlbench.cli import options_judge as jopt
from mlbench.cli.app import app, wide_console
from mlbench.cli.config import FILE_SETTINGS
from mlbench.cli.data import data_app
from mlbench.cli.errors import user_errors
from mlbench.cli.import_lm_eval import import_app
from mlbench.cli.options_deprecated import deprecated_settings
from mlbench.cli.settings import ModelFlags, cache_dir_path, choice, search_client, split_list, switch, task_own_options
from mlbench.cli.settings import model_options as build_model_options
from mlbench.errors import MlbenchError

# `mlbench data` first, then run and judge here, then the tools (cli_tools.py): the order
# of the help's command list.
app.add_typer(data_app, name="data")
app.add_typer(import_app, name="import")


@app.command()
@user_errors
def run(
    ctx: typer.Context,
    # The parameters' order is the order of the --help panels: the everyday ones first.
    model: opt.ModelArg,
    task: opt.TaskOpt,
    task_option: opt.TaskOptionOpt = None,
    config: copt.ConfigOpt = None,
    include: opt.IncludeOpt = None,
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
    tokenizer: opt.TokenizerOpt = None,
    chat_template: opt.ChatTemplateOpt = False,
    no_chat_template: opt.NoChatTemplateOpt = False,
    system_prompt: opt.SystemPromptOpt = None,
    max_new_tokens: opt.MaxNewTokensOpt = None,
    judge: jopt.RunJudgeOpt = None,
    judge_kind: jopt.JudgeKindOpt = None,
    judge_backend: jopt.JudgeBackendOpt = "auto",
    judge_base_url: jopt.JudgeBaseUrlOpt = None,
    judge_chat_template: jopt.JudgeChatOpt = None,
    no_judge_chat_template: jopt.NoJudgeChatOpt = False,
    judge_scoring: jopt.JudgeScoringOpt = "auto",
    search_url: jopt.SearchUrlOpt = None,
    search_api_key_env: jopt.SearchKeyEnvOpt = None,
    search_results: jopt.SearchResultsOpt = 10,
    output: opt.OutputOpt = Path("results"),
    resume: opt.ResumeOpt = False,
    overwrite: opt.OverwriteOpt = False,
    quiet: opt.QuietOpt = False,
    yes: opt.YesOpt = False,
    cache_dir: opt.CacheDirOpt = None,
    no_cache: opt.NoCacheOpt = False,
    chunk_size: opt.ChunkSizeOpt = 32,
    # Deprecated (hidden): the benchmark flags that -T replaced (cli_options_benchmarks).
    kind: bopt.KindOpt = None,
    dataset: bopt.DatasetOpt = None,
    healthqa: bopt.HealthQAOpt = None,
    samples: bopt.SamplesOpt = None,
    temperatures: bopt.TemperaturesOpt = None,
    embedder: bopt.EmbedderOpt = None,
    bertscore_model: bopt.BertscoreModelOpt = None,
    bertscore_layer: bopt.BertscoreLayerOpt = None,
    verify_scoring: bopt.VerifyScoringOpt = None,
    topic: bopt.TopicOpt = None,
    refusal: bopt.RefusalOpt = None,
    nli_model: bopt.NliModelOpt = None,
    refusal_threshold: bopt.RefusalThresholdOpt = None,
    permutations: bopt.PermutationsOpt = None,
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
    request_timeout: opt.RequestTimeoutOpt = 120.0,
) -> None:
    """Evaluate a model on benchmarks, per language; results go to OUTPUT/<model>/<task>/."""
    parameters = dict(locals())
    started = time.perf_counter()
    from mlbench.benchmarks import include_files
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.benchmarks.options import settings_from_pairs
    from mlbench.cli.console import RichObserver, final_line
    from mlbench.data.source import DataSource
    from mlbench.engine.pipeline import RunConfig
    from mlbench.engine.pipeline import run as run_pipeline

    include_files(include or [])  # before any check reads a task
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
    langs = "all" if lang.strip() == "all" else split_list(lang)
    model_options = build_model_options(model, backend, ModelFlags.of(parameters))
    # The run file's task options, then the deprecated flags', then -T's: the later wins.
    settings = [*ctx.meta.get(FILE_SETTINGS, []), *deprecated_settings(parameters)]
    settings += settings_from_pairs(task_option or [])
    run_config = RunConfig(
        model=model_options,
        tasks=split_list(task),
        langs=langs,  # type: ignore[arg-type]
        mode=mode.strip(),
        task_options=TaskOptions(
            source,
            fewshot,
            bool(switch(chat_template, no_chat_template, "chat-template")),
            system_prompt,
            max_new_tokens,
        ),
        own_options=task_own_options(split_list(task), settings),
        limit=limit,
        seed=seed,
        output=output,
        resume=resume,
        overwrite=overwrite,
        cache_dir=cache_dir_path(cache_dir, no_cache),
        chunk_size=chunk_size,
        yes=yes,
    )
    from mlbench.engine.preflight import check_run, checked_backend

    # The model and the judge are checked now, in a second, not after the data and a torch
    # import; the NLI, embedder and BERTScore models before the backend (checked_backend).
    check_run(run_config, judge, judge_backend, judge_base_url)
    judge_config = None
    if judge is not None:
        from mlbench.backends.registry import BACKENDS
        from mlbench.engine.judging import JudgeConfig, chained_judge_options, judge_after_run

        if run_config.mode in ("mc", "consistency", "verifiability"):
            raise MlbenchError(f"--judge reads generated answers, which --mode {run_config.mode} does not write")
        if judge_backend == "openai" and not judge_base_url:
            raise MlbenchError("--judge-backend openai needs --judge-base-url (e.g. http://127.0.0.1:8000/v1)")
        judge_config = JudgeConfig(
            path=output,  # replaced by each task's run folder below
            judge=chained_judge_options(
                model_options, judge, choice("judge-backend", judge_backend, BACKENDS), judge_base_url
            ),
            kinds=split_list(judge_kind or ""),
            chat=switch(judge_chat_template, no_judge_chat_template, "judge-chat-template"),
            scoring=choice("judge-scoring", judge_scoring, ("auto", "logprob", "generate")),  # type: ignore[arg-type]
            resume=resume,
            cache_dir=run_config.cache_dir,
            chunk_size=chunk_size,
            search=search_client(search_url, search_api_key_env, search_results),
        )
    from mlbench.engine.failures import SamplesFailed

    observer = RichObserver(wide_console(), quiet=quiet)
    failed = None
    try:
        try:
            results = run_pipeline(run_config, observer, backend_factory=checked_backend(run_config))
        except SamplesFailed as error:  # written like any run: judged and shown, then exit 1
            failed, results = error, error.results
        if judge_config is not None:
            judge_after_run(run_config, judge_config, [r.task for r in results], observer)
    finally:
        observer.close()
    observer.print_summaries()  # once, after the judges: the numbers as they end up
    print(final_line(output, time.perf_counter() - started))
    if failed is not None:
        raise failed


@app.command("judge")
@user_errors
def judge_command(
    path: Annotated[Path, typer.Argument(help="A run folder (OUTPUT/<model>/<task>) or a folder of runs.")],
    judge: jopt.JudgeOpt,
    judge_kind: jopt.JudgeKindOpt = None,
    include: opt.IncludeOpt = None,
    lang: opt.LangOpt = "all",
    judge_backend: jopt.JudgeBackendOpt = "auto",
    judge_chat_template: jopt.JudgeChatOpt = None,
    no_judge_chat_template: jopt.NoJudgeChatOpt = False,
    judge_scoring: jopt.JudgeScoringOpt = "auto",
    batch_size: opt.BatchSizeOpt = "auto",
    dtype: opt.DtypeOpt = "auto",
    device: opt.DeviceOpt = "auto",
    trust_remote_code: opt.TrustRemoteCodeOpt = False,
    seed: opt.JudgeSeedOpt = 0,
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
    request_timeout: opt.RequestTimeoutOpt = 120.0,
    tokenizer: opt.TokenizerOpt = None,
    search_url: jopt.SearchUrlOpt = None,
    search_api_key_env: jopt.SearchKeyEnvOpt = None,
    search_results: jopt.SearchResultsOpt = 10,
    resume: jopt.JudgeResumeOpt = False,
    quiet: opt.QuietOpt = False,
    cache_dir: opt.CacheDirOpt = None,
    no_cache: opt.NoCacheOpt = False,
    chunk_size: opt.ChunkSizeOpt = 32,
) -> None:
    """Judge the saved answers of finished runs; verdicts are added to their samples and tables."""
    parameters = dict(locals())
    started = time.perf_counter()
    from mlbench.benchmarks import include_files
    from mlbench.cli.console import RichObserver, final_line
    from mlbench.engine.judging import JudgeConfig, judge_run

    include_files(include or [])  # (without it, a run's own file is found from its results.json)
    if judge_backend == "openai" and not base_url:
        raise MlbenchError("--judge-backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    config = JudgeConfig(
        path=path,
        judge=build_model_options(judge, judge_backend, ModelFlags.of(parameters)),
        kinds=split_list(judge_kind or ""),
        langs="all" if lang.strip() == "all" else split_list(lang),  # type: ignore[arg-type]
        chat=switch(judge_chat_template, no_judge_chat_template, "judge-chat-template"),
        scoring=choice("judge-scoring", judge_scoring, ("auto", "logprob", "generate")),  # type: ignore[arg-type]
        resume=resume,
        cache_dir=cache_dir_path(cache_dir, no_cache),
        chunk_size=chunk_size,
        search=search_client(search_url, search_api_key_env, search_results),
    )
    from mlbench.engine.preflight import check_judge

    check_judge(config.judge)  # before the run folders are read and the judge is loaded
    observer = RichObserver(wide_console(), quiet=quiet)
    try:
        judge_run(config, observer)
    finally:
        observer.close()
    observer.print_summaries()
    print(final_line(path, time.perf_counter() - started))


# agree, surface, report and tasks live in cli_tools.py; imported here, once `app` and the
# helpers they use exist, so that they register on `app` (and stay in the help's order).
from mlbench.cli import tools  # noqa: E402, F401


def main() -> None:
    """The console script: run the command, then end the process (see ``process_exit``)."""
    from mlbench.cli.process_exit import end_process

    try:
        code = _invoke_app()
    except SystemExit as finished:
        code = finished.code
    end_process(code if isinstance(code, int) else 0 if code is None else 1)


def _click_exceptions() -> Any:
    """click's exception classes as typer raises them: newer typer vendors click."""
    try:
        from typer._click import exceptions
    except ImportError:  # typer before it vendored click
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def _invoke_app() -> Any:
    """Run the app with click's own error display turned off, so that a bad option value
    (``--limit 0``, ``--seed abc``) ends like every other bad input: one ``mlbench: error:``
    line and exit 2, not a boxed usage message. ``--help``/``--version`` exit through
    click's Exit, which non-standalone mode returns as the code."""
    exceptions = _click_exceptions()
    # click < 8.2 prints the help itself for a bare ``mlbench``; later ones raise this.
    no_args = getattr(exceptions, "NoArgsIsHelpError", ())
    try:
        return app(standalone_mode=False)
    except no_args as error:  # bare ``mlbench``: the help, as before
        print(error.ctx.get_help())
        return 2
    except exceptions.ClickException as error:
        message = " ".join(error.format_message().split())
        print(f"mlbench: error: {message}", file=sys.stderr)
        return 2 if isinstance(error, exceptions.UsageError) else error.exit_code
    except exceptions.Abort:
        print("mlbench: aborted", file=sys.stderr)
        return 1
