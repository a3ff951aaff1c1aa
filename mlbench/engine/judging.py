"""The judging stage: a judge's verdicts added to the saved samples of finished runs.

It reads ``samples_<lang>.jsonl``, never regenerates an answer, writes each chunk of
verdicts back as it finishes (so a killed job loses at most one chunk), then rebuilds the
per-language results and tables. Verdicts sit under ``judges.<kind>`` in each sample and
their metrics (``truthful``, ``relevant``, ...) beside the task's own.

Several judging jobs may work on one run folder at once (a truth judge and an info judge,
say): every read-modify-write of a samples file happens under the run folder's lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mlbench.backends.base import Backend
from mlbench.backends.redact import redact_url
from mlbench.backends.registry import ModelOptions, create_backend
from mlbench.benchmarks import all_tasks, get_task
from mlbench.benchmarks.base import Task
from mlbench.data.source import DataSource
from mlbench.engine.budget import Budget, chunk_size, spend_verdicts
from mlbench.engine.failures import LanguageFailures, SamplesFailed, too_many, verdict_failures
from mlbench.engine.pipeline import RunConfig, RunObserver, cross_language, metric_order
from mlbench.engine.verdicts import apply_entries, judge_records, needs_verdict
from mlbench.errors import MlbenchError
from mlbench.judges import Judge, JudgeSpec, load_spec
from mlbench.judges.evidence import SearchClient
from mlbench.judges.options import JudgeProtocol, JudgeProtocolName, ScoringChoice
from mlbench.languages import pick_languages
from mlbench.records import RunResult
from mlbench.records.json_shapes import json_list, json_number, json_object, json_text
from mlbench.records.jsontypes import JsonObject, settings_digest
from mlbench.results import (
    language_records,
    merge_run,
    read_language,
    read_run,
    read_samples,
    rewrite_samples,
    run_dir_lock,
    samples_path,
    write_language,
    written_languages,
)
from mlbench.results.aggregation import aggregate
from mlbench.results.usage import USAGE_KEYS, language_usage


@dataclass(frozen=True)
class JudgeConfig:
    path: Path  # one run folder (<out>/<model>/<task>) or a folder of them
    judge: ModelOptions
    kinds: tuple[str, ...] = ()  # empty: each run's benchmark's own (Task.default_judge_kinds)
    langs: tuple[str, ...] | Literal["all"] = "all"
    chat: bool | None = None  # None: chat when the judge has a chat template (servers: always)
    scoring: ScoringChoice = "auto"
    protocol: JudgeProtocolName = "trained"  # -J protocol: the benchmark's judge_protocols
    resume: bool = False
    cache_dir: Path | None = None
    chunk_size: int = 32
    search: SearchClient | None = None  # evidence for claim_support where no human answer
    budget: Budget | None = None  # --max-cost / --max-tokens, shared with the run before it


def find_run_dirs(path: Path) -> list[Path]:
    """``path`` itself when it is a run folder, else every run folder under it."""
    if not path.is_dir():
        raise MlbenchError(f"no such run folder: {path}")
    if written_languages(path):
        return [path]
    found = sorted({p.parent for p in path.rglob("results_*.json")})
    if not found:
        raise MlbenchError(f"no run under {path} (no results_<lang>.json): run `mlbench run` first")
    return found


def resolve_chat(backend: Backend, requested: bool | None) -> bool:
    if requested is not None:
        return requested
    if backend.name == "openai":
        return True  # servers apply the model's template to chat messages
    return bool(backend.describe().get("chat_template_hash"))


def resolve_scoring(spec: JudgeSpec, requested: ScoringChoice) -> Literal["logprob", "generate"]:
    if requested == "auto":
        return "logprob" if spec.output == "yes_no" else "generate"
    return requested


def judge_settings(judge: Judge, backend: Backend, model: str) -> JsonObject:
    """What a verdict depends on; recorded in results.json and hashed into every verdict,
    so ``--resume`` redoes the verdicts of another judge or prompt."""
    settings: JsonObject = {
        "judge": model,
        "backend": backend.name,
        "fingerprint": backend.fingerprint,
        "chat": judge.chat,
        "scoring": judge.scoring,
        "prompt_sha256": judge.spec.sha256,
    }
    if judge.protocol != "trained":  # only then: the verdicts given before the choice keep their hash
        settings["protocol"] = judge.protocol
    # A served judge is known by its name only: its URL changes when a requeued job starts
    # the server elsewhere, and that must not throw away the verdicts already given.
    identity = {**settings, "fingerprint": model if backend.name == "openai" else backend.fingerprint}
    digest = settings_digest(identity)
    return {**settings, "settings_hash": digest}


def check_judge_config(config: JudgeConfig, tasks: tuple[Task, ...] = (), source: DataSource | None = None) -> None:
    """What can be checked of a judging stage before any model runs (so that a run with
    --judge does not generate for an hour and then stop): its kinds, its protocol against
    the benchmarks of ``tasks`` (whose data will come from ``source``), and its model's
    options against the backend it will run on (built once: ``ModelOptions.options``)."""
    from mlbench.backends.options import HfOptions, gpu_visible

    for kind in config.kinds:
        load_spec(kind)
    check_protocol(config, tasks)
    for task in tasks:
        recorded: JsonObject = {"data_source": source.describe(task.hub_id)} if source is not None else {}
        task.check_judge_protocol(protocol_of(config), config.kinds or task.default_judge_kinds, recorded, config.chat)
    options = config.judge.options
    if isinstance(options, HfOptions) and options.device == "cuda" and not gpu_visible():
        raise MlbenchError("-J device=cuda but torch sees no CUDA GPU; use -J device=cpu or auto")


def protocol_of(config: JudgeConfig) -> JudgeProtocol:
    return JudgeProtocol(config.protocol, config.judge, config.scoring)


def check_protocol(config: JudgeConfig, tasks: tuple[Task, ...]) -> None:
    """-J protocol names a protocol every benchmark judged has."""
    for task in tasks:
        if config.protocol not in task.judge_protocols:
            offered = [t.name for t in all_tasks() if config.protocol in t.judge_protocols]
            raise MlbenchError(
                f"-J protocol={config.protocol}: {task.name}'s judges have no such protocol (it has"
                f" {', '.join(task.judge_protocols)}; {config.protocol} is {' and '.join(offered)}'s)"
            )


def judge_run(
    config: JudgeConfig, observer: RunObserver | None = None, backend_factory: Callable[[], Backend] | None = None
) -> list[RunResult]:
    """Judge every chosen language of every run under ``config.path``, one kind after the
    other with the same judge model; returns the rebuilt results of each run and kind.
    Failed verdicts are warned about per language; where more than half of a language's
    failed, SamplesFailed (exit 1) once everything is judged and written, as for a run."""
    observer = observer or RunObserver()
    plans = plan_languages(find_run_dirs(config.path), config.langs, observer.note)
    # Every run's task first, before a judge loads (a user's benchmark is included again here).
    tasks_of = {run_dir: _task_of(run_dir) for run_dir, _ in plans}
    kinds_of = {run_dir: config.kinds or tasks_of[run_dir].default_judge_kinds for run_dir, _ in plans}
    check_protocol(config, tuple(tasks_of.values()))
    for run_dir, task in tasks_of.items():  # the protocol's own refusals, before the judge loads
        task.check_judge_protocol(protocol_of(config), kinds_of[run_dir], read_run(run_dir).config, config.chat)
    # Every kind once, in the order given (or each benchmark's order: claims before claim_support).
    specs = [load_spec(kind) for kind in dict.fromkeys(k for kinds in kinds_of.values() for k in kinds)]
    _check_answers(plans)
    backend = (backend_factory or (lambda: create_backend(config.judge, config.cache_dir)))()
    try:
        results, failures = [], []
        for spec in specs:
            judge = Judge(spec, chat=resolve_chat(backend, config.chat), scoring=resolve_scoring(spec, config.scoring))
            if config.protocol != "trained" and config.chat is None:  # the script is told; here it was inferred
                how = "an instruct judge (it has a chat template)" if judge.chat else "a base judge (no chat template)"
                observer.note(
                    f"-J protocol={config.protocol}: {spec.kind} judged as {how}; -J chat_template=... to choose"
                )

            def settings_of(judge: Judge) -> JsonObject:
                settings = judge_settings(judge, backend, config.judge.model)
                if judge.spec.kind == "claim_support" and config.search is not None:
                    # Recorded, not hashed: a search service moved to another URL keeps the verdicts.
                    shown_url = redact_url(config.search.url)  # without the URL's credentials
                    settings = {**settings, "search_url": shown_url, "search_results": config.search.results}
                if config.judge.prompt_price is not None:  # recorded, not hashed: for the cost of its tokens
                    settings = {**settings, "prompt_price": config.judge.prompt_price}
                    settings["completion_price"] = config.judge.completion_price
                return settings

            for run_dir, langs in plans:
                # A run folder without the requested languages, or whose benchmark does not
                # use this judge by default, is left alone.
                if langs and spec.kind in kinds_of[run_dir]:
                    result, failed = _judge_run_dir(config, run_dir, langs, judge, backend, settings_of, observer)
                    results.append(result)
                    failures.extend(failed)
        if too_many(failures):
            raise SamplesFailed(too_many(failures), results)
        return results
    finally:
        backend.close()


def _task_of(run_dir: Path) -> Task:
    from mlbench.benchmarks import task_of_run

    run = read_run(run_dir)
    # A benchmark of the user's (--include) is loaded again from the file the run recorded.
    return task_of_run(run.task, run.config.get("include"), str(run_dir / "results.json"))


def plan_languages(
    run_dirs: list[Path], requested: tuple[str, ...] | Literal["all"], note: Callable[[str], object] | None = None
) -> list[tuple[Path, list[str]]]:
    """The languages to judge in each run folder; a requested language that no run has
    is an error (one that only some runs have is judged where it exists). ``EN``, ``pt-BR``
    are read as the runs' codes (``languages.pick_languages``; ``note`` hears of a tag)."""
    have = sorted({lang for run_dir in run_dirs for lang in written_languages(run_dir)})
    picked: list[str] | None = None  # None: every language a run has
    if requested != "all":
        picked, missing = pick_languages(requested, have, "--lang", note)
        if missing:
            raise MlbenchError(f"no run has results in {', '.join(missing)}; written: {', '.join(have)}")
    plans = []
    for run_dir in run_dirs:
        written = written_languages(run_dir)
        plans.append((run_dir, written if picked is None else [lang for lang in picked if lang in written]))
    return plans


