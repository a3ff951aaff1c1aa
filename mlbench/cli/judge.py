"""``mlbench judge``: judge the saved answers of finished runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mlbench.cli import config as copt
from mlbench.cli import options as opt
from mlbench.cli import options_judge as jopt
from mlbench.cli.app import app
from mlbench.cli.errors import user_errors
from mlbench.cli.observed import observed
from mlbench.cli.settings import cache_dir_path, judge_config, split_list
from mlbench.records.options import settings_from_pairs

RunFolderArg = Annotated[Path, typer.Argument(help="A run folder (OUTPUT/<model>/<task>) or a folder of runs.")]


@app.command("judge")
@user_errors
def judge_command(
    ctx: typer.Context,
    path: RunFolderArg,
    judge: jopt.JudgeOpt,
    judge_option: jopt.JudgeOptionOpt = None,
    config: copt.JudgeConfigOpt = None,
    include: opt.IncludeOpt = None,
    lang: opt.LangOpt = "all",
    resume: jopt.JudgeResumeOpt = False,
    quiet: opt.QuietOpt = False,
    cache_dir: opt.CacheDirOpt = None,
    no_cache: opt.NoCacheOpt = False,
    chunk_size: opt.ChunkSizeOpt = 32,
) -> None:
    """Judge the saved answers of finished runs; verdicts are added to their samples and tables."""
    from mlbench.benchmarks import include_files
    from mlbench.engine.judging import check_judge_config, judge_run
    from mlbench.engine.preflight import check_judge

    include_files(include or [])  # (without it, a run's own file is found from its results.json)
    settings = [*ctx.meta.get(copt.FILE_JUDGE, []), *settings_from_pairs(judge_option or [], "-J")]
    assert chunk_size is not None  # Optional only in the type it shares with ``run``: its default is 32
    config_ = judge_config(
        path,
        judge,
        settings,
        langs="all" if lang.strip() == "all" else split_list(lang),
        resume=resume,
        cache_dir=cache_dir_path(cache_dir, no_cache),
        chunk_size=chunk_size,
    )
    check_judge(config_.judge)  # before the run folders are read and the judge is loaded
    check_judge_config(config_)
    observed(path, quiet, lambda observer: judge_run(config_, observer))
