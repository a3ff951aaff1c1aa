"""One report from a results folder: the runs, the reference language, the tables."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.report.build import ReportTable, build_tables
from mlbench.report.collect import Collection, collect
from mlbench.stats.intervals import DEFAULT_RESAMPLES

DEFAULT_REF_LANG = "en"


@dataclass
class Report:
    collection: Collection
    tables: list[ReportTable]
    ref_lang: str


def make_report(
    results_dir: Path,
    tasks: Iterable[str] = (),
    models: Iterable[str] = (),
    metrics: Iterable[str] = (),
    ref_lang: str | None = None,
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> Report:
    """Read the runs under ``results_dir`` (filtered) and build every table. A reference
    language the user named must exist; the default one may be missing (no gaps, a note)."""
    collection = collect(results_dir, tasks=tasks, models=models)
    reference = ref_lang or DEFAULT_REF_LANG
    found = {lang for run in collection.runs for lang in run.languages}
    if ref_lang is not None and reference not in found:
        raise MlbenchError(f"--ref-lang {reference}: no run has it; languages found: {', '.join(sorted(found))}")
    if reference not in found:
        collection.notes.append(f"no run has {reference}: no gaps (choose another with --ref-lang)")
    metrics = tuple(metrics)
    tables = build_tables(collection, ref_lang=reference, metrics=metrics, seed=seed, resamples=resamples)
    if not tables:
        raise MlbenchError(f"no metric {', '.join(metrics)} in the runs under {results_dir}")
    return Report(collection, tables, reference)
