"""The report for programs: CSV with one row per (task, metric, model, language), and
JSON with the same rows grouped by table plus the runs' configs."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from mlbench.report.build import Cell, ReportTable
from mlbench.report.collect import Collection

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
    "gap",
    "gap_ci_low",
    "gap_ci_high",
    "gap_n",
    "paired",
    "test",
    "p",
    "p_holm",
    "significant",
    "note",
)


def _clean(value: Any) -> Any:
    """NaN has no JSON spelling: it becomes null."""
    return None if isinstance(value, float) and math.isnan(value) else value


def cell_record(cell: Cell) -> dict[str, Any]:
    gap = cell.gap
    record: dict[str, Any] = {
        "value": _clean(cell.value.value),
        "ci_low": _clean(cell.value.ci_low),
        "ci_high": _clean(cell.value.ci_high),
        "n": cell.n,
    }
    if gap is not None:
        record.update(
            {
                "gap": gap.diff,
                "gap_ci_low": gap.ci_low,
                "gap_ci_high": gap.ci_high,
                "gap_n": gap.n,
                "paired": gap.paired,
                "test": gap.test,
                "p": _clean(gap.p),
                "p_holm": _clean(gap.p_holm),
                "significant": gap.significant,
                "note": gap.note,
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
                writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buffer.getvalue()


def to_json(
    tables: list[ReportTable], collection: Collection, *, ref_lang: str, seed: int, resamples: int
) -> dict[str, Any]:
    return {
        "ref_lang": ref_lang,
        "seed": seed,
        "resamples": resamples,
        "tables": [
            {
                "task": t.task,
                "metric": t.metric,
                "langs": t.langs,
                "per_question": t.per_question,
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
