"""`mlbench import lm-eval`: each model's lm-eval sample logs become one mlbench run per
benchmark, written by the ordinary pipeline with a backend that answers from the logs
(``replay.py``). mlbench builds every prompt from its own copy of the benchmark and scores
the logged completions and option log-likelihoods with its own metrics; results.json
records the files, lm-eval's version, the task configs and lm-eval's reported values.

What is left out is named, one line per reason, and counted: unknown tasks, unreadable
lines, languages whose logs do not cover a mode (MC needs both the mc1 and the mc2 task),
documents not logged for every task of the run, documents that are not mlbench's copy of
their question, logs of one model made with other settings, and samples whose prompt or
generation settings differ from mlbench's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from mlbench.benchmarks import all_tasks
from mlbench.benchmarks.base import Task, TaskOptions
from mlbench.data.source import templated_id
from mlbench.engine.checks import run_dir_of
from mlbench.engine.failures import SamplesFailed
from mlbench.engine.lm_eval_import.logs import SamplesLog, find_samples_files, read_samples_log, task_of
from mlbench.engine.lm_eval_import.replay import ReplayBackend
from mlbench.engine.pipeline import RunConfig, run
from mlbench.engine.plan import ModelOptions, RunObserver
from mlbench.errors import MlbenchError, some_ids
from mlbench.records import RunResult
from mlbench.records.options import whole_number
from mlbench.results import read_samples, samples_path


@dataclass
class ImportSummary:
    """What an import did, for the lines printed at its end."""

    runs: list[RunResult] = field(default_factory=list)
    imported: int = 0  # samples written without error
    lines: list[str] = field(default_factory=list)  # one per file, line or group of samples left out
    left_out: int = 0  # samples (or unreadable lines) left out
    # A run whose samples mostly failed (``SamplesFailed``): the import ends with its exit code.
    failed: SamplesFailed | None = None

    def skip(self, line: str, count: int = 1) -> None:
        self.lines.append(line)
        self.left_out += count


@dataclass
class _Planned:
    """One model's logs of one benchmark, by language and lm-eval task."""

    task: Task
    logs: dict[str, list[SamplesLog]] = field(default_factory=lambda: defaultdict(list))  # lang → logs
    ids: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))  # (lang, lm-eval task) → ids
    templates: dict[str, str | None] = field(default_factory=dict)  # lm-eval task → the prompt template it asks under


class _ImportObserver(RunObserver):
    """The caller's observer, less the run's advice to retry failed samples with --resume:
    an import lists what it left out, and rerunning it changes nothing."""

    def __init__(self, inner: RunObserver) -> None:
        self.inner = inner

    def start(self, task: str, lang: str, total: int, done: int) -> Callable[[int], None]:
        return self.inner.start(task, lang, total, done)

    def finish(self, run: RunResult, metric_order: list[str], group_name: str = "group") -> None:
        self.inner.finish(run, metric_order, group_name)

    def warn(self, message: str) -> None:
        if "--resume" not in message:
            self.inner.warn(message)

    def note(self, message: str) -> None:
        self.inner.note(message)


def benchmark_of(lm_eval_task: str) -> tuple[Task, str, str, str | None] | None:
    """The benchmark, language, mode and prompt template (None: the benchmark has one
    prompt) whose samples an lm-eval task logs (None: unknown)."""
    for task in all_tasks():
        for known in task.lm_eval_tasks:
            lang = known.language_of(lm_eval_task)
            if lang is not None and lang in task.languages:
                return task, lang, known.mode, known.template
    return None


def import_lm_eval(
    paths: list[Path],
    output: Path,
    task_options: TaskOptions,
    *,
    overwrite: bool = False,
    observer: RunObserver | None = None,
) -> ImportSummary:
    """Import every samples file under ``paths`` into ``output``; ``task_options`` says where
    mlbench's copy of each benchmark is (its few-shot and chat settings come from the logs)."""
    files = find_samples_files(paths)
    if not files:
        raise MlbenchError(f"no lm-eval samples files (samples_<task>_<date>.jsonl) in {', '.join(map(str, paths))}")
    summary = ImportSummary()
    by_model: dict[str, dict[str, _Planned]] = defaultdict(dict)
    for path in files:
        known = benchmark_of(task_of(path))
        if known is None:
            summary.skip(f"{path}: lm-eval task {task_of(path)} is not one mlbench can import")
            continue
        task, lang, _, template = known
        log = read_samples_log(path, partial(task.lm_eval_sample_id, lang))
        for problem in log.problems:
            summary.skip(problem)
        if not log.doc_ids:
            summary.skip(f"{path}: no readable samples", 0)
            continue
        planned = by_model[log.info.model].setdefault(task.name, _Planned(task))
        planned.logs[lang].append(log)
        planned.ids[(lang, log.task)] |= log.doc_ids
        planned.templates[log.task] = template
    for model, tasks in by_model.items():
        for planned in tasks.values():
            _import_run(model, planned, output, task_options, overwrite, observer, summary)
    return summary


