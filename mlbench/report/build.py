"""The report's tables: one per (task, metric), a row per model, a column per language,
each cell the language's value (with its interval and n) and its gap to the reference
language.

What a metric is (decimals, share or not, 0/1 per sample or not) comes from the
descriptors the runs' results.json carry, else from the catalog (``metric_catalog``);
which metrics are plotted, from the headline the results.json names, else the task's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from mlbench.metrics.catalog import describe, headline_metrics
from mlbench.metrics.descriptor import Metric, MetricsBlock
from mlbench.metrics.names import base_name
from mlbench.records import LanguageResult, MetricValue
from mlbench.report.collect import Collection, ModelTask
from mlbench.report.gaps import Gap, compare_columns, untested, with_holm
from mlbench.report.questions import QuestionValues
from mlbench.report.slices import base_task
from mlbench.results.tables import same_group, undefined_metrics
from mlbench.stats.intervals import DEFAULT_RESAMPLES

# The value of a cell whose metric could not be computed: NaN, which every format shows
# as n/a and the plots leave out.
NOT_COMPUTED = MetricValue(math.nan, math.nan, math.nan, math.nan)


@dataclass(frozen=True)
class Cell:
    value: MetricValue
    n: int
    gap: Gap | None  # None in the reference language's column
    # Why the language has no value (``tables.undefined_metrics``: AUC of one class, …);
    # empty for a computed value. Shown as n/a with this reason rather than left out.
    missing: str = ""


@dataclass
class ReportTable:
    task: str
    metric: str
    ref_lang: str
    langs: list[str]  # the reference language first when present
    rows: dict[str, dict[str, Cell]]  # model → language → cell
    per_question: bool  # False: a pooled metric (AUC, macro F1), no question to pair
    headline: bool  # drawn in the plots
    # What the metric is, as the runs' results.json describe it (None: the catalog's).
    declared: Metric | None = None
    # Each gap on the questions both columns answered, however few (``build_tables``): its
    # n, shown beside it where it is not the column's, may be smaller than the column's.
    paired_only: bool = False

    @property
    def descriptor(self) -> Metric:
        return self.declared or describe(self.metric, self.task)

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
    paired_only: bool = False,
    ref_langs: Mapping[str, str] | None = None,
) -> list[ReportTable]:
    """Every (task, metric) of ``collection`` (only ``metrics``, by name or base name,
    when given), tasks in name order, metrics in the order the runs list them.
    ``paired_only``: each gap on the questions both languages answered, however few
    (languages of different benchmarks, ``alignment.py``), never as independent samples.
    ``ref_langs``: a task's own reference, instead of ``ref_lang`` (``alignment.by_reference``)."""
    wanted = set(metrics)
    tables = []
    pairs = _Pairs()
    default = ref_lang
    for task in sorted({run.task for run in collection.runs}):
        ref_lang = (ref_langs or {}).get(task, default)
        runs = sorted((run for run in collection.runs if run.task == task), key=lambda run: run.model)
        known_langs = _task_languages(base_task(task))
        saved = saved_descriptors(runs)
        mine: list[ReportTable] = []
        for metric in _metric_order(runs):
            if wanted and not {metric, base_name(metric)} & wanted:
                continue
            about = described(saved, metric, task)
            present = {lang for run in runs for lang, e in run.languages.items() if _has(e.result, metric)}
            langs = _language_order(known_langs, present, ref_lang)
            compared = _Compared(ref_lang, pairs, seed, resamples, paired_only)
            rows = {run.model: _row(run, metric, about, langs, compared) for run in runs}
            rows = {model: cells for model, cells in rows.items() if cells}
            per_question = any(metric in e.values for run in runs for e in run.languages.values())
            # The user's own choice of metrics is plotted in full.
            is_headline = bool(wanted) or _is_headline(metric, base_task(task), saved)
            table = ReportTable(task, metric, ref_lang, langs, rows, per_question, is_headline, about, paired_only)
            mine.append(table)
        if mine and not any(t.headline for t in mine):
            mine[0].headline = True  # a task without its headline metrics here: plot its first
        tables += mine
    return tables


@cache
def _task_languages(task: str) -> tuple[str, ...]:
    """A task's languages (in its table order); none for a task this version does not know
    (results of a newer or a user's task)."""
    from mlbench.benchmarks import get_task
    from mlbench.errors import MlbenchError

    try:
        return get_task(task).languages
    except MlbenchError:
        return ()


