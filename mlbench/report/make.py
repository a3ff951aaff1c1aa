"""One report from a results folder: the runs, the reference language, the tables, and
the models compared with each other where two or more answered the same questions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.report.build import ReportTable, build_tables
from mlbench.report.collect import Collection, collect
from mlbench.report.pairs import PairTable, build_pairs, ref_model_notes, resolve_ref_model
from mlbench.report.slices import SliceFile
from mlbench.report.slicing import slice_collection
from mlbench.stats.intervals import DEFAULT_RESAMPLES

DEFAULT_REF_LANG = "en"


@dataclass
class Report:
    collection: Collection
    tables: list[ReportTable]
    ref_lang: str
    # Model against model (pairs.py); empty for a report of one model.
    pairs: list[PairTable] = field(default_factory=list)
    ref_model: str | None = None  # the label --ref-model named; None: every pair
    root: Path | None = None  # the results folder read (what the explorer, if asked for, shows)


def make_report(
    results_dir: Path,
    tasks: Iterable[str] = (),
    models: Iterable[str] = (),
    metrics: Iterable[str] = (),
    ref_lang: str | None = None,
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    ref_model: str | None = None,
    by: str | None = None,
    slices: SliceFile | None = None,
) -> Report:
    """Read the runs under ``results_dir`` (filtered) and build every table. A reference
    language the user named must exist; the default one may be missing (no gaps, a note).
    ``ref_model`` (a label or the model as recorded) is compared with each other model;
    without it, every pair of models is. ``by``: a table per label of that field (the
    data's own, or ``slices``'), instead of one per task."""
    collection = collect(results_dir, tasks=tasks, models=models)
    if by is not None:
        collection = slice_collection(collection, by, slices, seed)
    ref_label = resolve_ref_model(collection, ref_model) if ref_model is not None else None
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
    pairs = build_pairs(collection, tables, ref_model=ref_label, seed=seed, resamples=resamples)
    if ref_label is not None:
        collection.notes.extend(ref_model_notes(collection, pairs, ref_label))
    return Report(collection, tables, reference, pairs, ref_label, results_dir)
