"""The report for programs: CSV with one row per (task, metric, model, language), and
JSON with the same rows grouped by table plus the runs' configs.

Field names say what a number is: ``gap_ci95_unadjusted_low/high`` is the 95% bootstrap CI
of the mean difference, not adjusted for multiplicity; ``p`` is the ``test``'s raw p,
``p_holm`` the Holm-adjusted one that ``significant_holm`` (p_holm < 0.05) and the stars of
the other formats come from. ``value_note`` says why a value is missing (``value`` empty).

CSV numbers are rounded to 6 significant digits (``0.04``, not ``0.040000000000000036``);
JSON keeps full precision.
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from mlbench.records.jsontypes import JsonObject
from mlbench.report.build import Cell, ReportTable
from mlbench.report.collect import Collection
from mlbench.results.tables import language_label

CSV_COLUMNS = (
    "task",
    "metric",
    "model",
    "lang",
    "ref_lang",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "value_note",
    "gap",
    "gap_ci95_unadjusted_low",
    "gap_ci95_unadjusted_high",
    "gap_n",
    "paired",
    "test",
    "p",
    "p_holm",
    "significant_holm",
    "gap_note",
)

# What the JSON's fields are, written into it so that a reader of the file alone knows.
FIELDS = {
    "value, ci_low, ci_high": "the language's mean with its 95% bootstrap CI",
    "value_note": "why value is null: the metric could not be computed for the language",
    "gap": "language minus the reference language (mean difference)",
    "gap_ci95_unadjusted_low, gap_ci95_unadjusted_high": (
        "95% bootstrap CI of the mean difference (paired unless paired is false), not adjusted for multiplicity"
    ),
    "test": "mcnemar (a metric 0 or 1 per sample), wilcoxon (signed-rank), fisher or mann-whitney (unpaired)",
    "descriptor": "what the metric is: kind (share, score, logprob, count), decimals, higher_is_better, binary",
    "p": "the test's p-value, unadjusted",
    "p_holm": "p Holm-adjusted over the languages of one model in one table",
    "significant_holm": "p_holm < 0.05; the test does not test the mean, so it can disagree with the interval",
    "numbers": "full precision here; report.csv rounds them to 6 significant digits",
}
SIGNIFICANT_DIGITS = 6


def _clean(value: Any) -> Any:
    """NaN has no JSON spelling: it becomes null."""
    return None if isinstance(value, float) and math.isnan(value) else value


def _csv_number(value: Any) -> Any:
    """A float to ``SIGNIFICANT_DIGITS`` significant digits, the shortest way (``0.04``,
    ``1.5e-07``); anything else as it is."""
    if isinstance(value, float):
        return format(value, f".{SIGNIFICANT_DIGITS}g")
    return value


def cell_record(cell: Cell) -> JsonObject:
    gap = cell.gap
    record: JsonObject = {
        "value": _clean(cell.value.value),
        "ci_low": _clean(cell.value.ci_low),
        "ci_high": _clean(cell.value.ci_high),
        "n": cell.n,
    }
    if cell.missing:
        record["value_note"] = cell.missing
    if gap is not None:
        record.update(
            {
                "gap": _clean(gap.diff),
                "gap_ci95_unadjusted_low": _clean(gap.ci_low),
                "gap_ci95_unadjusted_high": _clean(gap.ci_high),
                "gap_n": gap.n,
                "paired": gap.paired,
                "test": gap.test,
                "p": _clean(gap.p),
                "p_holm": _clean(gap.p_holm),
                "significant_holm": gap.significant,
                "gap_note": gap.note,
            }
        )
    return record


def to_csv(tables: list[ReportTable]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for table in tables:
        for model, cells in table.rows.items():
            for lang, cell in cells.items():
                where = {"task": table.task, "metric": table.metric, "model": model, "lang": lang}
                row = {**where, "ref_lang": table.ref_lang, **cell_record(cell)}
                writer.writerow({k: "" if v is None else _csv_number(v) for k, v in row.items()})
    return buffer.getvalue()


def to_json(
    tables: list[ReportTable], collection: Collection, *, ref_lang: str, seed: int, resamples: int
) -> JsonObject:
    return {
        "ref_lang": ref_lang,
        "fields": FIELDS,
        "seed": seed,
        "resamples": resamples,
        "tables": [
            {
                "task": t.task,
                "metric": t.metric,
                "langs": t.langs,
                "low_resource": [lang for lang in t.langs if language_label(lang) != lang],
                "per_question": t.per_question,
                "descriptor": t.descriptor.to_json(),
                "rows": [
                    {"model": model, "cells": {lang: cell_record(cell) for lang, cell in cells.items()}}
                    for model, cells in t.rows.items()
                ],
            }
            for t in tables
        ],
        "runs": [
            {"model": run.model, "task": run.task, "languages": sorted(run.languages), "configs": run.configs}
            for run in collection.runs
        ],
        "notes": collection.notes,
    }