def _import_run(
    model: str,
    planned: _Planned,
    output: Path,
    task_options: TaskOptions,
    overwrite: bool,
    observer: RunObserver | None,
    summary: ImportSummary,
) -> None:
    task = planned.task
    where = f"{model} · {task.name}"
    logs = [log for lang_logs in planned.logs.values() for log in lang_logs]
    if len({log.settings for log in logs}) > 1:  # one run has one prompt setting: never mix
        for log in logs:
            summary.skip(
                f"{log.path}: few-shot, chat or model settings differ from its model's other logs", len(log.docs)
            )
        summary.lines.append(f"{where}: import the logs of each setting separately")
        return
    chosen = _chosen_templates(planned, where, summary)
    logs = [log for lang_logs in planned.logs.values() for log in lang_logs]
    task_options = task.with_templates(task_options, chosen) if chosen else task_options
    modes = {lang: _complete_modes(task, lang, planned, summary, chosen) for lang in planned.logs}
    # One run has one set of modes: the one most languages logged in full (ties: more
    # modes, then the task's mode order), so the choice never depends on file order.
    candidates = sorted({m for m in modes.values() if m}, key=lambda s: [task.mode_names.index(x) for x in s])
    if not candidates:
        return
    common = max(candidates, key=lambda s: (sum(v == s for v in modes.values()), len(s)))
    ids: dict[str, set[str]] = {}
    for lang in sorted(planned.logs):
        if modes[lang] != common:
            logged = set().union(*(planned.ids[(lang, log.task)] for log in planned.logs[lang]))
            summary.skip(
                f"{where} · {lang}: its logs cover {'+'.join(modes[lang]) or 'no mode'} in full, "
                f"the run imports {'+'.join(common)}",
                len(logged),
            )
            continue
        ids[lang], logged, tasks = _sample_ids(planned, lang, common, chosen)
        if logged - ids[lang]:
            incomplete = sorted(logged - ids[lang], key=_id_order)
            summary.skip(
                f"{where} · {lang}: {len(incomplete)} documents are not logged for every task "
                f"({', '.join(tasks)}): {_ids(incomplete)}",
                len(incomplete),
            )
        _leave_out_other_documents(planned, lang, ids[lang], task_options, chosen, where, summary)
    langs = tuple(lang for lang in task.languages if ids.get(lang))
    if not langs:
        return
    info = logs[0].info
    used = [log for lang in langs for log in planned.logs[lang]]
    backend = ReplayBackend(used, info)
    problem = backend.template_problem()
    if problem is not None:
        for log in used:
            summary.skip(f"{log.path}: {problem}", len(log.docs))
        return
    options = replace(
        task_options,
        fewshot=info.fewshot,
        chat_template=info.chat_template is not None,
        system_prompt=info.system_instruction,
    )
    config = RunConfig(
        model=ModelOptions(model, backend="lm-eval-log"),
        tasks=(task.name,),
        langs=langs,
        mode=common[0] if len(common) == 1 else "all",
        task_options=options,
        output=output,
        overwrite=overwrite,
        ids={lang: frozenset(ids[lang]) for lang in langs},
        generates=False,
        resumable=False,
    )
    try:
        results = run(config, _ImportObserver(observer or RunObserver()), backend_factory=lambda: backend)
    except SamplesFailed as failed:  # written like any run; the failed samples are listed below
        results, summary.failed = failed.results, failed
    summary.runs += results
    run_dir = run_dir_of(config, task.name)
    for lang in langs:
        records = read_samples(samples_path(run_dir, lang))
        reasons: dict[str, list[str]] = defaultdict(list)
        for record in records.values():
            if record.error:
                reasons[record.error].append(record.id)
        summary.imported += len(records) - sum(map(len, reasons.values()))
        for reason, failed_ids in reasons.items():
            failed_ids.sort(key=_id_order)
            summary.skip(
                f"{where} · {lang}: {len(failed_ids)} samples not imported ({reason}): {_ids(failed_ids)}",
                len(failed_ids),
            )