def described(saved: MetricsBlock | None, metric: str, task: str) -> Metric:
    """What ``metric`` is: as the runs' results.json describe it (``saved``), else as the
    catalog does for ``task``'s benchmark."""
    about = saved.metrics.get(base_name(metric)) if saved is not None else None
    return about or describe(metric, base_task(task))


def saved_descriptors(runs: list[ModelTask]) -> MetricsBlock | None:
    """The descriptors and headline the runs' results.json carry, merged (the first run
    to describe a metric wins); None when none of them has the block (older files)."""
    blocks = [block for run in runs for block in run.descriptors]
    if not blocks:
        return None
    metrics: dict[str, Metric] = {}
    for block in blocks:
        for name, metric in block.metrics.items():
            metrics.setdefault(name, metric)
    return MetricsBlock(metrics, tuple(dict.fromkeys(name for block in blocks for name in block.headline)))


def _is_headline(metric: str, task: str, saved: MetricsBlock | None) -> bool:
    """Whether the runs' results.json name ``metric`` a headline metric; for a metric they
    do not describe (older files), whether the task's code does."""
    if saved is not None and base_name(metric) in saved.metrics:
        return base_name(metric) in saved.headline
    return base_name(metric) in headline_metrics(task) or metric in headline_metrics(task)


def _metric_order(runs: list[ModelTask]) -> list[str]:
    """The metrics as the runs list them; one a language could not compute (AUC with one
    class) after the last metric of its setting group at the same setting, so that it is
    shown as n/a instead of vanishing."""
    order: dict[str, None] = {}
    undefined: dict[str, None] = {}
    for run in runs:
        for entry in run.languages.values():
            order.update(dict.fromkeys(entry.result.metrics))
            undefined.update(dict.fromkeys(undefined_metrics(entry.result.metrics)))
    names = list(order)
    for metric in undefined:
        if metric in order:
            continue
        setting = metric.partition("@")[2]
        siblings = [i for i, m in enumerate(names) if m.partition("@")[2] == setting and same_group(m, metric)]
        names.insert(siblings[-1] + 1 if siblings else len(names), metric)
    return names


def _has(result: LanguageResult, metric: str) -> bool:
    """A value of ``metric``, or its n/a for a metric the language could not compute."""
    return metric in result.metrics or metric in undefined_metrics(result.metrics)


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


@dataclass(frozen=True)
class _Compared:
    """How a row's gaps are tested: against which language, and with what settings."""

    ref_lang: str
    pairs: _Pairs
    seed: int
    resamples: int
    paired_only: bool


def _row(run: ModelTask, metric: str, about: Metric, langs: list[str], compared: _Compared) -> dict[str, Cell]:
    ref_lang = compared.ref_lang
    reference = run.languages.get(ref_lang)
    has_reference = reference is not None and metric in reference.result.metrics
    gaps = {}
    for lang in langs:
        entry = run.languages.get(lang)
        if lang == ref_lang or entry is None or metric not in entry.result.metrics or metric not in entry.values:
            continue
        if reference is None:
            gaps[lang] = untested(lang, f"no {ref_lang} results for this model")
        elif not has_reference:  # run in the reference language, but the metric is not measured there
            gaps[lang] = untested(lang, f"not measured in {ref_lang}")
        elif metric not in reference.values:
            gaps[lang] = untested(lang, "no per-question values for the reference language")
        else:
            rows = compared.pairs.rows(reference.values, entry.values)
            ref_column, column = reference.values.columns[metric], entry.values.columns[metric]
            gaps[lang] = compare_columns(
                lang, ref_column, column, rows, binary=about.binary, seed=compared.seed,
                resamples=compared.resamples, paired_only=compared.paired_only,
            )  # fmt: skip
    adjusted = dict(zip(gaps, with_holm(list(gaps.values()))))
    cells = {}
    for lang in langs:
        entry = run.languages.get(lang)
        if entry is None or not _has(entry.result, metric):
            continue
        n = entry.values.count(metric) if metric in entry.values else entry.result.n
        if metric not in entry.result.metrics:
            cells[lang] = Cell(NOT_COMPUTED, n, None, undefined_metrics(entry.result.metrics)[metric])
            continue
        cells[lang] = Cell(entry.result.metrics[metric], n, adjusted.get(lang))
    return cells
