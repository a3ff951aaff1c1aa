"""The report's tables of a run asked under several prompt templates (a declared
benchmark's ``-T prompt=all``): a question's value there is its mean over the templates,
under the question's own id.

Such a run holds one sample per question and template (``<id>@<template>``). Taken as
they are, the tables would count each question once per template: intervals too narrow,
tests on five times the questions there are, and no pairing across languages by question.
Averaged first, every interval resamples questions, every test counts them, and the
languages pair by question as in any run. How each template scores on its own is the
report's "Prompt templates" section (``templates.py``) and ``--by template``.
"""

from __future__ import annotations

import numpy as np

from mlbench.data.source import QUESTION_LABEL, TEMPLATE_LABEL
from mlbench.records import LanguageResult, PerQuestion
from mlbench.report.collect import Collection, LanguageEntry, ModelTask, run_seed
from mlbench.report.questions import QuestionValues
from mlbench.results.question_means import means_by_question, templated
from mlbench.stats.intervals import summarize


def question_means(collection: Collection, seed: int = 0) -> Collection:
    """``collection`` with each templated language's values averaged per question (the
    other runs as they are); a note names the runs so read."""
    runs, notes = [], list(collection.notes)
    for run in collection.runs:
        languages = {lang: _averaged(entry, run_seed(run, entry, seed)) for lang, entry in run.languages.items()}
        if any(languages[lang] is not entry for lang, entry in run.languages.items()):
            notes.append(
                f"{run.model} · {run.task}: asked under several prompt templates; each question's value is its mean "
                "over them (each template's own: the Prompt templates section, or --by template)"
            )
        runs.append(ModelTask(run.model, run.task, languages, run.configs, run.descriptors, run.recorded))
    return Collection(runs, notes)


def _averaged(entry: LanguageEntry, seed: int) -> LanguageEntry:
    block = entry.result.per_question
    if block is None or QUESTION_LABEL not in block.labels or not templated(block.labels.get(TEMPLATE_LABEL, [])):
        return entry
    asked = dict(zip(block.ids, block.labels[QUESTION_LABEL]))
    questions, columns = means_by_question([asked.get(q) or q for q in entry.values.ids], entry.values.columns)
    values = QuestionValues(questions, columns)
    metrics = dict(entry.result.metrics)  # pooled metrics (no per-question values) stay as they were
    for name, column in columns.items():
        kept = column[~np.isnan(column)]
        if len(kept):
            metrics[name] = summarize(kept.tolist(), seed=seed)
    labels = _question_labels(block, asked, questions)
    by_metric = {name: [None if np.isnan(v) else float(v) for v in column] for name, column in columns.items()}
    per_question = PerQuestion(questions, by_metric, labels)
    result = LanguageResult(entry.result.lang, len(questions), metrics, per_question=per_question)
    return LanguageEntry(result, values, entry.run_dir, entry.config_hash)


def _question_labels(
    block: PerQuestion, asked: dict[str, str | None], questions: list[str]
) -> dict[str, list[str | None]]:
    """The labels a question keeps (the first of its samples' where they differ), less the
    template, which no longer describes one value."""
    first: dict[str, int] = {}
    for index, sample_id in enumerate(block.ids):
        first.setdefault(asked.get(sample_id) or sample_id, index)
    return {
        name: [column[first[q]] if q in first else None for q in questions]
        for name, column in block.labels.items()
        if name not in (TEMPLATE_LABEL, QUESTION_LABEL)
    }
