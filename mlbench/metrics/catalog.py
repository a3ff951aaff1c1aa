"""Which descriptor a saved metric has, and which metrics a task puts first: the one place
tables, gaps, figures, the run summary and results.json ask.

The descriptors every benchmark shares are here: multiple choice, BLEU, the surface checks
of generated answers and the judges' metrics. A benchmark declares its own beside the code
that computes them (``Task.metric_descriptors``, ``Task.headline_metrics``); the benchmark
registry hands them over through ``use_benchmarks`` (the registry sits a layer above and
calls down, so this module never imports it). A task's own descriptors come first, then the
shared ones, then those of every other known benchmark; a name none declares gets
``undeclared`` (a user's benchmark may add metrics). A results.json carries the descriptors
of its run's metrics (``metrics_json``), and a run read back prefers them (``describe_in``),
so that a report of a benchmark this installation has no code for still shows its numbers
right.

>>> import mlbench.benchmarks  # registers the built-in benchmarks' declarations
>>> describe("refusal@adversarial").binary, describe("sim_sent@0.25").decimals
(True, 3)
>>> describe("length@0").kind, describe("no_such_metric").higher_is_better
('count', None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from mlbench.metrics.bleu import BLEU_METRICS
from mlbench.metrics.descriptor import Metric, MetricsBlock, by_name, resolve
from mlbench.metrics.judged import JUDGE_DESCRIPTORS
from mlbench.metrics.mc import MC_METRICS
from mlbench.metrics.names import base_name
from mlbench.metrics.rouge import ROUGE_METRICS
from mlbench.metrics.surface import SURFACE_DESCRIPTORS
from mlbench.records import LanguageResult, RunResult
from mlbench.records.jsontypes import JsonObject

SHARED_METRICS: dict[str, Metric] = by_name(
    (*MC_METRICS, *BLEU_METRICS, *ROUGE_METRICS, *SURFACE_DESCRIPTORS, *JUDGE_DESCRIPTORS)
)


@dataclass(frozen=True)
class Declared:
    """One benchmark's declaration: its own descriptors and the metrics it puts first."""

    task: str
    metrics: tuple[Metric, ...]
    headline: tuple[str, ...]


_benchmarks: Callable[[], Iterable[Declared]] = tuple


def use_benchmarks(declarations: Callable[[], Iterable[Declared]]) -> None:
    """Where the known benchmarks' declarations come from (the registry, once imported);
    called each time the catalog is asked, so benchmarks added later (--include) are seen."""
    global _benchmarks
    _benchmarks = declarations


def _registry() -> tuple[Declared, ...]:
    return tuple(sorted(_benchmarks(), key=lambda declared: declared.task))


@cache
def _catalog(task: str | None, registry: tuple[Declared, ...]) -> dict[str, Metric]:
    # Cached on the registry's content: benchmarks added later (--include) are seen.
    out: dict[str, Metric] = {}
    for declared in registry:
        if declared.task == task:
            out.update({m.name: m for m in declared.metrics})
    for name, metric in SHARED_METRICS.items():
        out.setdefault(name, metric)
    for declared in registry:
        for metric in declared.metrics:
            out.setdefault(metric.name, metric)
    return out


def task_metrics(task: str | None = None) -> dict[str, Metric]:
    """Every declared descriptor by base name, ``task``'s own first (None: no task)."""
    return _catalog(task, _registry())


def describe(metric: str, task: str | None = None) -> Metric:
    """The descriptor of a saved metric name (``refusal@adversarial``, ``sim_sent@0.25``)."""
    return resolve(metric, task_metrics(task))


def column_heading(metric: str, task: str | None = None, about: Metric | None = None) -> str:
    """A table column's metric, the same in a run's summary and ``mlbench report``: its
    descriptor's label (``about``'s, else the catalog's; else its name), its setting kept:
    ``truthful & informative``, ``sim_sent@0.5``."""
    name, _, setting = metric.partition("@")
    short = (about.label if about is not None else None) or describe(name, task).heading
    return f"{short}@{setting}" if setting else short


def is_declared(metric: str, task: str | None = None) -> bool:
    return base_name(metric) in task_metrics(task)


def headline_metrics(task: str) -> tuple[str, ...]:
    """What ``task`` puts first (by base name); none for a task this installation does not
    know (a report then reads its results.json's ``metrics`` block: ``run_metrics``)."""
    return next((declared.headline for declared in _registry() if declared.task == task), ())


def _names(results: Iterable[LanguageResult]) -> list[str]:
    names: dict[str, None] = {}
    for result in results:
        names.update(dict.fromkeys(base_name(m) for m in result.metrics))
        names.update(dict.fromkeys(_names(result.groups.values())))
    return list(names)


def run_metrics(run: RunResult) -> MetricsBlock:
    """The descriptors of ``run``'s metrics and its headline: what its results.json said
    (``run.descriptors``), completed from the catalog for a metric it does not describe."""
    saved = run.descriptors
    metrics = {
        name: saved.metrics[name] if saved and name in saved.metrics else describe(name, run.task)
        for name in _names(run.languages.values())
    }
    headline = saved.headline if saved is not None else headline_metrics(run.task)
    return MetricsBlock(metrics, headline)


def metrics_json(run: RunResult) -> JsonObject:
    """results.json's top-level ``"metrics"``: each metric of the run (by base name) with
    its kind, decimals, higher_is_better, binary, description and whether it is a headline
    metric of the task."""
    return run_metrics(run).to_json()


def metrics_from_json(data: Mapping[str, object]) -> MetricsBlock | None:
    """The ``"metrics"`` block of a parsed results.json; None for a file written before it
    (TypeError/ValueError/KeyError on a damaged one, which the reader reports)."""
    return MetricsBlock.from_json(data["metrics"]) if "metrics" in data else None


def describe_in(block: MetricsBlock | None, metric: str, task: str | None) -> Metric:
    """``metric``'s descriptor as ``block`` (a results.json's) has it, else the catalog's."""
    if block is not None and base_name(metric) in block.metrics:
        return block.metrics[base_name(metric)]
    return describe(metric, task)
