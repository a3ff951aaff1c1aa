"""A run asked under several prompt templates (a declared benchmark's ``-T prompt=all``)
holds one sample per question and template (``<id>@<template>``). Its statistics are over
questions: each question's value is its mean over the templates it has a value under,
every interval resamples questions and n counts them. One function does the averaging for
the run's own files (``aggregation``) and for the report (``report/template_means``), so
that both give the same numbers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mlbench.data.source import QUESTION_LABEL, TEMPLATE_LABEL
from mlbench.records import SampleRecord


def templated(templates: Sequence[str | None]) -> bool:
    """Whether samples labelled with these templates were asked under several."""
    return len({t for t in templates if t is not None}) > 1


def record_questions(records: Sequence[SampleRecord]) -> list[str] | None:
    """Each record's question (None: the records are not of several templates)."""
    if not templated([r.labels.get(TEMPLATE_LABEL) for r in records]):
        return None
    return [r.labels.get(QUESTION_LABEL) or r.id for r in records]


def means_by_question(
    questions: Sequence[str], columns: dict[str, np.ndarray]
) -> tuple[list[str], dict[str, np.ndarray]]:
    """The questions in order, and each column (one value per sample, NaN: none) as the
    mean of each question's values (NaN where it has none)."""
    order = sorted(set(questions))
    row = {q: i for i, q in enumerate(order)}
    group = np.array([row[q] for q in questions], dtype=int)
    means = {}
    for name, values in columns.items():
        present = ~np.isnan(values)
        sums = np.bincount(group[present], weights=values[present], minlength=len(order))
        counts = np.bincount(group[present], minlength=len(order))
        with np.errstate(invalid="ignore", divide="ignore"):
            means[name] = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return order, means


def question_values(records: Sequence[SampleRecord], questions: Sequence[str], metric: str) -> list[float]:
    """``metric``'s mean per question over ``records`` (``questions``: each one's), in
    question order, leaving out questions with no value of it."""
    values = np.array([r.metrics.get(metric, np.nan) for r in records], dtype=float)
    _, means = means_by_question(questions, {metric: values})
    kept = means[metric][~np.isnan(means[metric])]
    return [float(v) for v in kept]
