"""One report from a results folder: the runs, the reference language, the tables, and
the models compared with each other where two or more answered the same questions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from mlbench.data.source import TEMPLATE_LABEL
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.languages import pick_languages
from mlbench.metrics.names import base_name
from mlbench.report.alignment import (
    ALIGNED_TASK,
    aligned_runs,
    by_reference,
    check_field,
    column_name,
    nonempty,
    parse_column,
    references,
    shared_reference,
)
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
    ref_lang: str  # every table's reference; where models' differ (``ref_langs``), the language asked for
    # Model against model (pairs.py); empty for a report of one model.
    pairs: list[PairTable] = field(default_factory=list)
    ref_model: str | None = None  # the label --ref-model named; None: every pair
    root: Path | None = None  # the results folder read (what the explorer, if asked for, shows)
    # Runs asked under several prompt templates: each language's score per template (templates.py).
    per_template: list[TemplateRow] = field(default_factory=list)
    # A language run under several translations of TruthfulQA: each one's scores (translations.py).
    per_translation: list[TranslationRow] = field(default_factory=list)
    # With --align: each model's reference column (``alignment.references``), models without one left out.
    ref_langs: dict[str, str] = field(default_factory=dict)


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
    # Each language of each benchmark keyed by TruthfulQA's row, once: the view of the
    # Translations section (over questions, whatever --by cuts the tables by) and, with
    # --align, of the tables; each model measured from its own reference column.
    if align is not None:
        check_field(align)
    aligned = aligned_runs(averaged, unlabelled_notes=align is not None)
    chosen = references(aligned, aligned_reference)
    named = aligned_reference if column is not None else ""
    translated = translation_rows(aligned, chosen, seed, resamples, metrics, named)
    if column is not None and align is None and aligned_reference not in chosen.values():
        wanted = f"--ref-lang {ref_lang}: no run of that benchmark has {reference}"
        raise MlbenchError(f"{wanted} (or give the language alone: --ref-lang {reference})")
    if by != TEMPLATE_LABEL:
        collection = averaged
    unsplit, ref_langs = collection, dict[str, str]()
    if align is not None:
        unsplit = nonempty(aligned, averaged, align)
        found = sorted({name for run in unsplit.runs for name in run.languages})
        reference = _aligned_reference(chosen, aligned_reference, found)
        collection, ref_langs = by_reference(unsplit, chosen)
    else:
        collection.notes.extend(aligned.notes[len(averaged.notes) :])  # what the Translations section left out
    collection.notes.extend(translated.notes)
    collection.notes.extend(_without_reference(chosen, translated.rows, aligned_reference, align is not None))
    if by is not None:
        collection = slice_collection(collection, by, slices, seed)
    ref_label = resolve_ref_model(collection, ref_model) if ref_model is not None else None
    if reference not in found:
        collection.notes.append(f"no run has {reference}: no gaps (choose another with --ref-lang)")
    _check_metrics(collection, metrics, results_dir)
    tables = build_tables(
        collection, ref_lang=reference, metrics=metrics, seed=seed, resamples=resamples,
        paired_only=align is not None, ref_langs=ref_langs,
    )  # fmt: skip
    if not tables:
        raise MlbenchError(f"no metric {', '.join(metrics)} in the runs under {results_dir}")
    # Models are compared on a column whatever their references: the aligned tables as one.
    split = len(ref_langs) > 1
    models = [run.model for run in unsplit.runs]
    compared, compared_tables = (unsplit, _as_one(tables, models)) if split else (collection, tables)
    pairs = build_pairs(compared, compared_tables, ref_model=ref_label, seed=seed, resamples=resamples)
    if ref_label is not None:
        collection.notes.extend(ref_model_notes(compared, pairs, ref_label))
    shown = aligned_reference if split else reference
    chosen_columns = {model: name for model, name in chosen.items() if name} if align is not None else {}
    return Report(
        collection, tables, shown, pairs, ref_label, results_dir, per_template, translated.rows, chosen_columns
    )


def _without_reference(
    chosen: Mapping[str, str | None], rows: list[TranslationRow], ref_lang: str, aligned: bool
) -> list[str]:
    """A note for each model that has no reference column where others have one, and that
    the Translations section (or, ``aligned``, the aligned tables) shows."""
    if shared_reference(chosen) is None:
        return []  # no model has it: one note for all ("no run has ...")
    shown = {row.model for row in rows}
    return [
        f"{model}: no run of {ref_lang} {ALIGNED_TASK}, so no gap of its is measured "
        "(choose another reference with --ref-lang)"
        for model, name in chosen.items()
        if name is None and (aligned or model in shown)
    ]


def _as_one(tables: list[ReportTable], models: list[str]) -> list[ReportTable]:
    """The aligned tables of each metric (one per reference, ``alignment.by_reference``) as
    one ``ALIGNED_TASK`` table, its rows in the order of ``models`` (as one table of them
    all would hold them), which the models are compared on (``pairs.build_pairs``)."""
    merged: dict[str, ReportTable] = {}
    for table in tables:
        into = merged.get(table.metric)
        if into is None:
            merged[table.metric] = replace(table, task=ALIGNED_TASK, rows=dict(table.rows), langs=list(table.langs))
            continue
        into.rows.update(table.rows)
        into.langs += [lang for lang in table.langs if lang not in into.langs]
        into.headline = into.headline or table.headline
        into.per_question = into.per_question or table.per_question
    for table in merged.values():
        table.rows = {model: table.rows[model] for model in models if model in table.rows}
    return list(merged.values())


def _reference(ref_lang: str, found: list[str], note: Callable[[str], None] | None) -> str:
    """The runs' code for --ref-lang (``EN``, ``pt-BR``: ``languages.pick_languages``)."""
    picked, unknown = pick_languages([ref_lang], found, "--ref-lang", note)
    if unknown:
        raise MlbenchError(f"--ref-lang {unknown[0]}: no run has it; languages found: {', '.join(found)}")
    return picked[0]


def _aligned_reference(chosen: Mapping[str, str | None], ref_lang: str, found: list[str]) -> str:
    """The reference column most models take (``alignment.shared_reference``); one the
    user named in full must be some model's."""
    picked = shared_reference(chosen)
    if picked is None and parse_column(ref_lang) is not None:
        hint = did_you_mean(ref_lang, found)
        raise MlbenchError(f"--ref-lang {clipped(ref_lang)}: no aligned run has it{hint}; found: {', '.join(found)}")
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
            raise MlbenchError(f"--metric {clipped(metric)}: no run has it{hint}; metrics: {listed}")
