"""run(config): samples → requests → backend → scores → results, resumable.

Everything that can be checked without a model (tasks, languages, options, data, output
folder) is checked first, so bad input fails in a second instead of after a model load.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.backends.registry import create_backend
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import Task, TaskOptions, all_mode_settings
from mlbench.benchmarks.english_match import align_by_english
from mlbench.benchmarks.scope import label_scope
from mlbench.data.alignment import check_rows_once
from mlbench.data.source import question_rows, subset
from mlbench.engine.answer_checks import surface_metric_names, warm_up_in_background
from mlbench.engine.checks import check_not_overwriting, check_size, check_writable, run_dir_of
from mlbench.engine.chunk_loop import ChunkLoop
from mlbench.engine.data_coverage import left_out_lines, unpaired_lines
from mlbench.engine.failures import LanguageFailures, SamplesFailed, language_failures, too_many
from mlbench.engine.lock import lock_languages
from mlbench.engine.other_languages import elsewhere
from mlbench.engine.plan import (  # noqa: F401  (re-exported: the pipeline's public nouns)
    DEFAULT_CHUNK_SIZE,
    PlannedLanguage,
    PlannedTask,
    RunConfig,
    RunObserver,
)
from mlbench.engine.provenance import judged_settings, provenance
from mlbench.engine.resumed import check_resumed_data, realign_saved
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.languages import pick_languages
from mlbench.metrics.judged import JUDGE_METRICS
from mlbench.records import RunResult, SampleRecord
from mlbench.records.jsontypes import JsonObject, Tables, settings_digest
from mlbench.report.heatmaps import write_figures
from mlbench.results import (
    language_path,
    language_records,
    merge_run,
    read_language,
    read_samples,
    rewrite_samples,
    samples_path,
    write_language,
    written_languages,
)
from mlbench.results.aggregation import aggregate
from mlbench.results.usage import language_usage

Say = Callable[[str], None] | None  # where a warning or a note goes


def resolve_languages(
    task: Task,
    requested: tuple[str, ...] | Literal["all"],
    options: TaskOptions,
    note: Say = None,
    others: Sequence[tuple[Task, TaskOptions]] = (),
) -> list[str]:
    """The task's codes of the languages asked for (``EN``, ``pt-BR``: ``match_language``);
    a missing one names the ``others`` (the run's other tasks) that have it."""
    available = task.available_languages(options)
    if not requested:
        raise MlbenchError(f"no language given for task {task.name}; valid: {', '.join(available)} or all")
    if requested == "all":
        return list(available)
    picked, unknown = pick_languages(requested, available, "--lang", note)
    if unknown:
        hint = elsewhere(requested, available, others)
        raise MlbenchError(
            f"task {task.name} has no language {', '.join(unknown)}; valid: {', '.join(available)}{hint}"
        )
    return picked


def plan(config: RunConfig, locks: ExitStack | None = None, warn: Say = None, note: Say = None) -> list[PlannedTask]:
    """Check every input and load every dataset, without touching a model. With ``locks``,
    every language to run is locked for this process (held until ``locks`` closes), so a
    second run of the same language into the same folder stops here (see ``run_lock``).
    ``note`` hears once of each language tag read as another code (``--lang pt-BR: using pt``)."""
    said: dict[str, None] = {}  # each note once, though every task of the run reads --lang
    warned: dict[str, None] = {}
    if not config.tasks:
        raise MlbenchError("no task given; see `mlbench tasks`")
    if config.resume and config.overwrite:
        raise MlbenchError("--resume continues the results already there and --overwrite replaces them: choose one")
    planned = []
    for name in config.tasks:
        task = get_task(name)
        options = config.options_for(task)
        task.validate(options)
        modes = task.mode_names if config.mode == "all" else (config.mode,)
        if config.mode != "all" and config.mode not in task.mode_names:
            given, hint = clipped(config.mode), did_you_mean(config.mode, task.mode_names)
            raise MlbenchError(f"task {name} has no mode {given}{hint}; valid: {', '.join(task.mode_names)}")
        languages = []
        others = [(get_task(other), config.options_for(get_task(other))) for other in config.tasks if other != name]
        for lang in resolve_languages(task, config.langs, options, said.setdefault, others):
            matched = align_by_english(task, task.load(lang, options), options, lang)
            labelled = label_scope(task, matched.data, options.source)  # after the rows: a row's scope
            data = labelled.data
            # Labels a run goes without where their source is not at hand: a note, once a
            # task; questions the data leaves unmatched: a warning, per language.
            for line, heard in ((matched.note, said), (labelled.note, said), (matched.warning, warned)):
                if line is not None:
                    heard.setdefault(line)
            unknown = tuple(dict.fromkeys((*matched.unknown, *labelled.unknown)))
            named = [(question, row) for question, row in question_rows(data.samples).items() if row is not None]
            check_rows_once(named, f"{name} {lang}")
            samples = subset(config.asked(lang, data.samples), config.limit, config.seed)
            if not samples:
                raise MlbenchError(f"task {name} has no questions in {lang} (after --limit)")
            languages.append(PlannedLanguage(lang, data, samples, unknown))
        task.check_languages({p.lang: p.data for p in languages}, options)
        planned.append(PlannedTask(task, modes, languages))
    if note is not None:
        for line in said:
            note(line)
    if warn is not None:
        for line in warned:
            warn(line)
    check_writable(config.output)
    if locks is not None:
        # Before the check for existing results: a run already writing them is the
        # reason to give, not "pass --resume", which would then write every sample twice.
        for item in planned:
            lock_languages(locks, run_dir_of(config, item.task.name), [p.lang for p in item.languages], warn)
    for item in planned:
        check_not_overwriting(config, item)
    return planned


def config_hash(task: Task, modes: tuple[str, ...], config: RunConfig, fingerprint: str) -> str:
    """What a saved sample depends on; a resumed run must match it. (--limit and --seed
    only choose which ids run, so they are not part of it; --seed is where the task's
    protocol samples with it: ``Task.seeds_outputs``.)"""
    options = config.options_for(task)
    payload = {
        "task": task.name,
        "modes": list(modes),
        "fewshot": task.fewshot(options),
        "chat_template": options.chat_template,
        "system_prompt": options.system_prompt,
        "source": options.source.describe(task.hub_id),
        "model": fingerprint,
    }
    if options.max_new_tokens is not None:  # only when set, so older runs keep their hash
        payload["max_new_tokens"] = options.max_new_tokens
    if task.settings(options):
        payload["task_settings"] = task.settings(options)
    if per_mode := all_mode_settings(task, modes, options):  # only when set: older runs keep their hash
        payload["mode_settings"] = per_mode
    if task.seeds_outputs(options, modes):  # sampled answers: another seed, other answers
        payload["seed"] = config.seed
    return settings_digest(payload)


def metric_order(task: Task, modes: tuple[str, ...]) -> list[str]:
    """The metrics of a run in table order: the task's, the surface checks of generated
    answers, those a judge adds, then the task's combined scores."""
    own = list(dict.fromkeys(m for mode in modes for m in task.mode(mode).metrics))
    return own + surface_metric_names(task, modes) + list(JUDGE_METRICS) + list(task.combined_metric_names)


def run(
    config: RunConfig, observer: RunObserver | None = None, backend_factory: Callable[[], Backend] | None = None
) -> list[RunResult]:
    observer = observer or RunObserver()
    failures: list[LanguageFailures] = []
    # The languages' locks are held from the checks to the last write, and released on
    # any exit (an OS lock: a killed process releases it too).
    with ExitStack() as locks:
        planned = plan(config, locks, observer.warn, observer.note)
        check_size(config, planned, observer)
        for item in planned:
            warm_up_in_background(item.task, item.modes)
            for planned_lang in item.languages:  # after every check: a refused run says one line
                for message in item.task.data_warnings(planned_lang.lang, planned_lang.samples, item.modes):
                    observer.warn(message)
                for message in left_out_lines(item.task.name, planned_lang.lang, planned_lang.data):
                    observer.warn(message)
        # Created after every input has been checked, and only once: one engine for the run.
        backend = (backend_factory or (lambda: create_backend(config.model, config.cache_dir)))()
        try:
            for item in planned:  # every task's, before any is scored
                check_resumed_data(config, item, config_hash(item.task, item.modes, config, backend.fingerprint))
            results = [run_task(config, item, backend, observer, failures) for item in planned]
        finally:
            backend.close()  # worker processes, HTTP connections, the cache file
    # After every language is written (so --resume can retry the failed samples): a run
    # whose languages mostly failed must not end like a finished one.
    if too_many(failures):
        raise SamplesFailed(too_many(failures), results)
    return results


def run_task(
    config: RunConfig,
    item: PlannedTask,
    backend: Backend,
    observer: RunObserver,
    failures: list[LanguageFailures] | None = None,
) -> RunResult:
    """Every language of one task: score what is not done yet, write as it finishes.
    Languages with failed samples are added to ``failures``; those with few get a warning
    here (those with too many end the run with an error, in ``run``)."""
    task = item.task
    run_dir = run_dir_of(config, task.name)
    run_dir.mkdir(parents=True, exist_ok=True)
    chash = config_hash(task, item.modes, config, backend.fingerprint)
    folder = _TaskFolder(config, item, backend, observer, run_dir, chash)
    chunks = ChunkLoop(config, item, backend, observer, chash)
    for index, planned_lang in enumerate(item.languages):
        started = time.perf_counter()
        path = samples_path(run_dir, planned_lang.lang)
        done = folder.saved_samples(planned_lang, path)
        model_work = chunks.score_language(index, done, path)
        records = [done[s.id] for s in planned_lang.samples]
        failed = language_failures(task.name, planned_lang.lang, records)
        if failed is not None:
            if failures is not None:
                failures.append(failed)
            if not failed.too_many:
                observer.warn(failed.line())
        if task.finish_language(records, chunks.options, config.seed, folder.progress_of(planned_lang.lang)):
            rewrite_samples(path, done.values())
        result, other_settings = folder.write(planned_lang, records, started, model_work)
    if other_settings:
        observer.warn(f"{run_dir}: left {', '.join(other_settings)} out of results.json (written with other settings)")
    if task.parallel:  # a language added to a folder whose others were scored on other ids
        for line in unpaired_lines(task.name, {p.lang: p.data for p in item.languages}, result.languages):
            observer.warn(line)
    observer.finish(result, folder.order, task.group_name)
    return result


@dataclass(frozen=True)
class _TaskFolder:
    """A task's folder of the run (``run_dir``): each language's saved samples read, its
    result written and every language's merged into results.json."""

    config: RunConfig
    item: PlannedTask
    backend: Backend
    observer: RunObserver
    run_dir: Path
    chash: str

    @property
    def order(self) -> list[str]:
        return metric_order(self.item.task, self.item.modes)

    def saved_samples(self, planned_lang: PlannedLanguage, path: Path) -> dict[str, SampleRecord]:
        """The language's samples already in ``path`` with these settings (none unless the
        run resumes), realigned to the data as it is now."""
        if not self.config.resume:
            # A fresh start (plan() let it through: nothing there, or --overwrite): the
            # language's old result goes with its samples, so no merge can mix them in.
            path.unlink(missing_ok=True)
            language_path(self.run_dir, planned_lang.lang).unlink(missing_ok=True)
        done = read_samples(path, self.chash)
        realign_saved(path, done, planned_lang, f"{self.item.task.name} {planned_lang.lang}", self.observer.warn)
        return done

    def progress_of(self, lang: str) -> Callable[[str, int], Callable[[int], None]]:
        """What opens the progress indicator of a task's work after scoring (a judge's, say)."""

        def start(what: str, total: int) -> Callable[[int], None]:
            return self.observer.start(f"{self.item.task.name} · {what}", lang, total, 0)

        return start

    def write(
        self, planned_lang: PlannedLanguage, records: list[SampleRecord], started: float, model_work: JsonObject
    ) -> tuple[RunResult, list[str]]:
        """Aggregate the language's ``records`` and write its result with the settings it
        ran with; then merge every language written so far into results.json (the run's,
        and the settings of those left out as written with other settings)."""
        config, task, lang, order = self.config, self.item.task, planned_lang.lang, self.order
        language = aggregate(lang, records, order, config.seed, task, planned_lang.data.counts)
        timings = {lang: round(time.perf_counter() - started, 3)}
        settings = provenance(config, task, self.item.modes, self.backend, timings)
        settings["data_sha256"] = {lang: planned_lang.data_hash}
        settings["model_work_unix"] = {lang: model_work}
        if planned_lang.data.counts:
            counts: JsonObject = {**planned_lang.data.counts}
            settings["data_counts"] = {lang: counts}
        if planned_lang.data.left_out:  # each left-out question named, by reason
            settings["data_left_out"] = {lang: [part.to_json() for part in planned_lang.data.left_out]}
        settings.update(judged_settings(self.run_dir, lang, self.chash))  # a resumed run keeps its verdicts' judges
        settings.update(language_usage(lang, records, settings))  # the API tokens of its samples
        write_language(self.run_dir, language, settings, self.chash, [s.id for s in planned_lang.samples])
        # Statistics across languages once, after the run's last language: they read every
        # language written so far (a Slurm job per language gets them in each job).
        last = planned_lang is self.item.languages[-1]
        return merge_run(
            self.run_dir,
            RunResult(config.model.model, task.name, settings, {}),
            self.chash,
            order,
            task.languages,
            task.group_name,
            cross_language(task, self.run_dir, self.chash, self.observer.start) if last else None,
        )


def cross_language(
    task: Task, run_dir: Path, chash: str, start: Callable[[str, str, int, int], Callable[[int], None]] | None = None
) -> Tables:
    """The task's statistics across every language of ``run_dir`` written with ``chash``;
    its figures are drawn beside results.json. ``start`` opens a progress indicator."""
    if not task.compares_languages:
        return {}
    records_by_lang: dict[str, list[SampleRecord]] = {}
    run_config: JsonObject = {}
    for lang in written_languages(run_dir):
        written = read_language(run_dir, lang)
        if written.config_hash == chash:
            records_by_lang[lang] = language_records(run_dir, written)
            run_config = written.config
    if len(records_by_lang) < 2:
        return {}
    done = start(f"{task.name} · cross-language tests", ",".join(records_by_lang), 1, 0) if start else None
    tables = task.cross_language(records_by_lang, run_config)
    write_figures(run_dir, task.figures(tables))
    if done is not None:
        done(1)
    return tables