def _data_counts(run_config: JsonObject, lang: str) -> dict[str, int] | None:
    """The language's counts of the data's rows as the run recorded them (None: not recorded)."""
    counts = json_object(run_config.get("data_counts", {}), "the run's data_counts").get(lang)
    if counts is None:
        return None
    return {name: int(json_number(n, "a data count")) for name, n in json_object(counts, "data counts").items()}


def _check_answers(plans: list[tuple[Path, list[str]]]) -> None:
    """Fail before loading a judge when no run has a generated answer to judge."""
    for run_dir, langs in plans:
        for lang in langs:
            records = read_samples(samples_path(run_dir, lang))
            if any("answer" in r.outputs for r in records.values()):
                return
    raise MlbenchError("no generated answers to judge: judging needs a run with --mode gen (or all)")


def _judge_run_dir(
    config: JudgeConfig,
    run_dir: Path,
    langs: list[str],
    judge: Judge,
    backend: Backend,
    settings_of: Callable[[Judge], JsonObject],
    observer: RunObserver,
) -> tuple[RunResult, list[LanguageFailures]]:
    kind = judge.spec.kind
    failures = []
    overview = read_run(run_dir)
    task = get_task(overview.task)
    given = judge
    for lang in langs:
        # The benchmark's own judge for this language, if its protocol has one (Task.judge_for).
        judge = task.judge_for(given, read_language(run_dir, lang).config, lang, protocol_of(config))
        settings = settings_of(judge)
        # The samples the language's result is of, not every line of its file: a resumed
        # run with a smaller --limit leaves more there (judged, they would change n).
        selected = language_records(run_dir, read_language(run_dir, lang))
        chash, path = read_language(run_dir, lang).config_hash, samples_path(run_dir, lang)
        todo = [
            r
            for r in selected
            if needs_verdict(r, kind, json_text(settings["settings_hash"], "a judge's settings_hash"), config.resume)
        ]
        progress = observer.start(f"{task.name} · {kind} judge", lang, len(selected), len(selected) - len(todo))
        start = 0
        while start < len(todo):
            # Fewer samples as a --max-cost/--max-tokens budget nears its end; BudgetSpent at it.
            chunk = todo[start : start + chunk_size(config.budget, f"judge {kind}", config.chunk_size, config.judge)]
            entries = judge_records(judge, backend, chunk, settings, task, config.search)
            with run_dir_lock(run_dir):
                current = read_samples(path, chash)
                for sample_id, entry in entries.items():
                    apply_entries(current[sample_id], kind, entry, task)
                rewrite_samples(path, current.values())
            spend_verdicts(config.budget, kind, [current[r.id] for r in chunk], config.judge)
            progress(len(chunk))
            start += len(chunk)
        with run_dir_lock(run_dir):
            # Read again under the lock: another judging job may have added its verdicts.
            written = read_language(run_dir, lang)
            # The usage is summed again from the samples: an old block must not outlive an empty sum.
            kept = {key: value for key, value in written.config.items() if key not in USAGE_KEYS}
            judges = json_object(written.config.get("judges", {}), "the run's judges")
            run_config: JsonObject = {**kept, "judges": {**judges, kind: settings}}
            modes = json_list(run_config.get("modes", list(task.mode_names)), "the run's modes")
            order = metric_order(task, tuple(json_text(mode, "a mode") for mode in modes))
            records = language_records(run_dir, written)
            run_config.update(language_usage(lang, records, run_config))  # with the judge's tokens
            seed = int(json_number(run_config.get("seed", 0), "the run's seed"))
            language = aggregate(lang, records, order, seed, task, _data_counts(run_config, lang))
            write_language(run_dir, language, run_config, chash, written.sample_ids)
        failed = verdict_failures(f"{task.name} {kind} judge", lang, records, kind)
        if failed is not None:
            failures.append(failed)
            if not failed.too_many:
                observer.warn(failed.line())
        template = RunResult(overview.model, task.name, run_config, {})
        comparison = cross_language(task, run_dir, chash, observer.start)
        result, _ = merge_run(run_dir, template, chash, order, task.languages, task.group_name, comparison)
    observer.finish(result, order, task.group_name)
    return result, failures


def judge_after_run(config: RunConfig, judge_config: JudgeConfig, tasks: list[str], observer: RunObserver) -> None:
    """``run --judge``: the judging stage on the folders the run just wrote."""
    from dataclasses import replace

    from mlbench.results import model_slug

    if config.model.runs_on == "vllm" and judge_config.judge.runs_on == "vllm":
        from mlbench.backends.vllm import release_engines

        release_engines()  # one GPU: the evaluated model's engine makes room for the judge's
    for task_name in tasks:
        run_dir = config.output / model_slug(config.model.model) / task_name
        judge_run(replace(judge_config, path=run_dir), observer)
