"""What a run checks before it starts: where its results go, that it may write there and
would not overwrite results it was not told to, and that it is not unexpectedly large."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mlbench.errors import MlbenchError
from mlbench.records import GenerationRequest, Sample
from mlbench.results import language_path, model_slug, read_samples, samples_path
from mlbench.results.files import check_versions

if TYPE_CHECKING:
    from mlbench.benchmarks.base import LanguageData, Task, TaskOptions
    from mlbench.engine.plan import PlannedLanguage, PlannedTask, RunConfig, RunObserver

# More texts than this to generate needs --yes: a mistyped option should not start a day's work.
CONFIRM_GENERATIONS = 10_000


def run_dir_of(config: RunConfig, task_name: str) -> Path:
    """Where a task's results go: OUTPUT/<model slug>/<task>."""
    return config.output / model_slug(config.model.model) / task_name


def check_not_overwriting(config: RunConfig, item: PlannedTask) -> None:
    """Refuse a run that would replace results already written for one of its languages,
    unless it was asked to continue them (--resume) or replace them (--overwrite). Other
    languages in the same folder are another job's (a Slurm array writes one language
    each) and stay as they are."""
    run_dir = run_dir_of(config, item.task.name)
    check_versions(run_dir)
    if config.resume or config.overwrite:
        return
    if any(samples_path(run_dir, p.lang).exists() or language_path(run_dir, p.lang).exists() for p in item.languages):
        if not config.resumable:  # `mlbench import` has no --resume
            raise MlbenchError(
                f"{run_dir} already holds results: pass --overwrite to replace them or choose another --output"
            )
        raise MlbenchError(
            f"{run_dir} already holds results: pass --resume to continue them or --overwrite to start again"
        )


def generation_count(config: RunConfig, planned: list[PlannedTask]) -> int:
    """Texts the run will ask the model to write: with --resume, for the samples not yet
    saved (a sample saved without error, from the same data, is not asked again)."""
    return sum(
        texts_to_write(item.task, item.modes, _left(config, item, lang), lang.data, config.options_for(item.task))
        for item in planned
        for lang in item.languages
    )


def _left(config: RunConfig, item: PlannedTask, lang: PlannedLanguage) -> list[Sample]:
    if not config.resume:
        return lang.samples
    # Before the model loads its settings hash is not known; a file saved with other
    # settings is refused once it is (read_samples), so every saved line counts as done.
    saved = read_samples(samples_path(run_dir_of(config, item.task.name), lang.lang), repair=False)
    done = {i for i, r in saved.items() if r.error is None and r.data_hash in ("", lang.data_hash)}
    return [s for s in lang.samples if s.id not in done]


def texts_to_write(
    task: Task, modes: tuple[str, ...], samples: list[Sample], data: LanguageData, options: TaskOptions
) -> int:
    """How many texts ``modes`` make the model write for ``samples`` (n per request)."""
    return sum(
        request.n
        for mode in modes
        for sample in samples
        for request in task.requests(mode, sample, data, options)
        if isinstance(request, GenerationRequest)
    )


def check_size(config: RunConfig, planned: list[PlannedTask], observer: RunObserver) -> None:
    if not config.generates:
        return
    count = generation_count(config, planned)
    if count:
        observer.note(f"this run generates {count:,} text{'s' if count != 1 else ''}")
    if count > CONFIRM_GENERATIONS and not config.yes:
        raise MlbenchError(
            f"this run generates {count:,} texts (over {CONFIRM_GENERATIONS:,}); "
            "pass --yes to go ahead, or fewer -T samples/temperatures or a --limit"
        )


def check_writable(output: Path) -> None:
    try:
        output.mkdir(parents=True, exist_ok=True)
        probe = output / ".mlbench-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise MlbenchError(f"cannot write to output dir {output}: {error.strerror or error}") from None
