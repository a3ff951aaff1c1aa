"""Runs of TruthfulQA translations for the aligned report's tests: each sample labelled
with TruthfulQA's row (``tqa_index``) as the loaders label it, written through the same
functions a real run uses (``synthetic_runs.write_run``'s path)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import mlbench.benchmarks  # noqa: F401  (the metric catalog's descriptors, as in synthetic_runs)
from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.records import RunResult, SampleRecord
from mlbench.results import merge_run, model_slug, write_language
from mlbench.results.aggregation import aggregate

# Each benchmark's ids as its release writes them, and the offset to TruthfulQA's row.
ID_FROM_ROW = {"truthfulqa_multi": 1, "truthfulqa_multi_mt": 1, "truthfulqax": 0}


def write_aligned_run(
    root: Path,
    model: str,
    task: str,
    values: dict[str, dict[str, dict[int, float]]],
    *,
    labelled: bool = True,
    samples: bool = False,
) -> Path:
    """``values``: language → metric → TruthfulQA row → value. The samples' ids are the
    benchmark's own (``ID_FROM_ROW``); ``labelled``: with their ``tqa_index``. With
    ``samples``, also the samples files a run appends (as ``synthetic_runs.write_run``), each
    question's text naming its row, language and benchmark (what the explorer shows)."""
    run_dir = root / model_slug(model) / task
    run_dir.mkdir(parents=True, exist_ok=True)
    order: list[str] = []
    shift = ID_FROM_ROW.get(task, 0)
    for lang, by_metric in values.items():
        order += [m for m in by_metric if m not in order]
        rows = sorted({row for column in by_metric.values() for row in column})
        records = []
        for row in rows:
            metrics = {m: column[row] for m, column in by_metric.items() if row in column}
            labels = {TQA_INDEX_LABEL: str(row)} if labelled else {}
            records.append(SampleRecord(str(row + shift), lang, metrics=metrics, labels=labels))
        for record in records:
            record.config_hash = "aligned"
        config = {"seed": 0, "timings_s": {lang: 0.5}, "fewshot": 6}
        write_language(run_dir, aggregate(lang, records, order, 0), config, "aligned", [r.id for r in records])
        if samples:
            for record in records:
                record.question = f"Question {record.labels.get(TQA_INDEX_LABEL, record.id)} in {lang} ({task})?"
            lines = [json.dumps(r.to_json()) for r in records]
            (run_dir / f"samples_{lang}.jsonl").write_text("\n".join(lines) + "\n")
    merge_run(run_dir, RunResult(model, task, {"seed": 0}, {}), "aligned", order, ("en", "es", "de"))
    return run_dir


def planted(
    seed: int, rows: range, right: float, *, like: dict[int, float] | None = None, flips: float = 0.0
) -> dict[int, float]:
    """0/1 values over ``rows``: a share ``right`` of 1s, or, with ``like``, its values with
    a share ``flips`` of the questions turned from right to wrong."""
    rng = np.random.default_rng(seed)
    if like is None:
        return {row: float(rng.random() < right) for row in rows}
    return {row: 0.0 if value and rng.random() < flips else value for row, value in like.items() if row in rows}
