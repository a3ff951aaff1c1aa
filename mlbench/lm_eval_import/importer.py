"""`mlbench import lm-eval`: each model's lm-eval sample logs become one mlbench run per
benchmark, written by the ordinary pipeline with a backend that answers from the logs
(``replay.py``). mlbench builds every prompt from its own copy of the benchmark and scores
the logged completions and option log-likelihoods with its own metrics; results.json
records the files, lm-eval's version, the task configs and lm-eval's reported values.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from mlbench.benchmarks import all_tasks
from mlbench.errors import MlbenchError
from mlbench.lm_eval_import.logs import SamplesLog, find_samples_files, read_samples_log, task_of
from mlbench.lm_eval_import.replay import ReplayBackend
from mlbench.pipeline import RunConfig, run
from mlbench.run_checks import run_dir_of
from mlbench.run_config import ModelOptions, RunObserver
from mlbench.run_failures import SamplesFailed
from mlbench.run_files import read_samples, samples_path
from mlbench.schema import RunResult
from mlbench.tasks.base import Task, TaskOptions


@dataclass
class ImportSummary:
    """What an import did, for the lines printed at its end."""

    runs: list[RunResult] = field(default_factory=list)
    imported: int = 0  # samples written without error
    lines: list[str] = field(default_factory=list)  # one per file, line or sample left out
    left_out: int = 0

    def skip(self, line: str) -> None:
        self.lines.append(line)
        self.left_out += 1


@dataclass
class _Planned:
    task: Task
    logs: list[SamplesLog] = field(default_factory=list)
    modes: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # lang → modes logged
    ids: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def benchmark_of(lm_eval_task: str) -> tuple[Task, str, str] | None:
    """The benchmark, language and mode whose samples an lm-eval task logs (None: unknown)."""
    for task in all_tasks():
        for known in task.lm_eval_tasks:
            lang = known.language_of(lm_eval_task)
            if lang is not None and lang in task.languages:
                return task, lang, known.mode
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
        task, lang, mode = known
        log = read_samples_log(path)
        for problem in log.problems:
            summary.skip(problem)
        if not log.doc_ids:
            summary.skip(f"{path}: no readable samples")
            continue
        planned = by_model[log.info.model].setdefault(task.name, _Planned(task))
        planned.logs.append(log)
        planned.modes[lang].add(mode)
        planned.ids[lang] |= log.doc_ids
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
    # One run has one set of modes: the one most languages logged (the others are named).
    mode_sets = {lang: tuple(m for m in task.mode_names if m in modes) for lang, modes in planned.modes.items()}
    common = max(set(mode_sets.values()), key=lambda s: (sum(v == s for v in mode_sets.values()), len(s)))
    for lang, modes in sorted(mode_sets.items()):
        if modes != common:
            summary.skip(f"{model} · {task.name} · {lang}: logs {'+'.join(modes)}, the run imports {'+'.join(common)}")
    langs = tuple(lang for lang in task.languages if mode_sets.get(lang) == common)
    logs = [
        log
        for log in planned.logs
        if any(log.task == t.pattern.format(lang=lang) for t in task.lm_eval_tasks for lang in langs)
    ]
    info = logs[0].info
    settings = {(log.info.fewshot, log.info.chat_template, log.info.system_instruction) for log in logs}
    if len(settings) > 1:  # one run has one prompt setting: never mix what the logs do not share
        for log in logs:
            summary.skip(f"{log.path}: its few-shot, chat template or system prompt differ from the model's other logs")
        summary.lines.append(f"{model} · {task.name}: import its logs of each setting separately")
        return
    for lang in langs:
        _leave_out_other_documents(
            task, lang, [log for log in logs if _language(log) == lang], planned, task_options, model, summary
        )
    langs = tuple(lang for lang in langs if planned.ids[lang])
    if not langs:
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
        mode="all" if common == task.mode_names else common[0] if len(common) == 1 else "all",
        task_options=options,
        output=output,
        overwrite=overwrite,
        ids={lang: frozenset(planned.ids[lang]) for lang in langs},
        generates=False,
    )
    try:
        results = run(config, observer, backend_factory=lambda: ReplayBackend(logs, info))
    except SamplesFailed as failed:  # written like any run; the failed samples are listed below
        results = failed.results
    summary.runs += results
    run_dir = run_dir_of(config, task.name)
    for lang in langs:
        records = read_samples(samples_path(run_dir, lang))
        failed = sorted((r.id for r in records.values() if r.error), key=_id_order)
        summary.imported += len(records) - len(failed)
        if failed:
            summary.left_out += len(failed)
            summary.lines.append(
                f"{model} · {task.name} · {lang}: {len(failed)} samples not imported, their prompts differ "
                f"from mlbench's: {_ids(failed)}"
            )


def _language(log: SamplesLog) -> str | None:
    known = benchmark_of(log.task)
    return known[1] if known else None


def _leave_out_other_documents(
    task: Task,
    lang: str,
    logs: list[SamplesLog],
    planned: _Planned,
    task_options: TaskOptions,
    model: str,
    summary: ImportSummary,
) -> None:
    """Take out of ``planned.ids[lang]`` every logged document that is not mlbench's copy of
    its question (or not in it at all), one line per reason."""
    ours = {sample.id: sample for sample in task.load(lang, task_options).samples}
    reasons: dict[str, list[str]] = defaultdict(list)
    for log in logs:
        mode = benchmark_of(log.task)[2]  # type: ignore[index]
        for doc_id, doc in log.docs.items():
            if doc_id not in ours:
                reason = "are not in mlbench's copy"
            else:
                difference = task.lm_eval_doc_difference(ours[doc_id], doc, mode)
                if difference is None:
                    continue
                reason = f"differ from mlbench's copy ({difference})"
            if doc_id in planned.ids[lang]:
                planned.ids[lang].discard(doc_id)
                reasons[reason].append(doc_id)
    for reason, ids in reasons.items():
        ids.sort(key=_id_order)
        summary.skip(f"{model} · {task.name} · {lang}: {len(ids)} logged documents {reason}: {_ids(ids)}")


def _id_order(value: str) -> tuple[int, str]:
    return (int(value), "") if value.isdigit() else (1 << 62, value)


def _ids(ids: list[str], shown: int = 8) -> str:
    return ", ".join(ids[:shown]) + (f" and {len(ids) - shown} more" if len(ids) > shown else "")
