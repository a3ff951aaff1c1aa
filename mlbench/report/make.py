"""One report from a results folder: the runs, the reference language, the tables, and
the models compared with each other where two or more answered the same questions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.source import TEMPLATE_LABEL
from mlbench.errors import MlbenchError, did_you_mean
from mlbench.languages import pick_languages
from mlbench.metrics.names import base_name
from mlbench.report.alignment import aligned_collection, column_name, parse_column, reference_column
from mlbench.report.build import ReportTable, build_tables
from mlbench.report.collect import Collection, collect
from mlbench.report.pairs import PairTable, build_pairs, ref_model_notes, resolve_ref_model
from mlbench.report.slices import SliceFile
from mlbench.report.slicing import slice_collection
from mlbench.report.template_means import question_means
from mlbench.report.templates import TemplateRow, template_rows
from mlbench.report.translations import TranslationRow, translation_rows
from mlbench.stats.intervals import DEFAULT_RESAMPLES

DEFAULT_REF_LANG = "en"
METRICS_LISTED = 12  # the metrics an unknown --metric's line names


@dataclass
class Report:
    collection: Collection
    tables: list[ReportTable]
    ref_lang: str
    # Model against model (pairs.py); empty for a report of one model.
    pairs: list[PairTable] = field(default_factory=list)
    ref_model: str | None = None  # the label --ref-model named; None: every pair
    root: Path | None = None  # the results folder read (what the explorer, if asked for, shows)
    # Runs asked under several prompt templates: each language's score per template (templates.py).
    per_template: list[TemplateRow] = field(default_factory=list)
    # A language run under several translations of TruthfulQA: each one's scores (translations.py).
    per_translation: list[TranslationRow] = field(default_factory=list)


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
    align: str | None = None,
    note: Callable[[str], None] | None = None,
) -> Report:
    """Read the runs under ``results_dir`` (filtered) and build every table. A reference
    language the user named must exist; the default one may be missing (no gaps, a note).
    ``ref_model`` (a label or the model as recorded) is compared with each other model;
    without it, every pair of models is. ``by``: a table per label of that field (the
    data's own, or ``slices``'), instead of one per task. ``note`` hears what is said of
    the command's flags (``--ref-lang pt-BR: using pt``), which is no part of the report.
    ``align``: languages of different benchmarks paired by that field (``alignment.py``);
    ``ref_lang`` may then name one benchmark's (``en (truthfulqa_multi)``), which the
    Translations section takes too."""
    if align is not None and (by is not None or slices is not None):
        raise MlbenchError("--align compares benchmarks and --by cuts one into slices: choose one of them")
    metrics = tuple(metrics)
    collection = collect(results_dir, tasks=tasks, models=models)
    found = sorted({lang for run in collection.runs for lang in run.languages})
    # A language of one benchmark (``en (truthfulqa_multi)``): its code read as any --ref-lang's.
    column = parse_column(ref_lang) if ref_lang is not None else None
    reference = _reference(column.lang if column else ref_lang, found, note) if ref_lang else DEFAULT_REF_LANG
    aligned_reference = column_name(reference, column.task) if column else reference
    # Each template's scores for their own section; the tables average a question's templates.
    per_template = template_rows(collection, reference, seed, resamples)
    averaged = question_means(collection, seed)
    # The translations of one language, compared on their shared questions (translations.py),
    # over questions, whatever --by cuts the tables by.
    translated = translation_rows(averaged, aligned_reference, seed, resamples, metrics)
    if column is not None and align is None and translated.reference != aligned_reference:
        wanted = f"--ref-lang {ref_lang}: no run of that benchmark has {reference}"
        raise MlbenchError(f"{wanted} (or give the language alone: --ref-lang {reference})")
    if by != TEMPLATE_LABEL:
        collection = averaged
    if align is not None:
        collection = aligned_collection(collection, align)
        found = sorted({name for run in collection.runs for name in run.languages})
        reference = _aligned_reference(collection, aligned_reference, found)
    collection.notes.extend(translated.notes)
    if by is not None:
        collection = slice_collection(collection, by, slices, seed)
    ref_label = resolve_ref_model(collection, ref_model) if ref_model is not None else None
    if reference not in found:
        collection.notes.append(f"no run has {reference}: no gaps (choose another with --ref-lang)")
    _check_metrics(collection, metrics, results_dir)
    tables = build_tables(
        collection, ref_lang=reference, metrics=metrics, seed=seed, resamples=resamples, paired_only=align is not None
    )
    if not tables:
        raise MlbenchError(f"no metric {', '.join(metrics)} in the runs under {results_dir}")
    pairs = build_pairs(collection, tables, ref_model=ref_label, seed=seed, resamples=resamples)
    if ref_label is not None:
        collection.notes.extend(ref_model_notes(collection, pairs, ref_label))
    return Report(collection, tables, reference, pairs, ref_label, results_dir, per_template, translated.rows)


def _reference(ref_lang: str, found: list[str], note: Callable[[str], None] | None) -> str:
    """The runs' code for --ref-lang (``EN``, ``pt-BR``: ``languages.pick_languages``)."""
    picked, unknown = pick_languages([ref_lang], found, "--ref-lang", note)
    if unknown:
        raise MlbenchError(f"--ref-lang {unknown[0]}: no run has it; languages found: {', '.join(found)}")
    return picked[0]


def _aligned_reference(collection: Collection, ref_lang: str, found: list[str]) -> str:
    """The aligned column of ``ref_lang`` (``alignment.reference_column``); one the user
    named in full must exist."""
    picked = reference_column(collection, ref_lang)
    if picked is None and parse_column(ref_lang) is not None:
        hint = did_you_mean(ref_lang, found)
        raise MlbenchError(f"--ref-lang {ref_lang}: no aligned run has it{hint}; found: {', '.join(found)}")
    return picked or ref_lang


def _check_metrics(collection: Collection, metrics: tuple[str, ...], results_dir: Path) -> None:
    """Each --metric names a metric of the runs (or a base name: ``mc2`` for ``mc2@*``)."""
    known = {name for run in collection.runs for entry in run.languages.values() for name in entry.result.metrics}
    known |= {base_name(name) for name in known}
    listed = ", ".join(sorted(known))
    if len(known) > METRICS_LISTED:  # a run of many tasks has dozens: the line stays readable
        first = ", ".join(sorted(known)[:METRICS_LISTED])
        listed = f"{first} … ({len(known)} in all; `mlbench report {results_dir}` prints a table per metric)"
    for metric in metrics:
        if metric not in known:
            hint = did_you_mean(metric, sorted(known))
            raise MlbenchError(f"--metric {metric}: no run has it{hint}; metrics: {listed}")
