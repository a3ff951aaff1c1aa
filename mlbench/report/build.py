"""The report's tables: one per (task, metric), a row per model, a column per language,
each cell the language's value (with its interval and n) and its gap to the reference
language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from mlbench.metric_names import base_name
from mlbench.report.collect import Collection, ModelTask
from mlbench.report.gaps import Gap, compare_columns, untested, with_holm
from mlbench.report.questions import QuestionValues
from mlbench.schema import MetricValue
from mlbench.stats.intervals import DEFAULT_RESAMPLES


@dataclass(frozen=True)
class Cell:
    value: MetricValue
    n: int
    gap: Gap | None  # None in the reference language's column


@dataclass
class ReportTable:
    task: str
    metric: str
    ref_lang: str
    langs: list[str]  # the reference language first when present
    rows: dict[str, dict[str, Cell]]  # model → language → cell
    per_question: bool  # False: a pooled metric (AUC, macro F1), no question to pair
    headline: bool  # drawn in the plots

    @property
    def title(self) -> str:
        return f"{self.task} · {self.metric}"

    def cell(self, model: str, lang: str) -> Cell | None:
        return self.rows.get(model, {}).get(lang)

    def gap(self, model: str, lang: str) -> Gap | None:
        cell = self.cell(model, lang)
        return cell.gap if cell else None


def build_tables(
    collection: Collection,
    *,
    ref_lang: str = "en",
    metrics: Iterable[str] = (),
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> list[ReportTable]:
    """Every (task, metric) of ``collection`` (only ``metrics``, by name or base name,
    when given), tasks in name order, metrics in the order the runs list them."""
    wanted = set(metrics)
    tables = []
    pairs = _Pairs()
    for task in sorted({run.task for run in collection.runs}):
        runs = sorted((run for run in collection.runs if run.task == task), key=lambda run: run.model)
        known_langs, headline = _task_facts(task)
        mine: list[ReportTable] = []
        for metric in _metric_order(runs):
            if wanted and not {metric, base_name(metric)} & wanted:
                continue
            present = {lang for run in runs for lang, e in run.languages.items() if metric in e.result.metrics}
            langs = _language_order(known_langs, present, ref_lang)
            rows = {run.model: _row(run, metric, langs, ref_lang, pairs, seed, resamples) for run in runs}
            rows = {model: cells for model, cells in rows.items() if cells}
            per_question = any(metric in e.values for run in runs for e in run.languages.values())
            # The user's own choice of metrics is plotted in full.
            is_headline = bool(wanted) or base_name(metric) in headline or metric in headline
            mine.append(ReportTable(task, metric, ref_lang, langs, rows, per_question, is_headline))
        if mine and not any(t.headline for t in mine):
            mine[0].headline = True  # a task without its headline metrics here: plot its first
        tables += mine
    return tables


@cache
def _task_facts(task: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """A task's languages (in its table order) and headline metrics; none for a task this
    version does not know (results of a newer or a user's task)."""
    from mlbench.errors import MlbenchError
    from mlbench.tasks import get_task

    try:
        known = get_task(task)
    except MlbenchError:
        return (), frozenset()
    return known.languages, frozenset(known.headline_metrics)


def _metric_order(runs: list[ModelTask]) -> list[str]:
    order: dict[str, None] = {}
    for run in runs:
        for entry in run.languages.values():
            order.update(dict.fromkeys(entry.result.metrics))
    return list(order)


def _language_order(known: tuple[str, ...], langs: set[str], ref_lang: str) -> list[str]:
    rank = {lang: i for i, lang in enumerate(known)}
    return sorted(langs, key=lambda lang: (lang != ref_lang, rank.get(lang, len(rank)), lang))


class _Pairs:
    """Which rows of two languages hold the same questions, worked out once per pair of
    languages and reused for every metric."""

    def __init__(self) -> None:
        self._rows: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def rows(self, reference: QuestionValues, other: QuestionValues) -> tuple[np.ndarray, np.ndarray]:
        key = (id(reference), id(other))
        if key not in self._rows:
            self._rows[key] = reference.align(other)
        return self._rows[key]


def _row(
    run: ModelTask, metric: str, langs: list[str], ref_lang: str, pairs: _Pairs, seed: int, resamples: int
) -> dict[str, Cell]:
    reference = run.languages.get(ref_lang)
    has_reference = reference is not None and metric in reference.result.metrics
    gaps = {}
    for lang in langs:
        entry = run.languages.get(lang)
        if lang == ref_lang or entry is None or metric not in entry.result.metrics or metric not in entry.values:
            continue
        if not has_reference:
            gaps[lang] = untested(lang, f"no {ref_lang} results for this model")
        elif metric not in reference.values:
            gaps[lang] = untested(lang, "no per-question values for the reference language")
        else:
            rows = pairs.rows(reference.values, entry.values)
            ref_column, column = reference.values.columns[metric], entry.values.columns[metric]
            gaps[lang] = compare_columns(lang, ref_column, column, rows, seed=seed, resamples=resamples)
    adjusted = dict(zip(gaps, with_holm(list(gaps.values()))))
    cells = {}
    for lang in langs:
        entry = run.languages.get(lang)
        if entry is None or metric not in entry.result.metrics:
            continue
        n = entry.values.count(metric) if metric in entry.values else entry.result.n
        cells[lang] = Cell(entry.result.metrics[metric], n, adjusted.get(lang))
    return cells
