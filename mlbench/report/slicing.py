"""``mlbench report --by FIELD``: the report per slice of the questions, as the papers cut
their data (TruthfulQA's categories and types, MSQAD's topics, CaLMQA's kinds, or a
user's own labels from ``--slices FILE.csv``).

A slice is a benchmark restricted to the questions of one label: each (model, task) of
the collection becomes one per label, named ``task · field=label``, whose languages hold
only those questions' values and means (bootstrap intervals as a run computes them). The
tables, gaps, paired tests and Holm corrections are then built as for any task: per slice,
across its languages.
"""

from __future__ import annotations

import numpy as np

from mlbench.data.alignment import PAIRING_LABELS
from mlbench.data.source import QUESTION_LABEL
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.records import LanguageResult
from mlbench.report.collect import Collection, LanguageEntry, ModelTask, run_seed
from mlbench.report.questions import QuestionValues
from mlbench.report.slices import SEPARATOR, SliceFile
from mlbench.stats.intervals import summarize


def question_labels(task: str, entry: LanguageEntry, field: str, slices: SliceFile | None) -> dict[str, str]:
    """Question id → its label of ``field``: the user's file first, else the data's own
    labels that results.json keeps with the per-question values."""
    labels: dict[str, str] = {}
    block = entry.result.per_question
    if block is not None and field in block.labels:
        labels = {q: label for q, label in zip(block.ids, block.labels[field]) if label is not None}
    if slices is not None:
        # A sample asked under one of several templates is labelled by its question's id.
        asked = dict(zip(block.ids, block.labels.get(QUESTION_LABEL, ()))) if block is not None else {}
        for question in entry.values.ids:
            label = slices.of(task, question).get(field) or slices.of(task, asked.get(question) or question).get(field)
            if label is not None:
                labels[question] = label
    return labels


def available_fields(collection: Collection, slices: SliceFile | None) -> list[str]:
    fields = {name for run in collection.runs for e in run.languages.values() for name in _data_fields(e)}
    return sorted(fields | set(slices.fields if slices is not None else ()))


def _data_fields(entry: LanguageEntry) -> list[str]:
    """The labels a slice can be cut by: not those that name one question each
    (TruthfulQA's row, which ``--align`` pairs by)."""
    block = entry.result.per_question
    return [name for name in block.labels if name not in PAIRING_LABELS] if block is not None else []


def slice_collection(collection: Collection, field: str, slices: SliceFile | None, seed: int = 0) -> Collection:
    """One (model, task) per label of ``field``; a question without a label is left out
    (and counted in a note). One line naming the fields there are when none has ``field``."""
    known = available_fields(collection, slices)
    if field not in known:
        hint, field = did_you_mean(field, known), clipped(field)
        raise MlbenchError(f"--by {field}: no question has that label{hint}; labels: {', '.join(known) or 'none'}")
    runs: list[ModelTask] = []
    notes = list(collection.notes)
    for run in collection.runs:
        by_label: dict[str, dict[str, LanguageEntry]] = {}
        unlabelled: set[str] = set()
        for lang, entry in run.languages.items():
            labels = question_labels(run.task, entry, field, slices)
            unlabelled.update(q for q in entry.values.ids if q not in labels)
            for label in sorted(set(labels.values())):
                ids = [q for q in entry.values.ids if labels.get(q) == label]
                # The interval as the run computed its own: with the run's seed.
                by_label.setdefault(label, {})[lang] = restricted(entry, ids, run_seed(run, entry, seed))
        if unlabelled:
            notes.append(
                f"{run.model} · {run.task}: {len(unlabelled)} question(s) without a {field} are left out of the slices"
            )
        for label, languages in sorted(by_label.items()):
            task = f"{run.task}{SEPARATOR}{field}={label}"
            runs.append(ModelTask(run.model, task, languages, run.configs, run.descriptors, run.recorded))
    if not runs:
        source = "the --slices file" if slices is not None else "the data"
        raise MlbenchError(f"--by {clipped(field)}: no question of these runs has a label from {source}")
    return Collection(runs, notes)


def restricted(entry: LanguageEntry, ids: list[str], seed: int) -> LanguageEntry:
    """The language's entry over ``ids`` only: their values, and each metric's mean and
    interval over them."""
    position = {q: i for i, q in enumerate(entry.values.ids)}
    rows = [position[q] for q in ids]
    columns = {name: column[rows] for name, column in entry.values.columns.items()}
    values = QuestionValues(list(ids), columns)
    metrics = {}
    for name, column in columns.items():
        present = column[~np.isnan(column)]
        if len(present):
            metrics[name] = summarize(present.tolist(), seed=seed)
    result = LanguageResult(entry.result.lang, len(ids), metrics)
    return LanguageEntry(result, values, entry.run_dir, entry.config_hash)