def _chosen_templates(planned: _Planned, where: str, summary: ImportSummary) -> tuple[str, ...]:
    """The prompt templates the run imports (none: the benchmark has one prompt): those
    logged, when that is one or all of the benchmark's (-T prompt takes one, or all); else
    the first logged, the others' logs named as left out."""
    order = tuple(dict.fromkeys(t.template for t in planned.task.lm_eval_tasks if t.template is not None))
    logged = {template for template in planned.templates.values() if template is not None}
    if not logged:
        return ()
    if len(logged) == 1 or logged == set(order):
        return tuple(t for t in order if t in logged)
    first = next(t for t in order if t in logged)
    for logs in planned.logs.values():
        for log in [log for log in logs if planned.templates[log.task] != first]:
            summary.skip(f"{log.path}: template {planned.templates[log.task]} left out", len(log.docs))
            logs.remove(log)
    summary.lines.append(
        f"{where}: logs of {len(logged)} of its {len(order)} templates; imported {first} (import one template's "
        f"logs at a time, or all {len(order)} together)"
    )
    return (first,)


def _tasks_of(planned: _Planned, lang: str, mode: str | tuple[str, ...], chosen: tuple[str, ...]) -> list[str]:
    """lm-eval's tasks of ``mode`` (or modes) in ``lang`` under the ``chosen`` templates."""
    modes = (mode,) if isinstance(mode, str) else mode
    return [
        name
        for t in planned.task.lm_eval_tasks
        if t.mode in modes and (t.template is None or t.template in chosen) and (name := t.name(lang)) is not None
    ]


def _sample_ids(
    planned: _Planned, lang: str, modes: tuple[str, ...], chosen: tuple[str, ...]
) -> tuple[set[str], set[str], list[str]]:
    """mlbench's samples of ``lang`` that every task of the run's ``modes`` logged, the
    samples any of them logged, and those tasks. Under several templates a sample is a
    question under one of them (``<id>@<template>``)."""
    tasks = _tasks_of(planned, lang, modes, chosen)
    complete: set[str] = set()
    logged: set[str] = set()
    for template in dict.fromkeys(planned.templates.get(name) for name in tasks):
        mine = [name for name in tasks if planned.templates.get(name) == template]
        sample = (lambda q: q) if len(chosen) < 2 else (lambda q, t=template: templated_id(q, str(t)))
        complete |= {sample(q) for q in set.intersection(*(planned.ids[(lang, name)] for name in mine))}
        logged |= {sample(q) for name in mine for q in planned.ids[(lang, name)]}
    return complete, logged, tasks


def _complete_modes(
    task: Task, lang: str, planned: _Planned, summary: ImportSummary, chosen: tuple[str, ...]
) -> tuple[str, ...]:
    """The modes every lm-eval task of which is logged for ``lang`` (MC: mc1 and mc2; under
    each chosen template); a mode logged in part is named."""
    logged = {log.task for log in planned.logs[lang]}
    complete = []
    for mode in task.mode_names:
        names = _tasks_of(planned, lang, mode, chosen)
        present = [name for name in names if name in logged]
        if present and len(present) == len(names):
            complete.append(mode)
        elif present:
            missing = ", ".join(name for name in names if name not in logged)
            count = len(set().union(*(planned.ids[(lang, name)] for name in present)))
            summary.skip(
                f"{planned.task.name} · {lang}: {mode} needs {missing} too; its {count} documents are left out", count
            )
    return tuple(complete)


def _leave_out_other_documents(
    planned: _Planned,
    lang: str,
    ids: set[str],
    task_options: TaskOptions,
    chosen: tuple[str, ...],
    where: str,
    summary: ImportSummary,
) -> None:
    """Take out of ``ids`` every logged document that is not mlbench's copy of its question
    (or not in it at all), one line per reason."""
    task = planned.task
    ours = {sample.id: sample for sample in task.load(lang, task_options).samples}
    reasons: dict[str, list[str]] = defaultdict(list)
    for log in planned.logs[lang]:
        known = benchmark_of(log.task)
        assert known is not None  # import_lm_eval plans only the logs of a known benchmark
        mode = known[2]
        template = planned.templates.get(log.task)
        for question, doc in log.docs.items():
            doc_id = templated_id(question, str(template)) if len(chosen) > 1 else question
            if doc_id not in ids:
                continue
            if doc_id not in ours:
                reason = "are not in mlbench's copy"
            else:
                difference = task.lm_eval_doc_difference(ours[doc_id], doc, mode)
                if difference is None:
                    continue
                reason = f"differ from mlbench's copy ({difference})"
            ids.discard(doc_id)
            reasons[reason].append(doc_id)
    for reason, found in reasons.items():
        found.sort(key=_id_order)
        summary.skip(f"{where} · {lang}: {len(found)} logged documents {reason}: {_ids(found)}", len(found))


def _id_order(value: str) -> tuple[int, str]:
    """Numbered ids by number, then the rest by text; a log's id is outside text, and
    isdigit() is true of "²", which int() refuses."""
    number = whole_number(value, signed=False)
    return (number, "") if number is not None else (1 << 62, value)


def _ids(ids: list[str]) -> str:
    return some_ids(ids, 8)
