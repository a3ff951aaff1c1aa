"""``mlbench run``: evaluate a model on benchmarks, per language, and judge its answers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from mlbench.benchmarks import include_files
from mlbench.benchmarks.base import TaskOptions
from mlbench.cli import config as copt
from mlbench.cli import options as opt
from mlbench.cli import options_judge as jopt
from mlbench.cli.app import app
from mlbench.cli.errors import user_errors
from mlbench.cli.observed import observed
from mlbench.cli.settings import (
    cache_dir_path,
    check_judged_modes,
    data_source,
    judge_config,
    model_options,
    split_list,
    switch,
    task_own_options,
)
from mlbench.engine.budget import Budget
from mlbench.engine.plan import DEFAULT_CHUNK_SIZE, RunConfig
from mlbench.errors import MlbenchError
from mlbench.records.options import OptionSetting, settings_from_pairs

if TYPE_CHECKING:
    from mlbench.cli.console import RichObserver


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
    model_option: opt.ModelOptionOpt = None,
    dtype: opt.DtypeOpt = "auto",
    chat_template: opt.ChatTemplateOpt = False,
    no_chat_template: opt.NoChatTemplateOpt = False,
    system_prompt: opt.SystemPromptOpt = None,
    max_new_tokens: opt.MaxNewTokensOpt = None,
    judge: jopt.RunJudgeOpt = None,
    judge_option: jopt.JudgeOptionOpt = None,
    output: opt.OutputOpt = Path("results"),
    resume: opt.ResumeOpt = False,
    overwrite: opt.OverwriteOpt = False,
    quiet: opt.QuietOpt = False,
    yes: opt.YesOpt = False,
    cache_dir: opt.CacheDirOpt = None,
    no_cache: opt.NoCacheOpt = False,
    chunk_size: opt.ChunkSizeOpt = None,
    max_cost: opt.MaxCostOpt = None,
    max_tokens: opt.MaxTokensOpt = None,
) -> None:
    """Evaluate a model on benchmarks, per language; results go to OUTPUT/<model>/<task>/."""
    include_files(include or [])  # before any check reads a task
    chat = bool(switch(chat_template, no_chat_template, "chat-template"))
    tasks = split_list(task)
    # The run file's tables first, then the flags': the later wins.
    model_settings = [*ctx.meta.get(copt.FILE_MODEL, []), *settings_from_pairs(model_option or [], "-M")]
    task_settings = [*ctx.meta.get(copt.FILE_TASKS, []), *settings_from_pairs(task_option or [])]
    source = data_source(data_dir, sample, data_file)
    plan = RunConfig(
        model=model_options(model, backend, dtype, seed, model_settings),
        tasks=tasks,
        langs="all" if lang.strip() == "all" else split_list(lang),
        mode=mode.strip(),
        task_options=TaskOptions(source, fewshot, chat, system_prompt, max_new_tokens),
        own_options=task_own_options(tasks, task_settings),
        limit=limit,
        seed=seed,
        output=output,
        resume=resume,
        overwrite=overwrite,
        cache_dir=cache_dir_path(cache_dir, no_cache),
        chunk_size=chunk_size,
        yes=yes,
        budget=Budget(max_cost, max_tokens) if max_cost is not None or max_tokens is not None else None,
    )
    judge_settings = [*ctx.meta.get(copt.FILE_JUDGE, []), *settings_from_pairs(judge_option or [], "-J")]
    observed(output, quiet, lambda observer: _run(plan, judge, judge_settings, observer))


def _run(plan: RunConfig, judge: str | None, judge_settings: list[OptionSetting], observer: RichObserver) -> None:
    """The run, then its judges (``--judge``), checked first: the models in a second, not
    after the data and a torch import; the NLI, embedder and BERTScore models before the
    backend (``checked_backend``)."""
    from dataclasses import replace

    from mlbench.benchmarks import get_task
    from mlbench.engine.budget import check_budget
    from mlbench.engine.failures import SamplesFailed
    from mlbench.engine.judging import check_judge_config, judge_after_run
    from mlbench.engine.pipeline import run as run_pipeline
    from mlbench.engine.preflight import check_run, checked_backend

    if judge is None and judge_settings:
        raise MlbenchError("-J sets the judge's options: it needs --judge MODEL")
    judging = None
    if judge is not None:
        check_judged_modes(plan)
        # path: replaced by each task's run folder when the run is judged
        judging = judge_config(plan.output, judge, judge_settings, run=plan.model, resume=plan.resume,
                               cache_dir=plan.cache_dir, chunk_size=plan.chunk_size or DEFAULT_CHUNK_SIZE)  # fmt: skip
        # its kinds, protocol and backend options, before an hour of generation
        check_judge_config(judging, tuple(get_task(name) for name in plan.tasks), plan.task_options.source)
        judging = replace(judging, budget=plan.budget)  # one budget for the run and its judges
    check_budget(plan.budget, plan.model, judging.judge if judging else None)
    check_run(plan, judging.judge if judging else None)
    failed = None
    try:
        results = run_pipeline(plan, observer, backend_factory=checked_backend(plan))
    except SamplesFailed as error:  # written like any run: judged and shown, then exit 1
        failed, results = error, error.results
    if judging is not None:
        judge_after_run(plan, judging, [r.task for r in results], observer)
    if failed is not None:
        raise failed
