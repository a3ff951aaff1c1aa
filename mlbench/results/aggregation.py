"""A language's summary from its saved samples: the mean and interval of each metric, the
task's pooled metrics (macro F1, AUC), and the counts a reader should see (failed samples,
skipped and unreadable verdicts, what the loader left out)."""

from __future__ import annotations

import re
from typing import Protocol

from mlbench.data.source import TEMPLATE_LABEL
from mlbench.metrics.names import base_name, expand_order
from mlbench.records import LanguageResult, MetricValue, PerQuestion, SampleRecord
from mlbench.records.jsontypes import JsonObject
from mlbench.results.question_means import question_values, record_questions
from mlbench.stats.intervals import summarize


class PoolsMetrics(Protocol):
    """What aggregation asks of a task (``Task.pooled_metrics``), named here so that results
    need not know the benchmarks' contract, which sits a layer above."""

    def pooled_metrics(
        self, records: list[SampleRecord], seed: int
    ) -> tuple[dict[str, MetricValue], dict[str, int]]: ...


def aggregate(
    lang: str,
    records: list[SampleRecord],
    metric_names: list[str],
    seed: int,
    task: PoolsMetrics | None = None,
    data_counts: dict[str, int] | None = None,
) -> LanguageResult:
    """Mean and interval of each metric over the samples that have it: a failed sample
    (context overflow, API error) is counted in ``failed``, never scored as a zero; so are
    failed, skipped and unreadable judge verdicts. ``task`` adds its pooled metrics (macro
    F1, AUC); ``data_counts`` are what the loader left out."""
    # In id order, so the bootstrap draws the same intervals whichever stage aggregates.
    records = sorted(records, key=lambda r: r.id)
    result = _summarize_records(lang, records, metric_names, seed, task)
    result.counts = {**(data_counts or {}), **result.counts}
    result.per_question = per_question_values(records, list(result.metrics))
    for group in sorted({r.group for r in records if r.group is not None}):
        mine = [r for r in records if r.group == group]
        result.groups[group] = _summarize_records(lang, mine, metric_names, seed, task)
    if record_questions(records) is not None:  # each template's own scores, beside the means over them
        names = {str(r.labels[TEMPLATE_LABEL]) for r in records if TEMPLATE_LABEL in r.labels}
        for template in sorted(names, key=_natural):  # p2 before p10
            mine = [r for r in records if r.labels.get(TEMPLATE_LABEL) == template]
            result.templates[template] = _summarize_records(lang, mine, metric_names, seed, task)
    return result


def _summarize_records(
    lang: str, records: list[SampleRecord], metric_names: list[str], seed: int, task: PoolsMetrics | None = None
) -> LanguageResult:
    """The summary of ``records``: over questions (``question_means``) where they are a
    question's samples under several prompt templates, else over the samples."""
    summary = {}
    present = {name for r in records for name in r.metrics}
    questions = record_questions(records)
    for metric in expand_order(metric_names, present):
        if questions is None:
            values = [r.metrics[metric] for r in records if metric in r.metrics]
        else:
            values = question_values(records, questions, metric)
        summary[metric] = summarize(values, seed=seed)
    pooled, pooled_counts = task.pooled_metrics(records, seed) if task is not None else ({}, {})
    summary.update(pooled)
    counts = {
        "empty_generations": sum(bool(r.outputs.get("empty")) for r in records),
        "failed": sum(r.error is not None for r in records),
        **language_not_judged(records),
        **judge_counts(records),
        **pooled_counts,
    }
    ordered = {name: summary[name] for name in expand_order(metric_names, summary)}
    kept = {k: v for k, v in counts.items() if v}
    if questions is None:
        return LanguageResult(lang, len(records), ordered, kept)
    return LanguageResult(lang, len(set(questions)), ordered, kept, samples=len(records))


def _natural(name: str) -> list[tuple[int, str]]:
    """A sort key reading a name's digits as numbers."""
    # The split's odd parts are its digit runs, which int() reads; an even part may still be
    # isdigit() (a superscript, "p1²"), which int() would refuse.
    return [(int(part), "") if index % 2 else (0, part) for index, part in enumerate(re.split(r"(\d+)", name))]


def per_question_values(records: list[SampleRecord], metrics: list[str]) -> PerQuestion | None:
    """Each question's value of each per-question metric (None: no metric has one)."""
    ids = [r.id for r in records]
    values = {
        name: [r.metrics.get(name) for r in records] for name in metrics if any(name in r.metrics for r in records)
    }
    fields = sorted({name for r in records for name in r.labels})
    labels = {name: [r.labels.get(name) for r in records] for name in fields}
    return PerQuestion(ids, values, labels) if values else None


def language_not_judged(records: list[SampleRecord]) -> dict[str, int]:
    """Checked answers whose language was not judged (no reliable detector, too short, code
    only): they have ``surface_issue`` but no ``wrong_language``. Counted under the setting
    of their surface metrics, so each mode of MSQAD has its own
    (``language_not_judged@adversarial``); one answer per sample gives the plain name."""
    counts: dict[str, int] = {}
    for record in records:
        for name in record.metrics:
            if base_name(name) != "surface_issue":
                continue
            setting = name[len("surface_issue") :]  # "" or "@<mode>"
            if "wrong_language" + setting not in record.metrics:
                key = "language_not_judged" + setting
                counts[key] = counts.get(key, 0) + 1
    return counts


def judge_counts(records: list[SampleRecord]) -> dict[str, int]:
    """Verdicts that gave no metric, by kind: ``judge_errors_truth``, ``skipped_truth``,
    ``unparsed_relevance``."""
    counts: dict[str, int] = {}
    for record in records:
        for kind, entry in record.judges.items():
            for name, happened in (
                (f"judge_errors_{kind}", "judge_error" in entry),
                (f"skipped_{kind}", "skipped" in entry),
                (f"unparsed_{kind}", _unparsed(entry)),
            ):
                if happened:
                    counts[name] = counts.get(name, 0) + 1
    return counts


def _unparsed(entry: JsonObject) -> bool:
    """A verdict (or, for several judged texts, any of them) the judge's words gave no label."""
    answers = entry.get("answers")
    parts = [entry, *(answers.values() if isinstance(answers, dict) else ())]
    return any(isinstance(part, dict) and part.get("label") == "unparsed" for part in parts) or bool(
        entry.get("unreadable")
    )
