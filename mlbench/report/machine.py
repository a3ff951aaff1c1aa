"""The report for programs: CSV with one row per (task, metric, model, language), and
JSON with the same rows grouped by table plus the runs' configs.

Field names say what a number is: ``gap_ci95_unadjusted_low/high`` is the 95% bootstrap CI
of the mean difference, not adjusted for multiplicity; ``p`` is the ``test``'s raw p,
``p_holm`` the Holm-adjusted one that ``significant_holm`` (p_holm < 0.05) and the stars of
the other formats come from. ``value_note`` says why a value is missing (``value`` empty).

CSV numbers are rounded to 6 significant digits (``0.04``, not ``0.040000000000000036``),
and its text is on one line (``text.one_line``); JSON keeps full precision and the text as
it was.

Model against model (``pairs.py``), only where two or more models answered the same
questions, so that a report of one model is as it was: in the CSV, a row per (task,
metric, pair, language) whose ``vs_model`` names the first model of the pair, its gap
columns holding ``model`` − ``vs_model`` in ``lang``, and the columns of ``PAIR_COLUMNS``
(the MDD and what it was computed from); in the JSON, ``model_pairs`` with its own
``model_pairs_fields``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence

from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.report.alignment import ALIGNED_TASK, is_aligned, references_differ
from mlbench.report.build import Cell, ReportTable
from mlbench.report.collect import Collection
from mlbench.report.gaps import Gap
from mlbench.report.pairs import PairCell, PairTable
from mlbench.report.text import one_line
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
FIELDS: JsonObject = {
    "value, ci_low, ci_high": "the language's mean with its 95% bootstrap CI",
    "value_note": "why value is null: the metric could not be computed for the language",
    "gap": "language minus the reference language (mean difference)",
    "gap_n": "the questions the gap was computed on: paired, those both languages answered; unpaired, both samples",
    "ref_lang, ref_langs": (
        "each table's reference; where the models' references differ (report --align), each model's in ref_langs"
    ),
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

# The CSV's columns added when the report compares models; a language's row leaves them empty.
PAIR_COLUMNS = ("vs_model", "mdd80", "sd_diff", "discordant_share", "mdd_note")
PAIR_FIELDS: JsonObject = {
    "model, vs_model": "the pair: the difference is model − vs_model (vs_model: --ref-model, or the earlier model)",
    "cells": "per language, on the questions both models answered there (paired by id)",
    "gap, gap_ci95_unadjusted_low, gap_ci95_unadjusted_high, gap_n": (
        "model − vs_model (mean of the paired differences), its 95% bootstrap CI not adjusted for "
        "multiplicity, and the number of paired questions"
    ),
    "test, p, p_holm, significant_holm": (
        "mcnemar (a metric 0 or 1 per sample) or wilcoxon (signed-rank); p_holm Holm-adjusted over the "
        "languages of one pair on one metric"
    ),
    "mdd80": (
        "minimum detectable difference: the smallest true difference gap_n paired questions find with 80% "
        "power at alpha 0.05, two-sided; mcnemar: Connor (1987) from discordant_share; wilcoxon: "
        "(z(0.975) + z(0.8)) * sd_diff / sqrt(gap_n)"
    ),
    "sd_diff": "SD of the paired differences (ddof 1), for wilcoxon",
    "discordant_share": "share of the paired questions right for one model only, for mcnemar",
    "mdd_note": "why mdd80 is null",
}


def _clean(value: float | None) -> float | None:
    """NaN has no JSON spelling: it becomes null."""
    return None if isinstance(value, float) and math.isnan(value) else value


def _csv_cell(value: JsonValue) -> JsonValue:
    """A float to ``SIGNIFICANT_DIGITS`` significant digits, the shortest way (``0.04``,
    ``1.5e-07``); text on one line (``text.one_line``: a label from the data may hold line
    breaks and a terminal's escape codes, which ``cat`` or a spreadsheet would act on; the
    JSON keeps it as it was); anything else as it is."""
    if isinstance(value, float):
        return format(value, f".{SIGNIFICANT_DIGITS}g")
    if isinstance(value, str):
        return one_line(value)
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
        record.update(gap_record(gap))
    return record


def gap_record(gap: Gap) -> JsonObject:
    return {
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


def pair_record(cell: PairCell) -> JsonObject:
    """One language of a pair of models: the gap's fields, then the MDD's."""
    return {
        **gap_record(cell.gap),
        "mdd80": cell.mdd,
        "sd_diff": cell.sd_diff,
        "discordant_share": cell.discordant,
        "mdd_note": cell.mdd_note,
    }


def to_csv(tables: list[ReportTable], pairs: Sequence[PairTable] = ()) -> str:
    buffer = io.StringIO()
    columns = CSV_COLUMNS + PAIR_COLUMNS if pairs else CSV_COLUMNS
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for table in tables:
        for model, cells in table.rows.items():
            for lang, cell in cells.items():
                where = {"task": _task(table.task), "metric": table.metric, "model": model, "lang": lang}
                row = {**where, "ref_lang": table.ref_lang, **cell_record(cell)}
                writer.writerow({k: "" if v is None else _csv_cell(v) for k, v in row.items()})
    for pair_table in pairs:
        for pair in pair_table.pairs:
            for lang, pair_cell in pair.cells.items():
                where = {"task": pair_table.task, "metric": pair_table.metric, "model": pair.second, "lang": lang}
                row = {**where, "vs_model": pair.first, **pair_record(pair_cell)}
                writer.writerow({k: "" if v is None else _csv_cell(v) for k, v in row.items()})
    return buffer.getvalue()


def pairs_json(pairs: Sequence[PairTable]) -> list[JsonValue]:
    return [
        {
            "task": t.task,
            "metric": t.metric,
            "langs": [*t.langs],
            "descriptor": t.descriptor.to_json(),
            "pairs": [
                {
                    "model": pair.second,
                    "vs_model": pair.first,
                    "cells": {lang: pair_record(cell) for lang, cell in pair.cells.items()},
                }
                for pair in t.pairs
            ],
        }
        for t in pairs
    ]


def to_json(
    tables: list[ReportTable],
    collection: Collection,
    *,
    ref_lang: str,
    seed: int,
    resamples: int,
    pairs: Sequence[PairTable] = (),
    ref_model: str | None = None,
    ref_langs: Mapping[str, str] | None = None,
) -> JsonObject:
    """Every table, each with its reference (``ref_lang``); with ``pairs`` (models
    compared), also ``ref_model``, ``model_pairs`` and ``model_pairs_fields`` (none of them
    in a report of one model); ``ref_langs``, each model's reference, where they differ
    (the top-level ``ref_lang`` then the language asked for)."""
    compared: JsonObject = (
        {"ref_model": ref_model, "model_pairs_fields": PAIR_FIELDS, "model_pairs": pairs_json(pairs)} if pairs else {}
    )
    by_model: JsonObject = dict(ref_langs or {})
    per_model: JsonObject = {"ref_langs": by_model} if references_differ(dict(ref_langs or {})) else {}
    return {
        "ref_lang": ref_lang,
        **per_model,
        "fields": FIELDS,
        "seed": seed,
        "resamples": resamples,
        "tables": [
            {
                "task": _task(t.task),
                "metric": t.metric,
                "ref_lang": t.ref_lang,
                "langs": [*t.langs],
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
        **compared,
        "runs": [
            {"model": run.model, "task": run.task, "languages": [*sorted(run.languages)], "configs": {**run.configs}}
            for run in collection.runs
        ],
        "notes": [*collection.notes],
    }


def _task(task: str) -> str:
    """A table's task as a program reads it: an aligned table is ``aligned by tqa_index``
    whichever reference its title names (``alignment.by_reference``), which ``ref_lang`` gives."""
    return ALIGNED_TASK if is_aligned(task) else task
