"""Runs of TruthfulQA translations for the aligned report's tests: each sample labelled
with TruthfulQA's row (``tqa_index``) as the loaders label it, written through the same
functions a real run uses (``synthetic_runs.write_run``'s path)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.records import SampleRecord
from tests.report.synthetic_runs import write_records

# Each benchmark's ids as its release writes them, and the offset to TruthfulQA's row.
ID_FROM_ROW = {"truthfulqa_multi": 1, "truthfulqa_multi_mt": 1, "truthfulqax": 0}
# How each is translated, as its run records it (``Alignment.translation``).
TRANSLATION = {"truthfulqa_multi": "human", "truthfulqa_multi_mt": "machine", "truthfulqax": "machine"}


def write_aligned_run(
    root: Path,
    model: str,
    task: str,
    values: dict[str, dict[str, dict[int, float]]],
    *,
    labelled: bool = True,
    samples: bool = False,
    relabel: dict[int, int] | None = None,
    translation: str | None = None,
) -> Path:
    """``values``: language → metric → TruthfulQA row → value. The samples' ids are the
    benchmark's own (``ID_FROM_ROW``); ``labelled``: with their ``tqa_index``. With
    ``samples``, also the samples files a run appends (as ``synthetic_runs.write_run``), each
    question's text naming its row, language and benchmark (what the explorer shows).
    ``relabel``: row → the ``tqa_index`` written for it instead (an older run whose two
    questions name one row, which a run of this version refuses). ``translation``: what the
    run says of its translation (None: what the benchmark says, ``TRANSLATION``)."""
    shift = ID_FROM_ROW.get(task, 0)
    records = {}
    for lang, by_metric in values.items():
        rows = sorted({row for column in by_metric.values() for row in column})
        records[lang] = [
            SampleRecord(
                str(row + shift),
                lang,
                metrics={m: column[row] for m, column in by_metric.items() if row in column},
                labels={TQA_INDEX_LABEL: str((relabel or {}).get(row, row))} if labelled else {},
                question=f"Question {row if labelled else row + shift} in {lang} ({task})?" if samples else "",
            )
            for row in rows
        ]
    order = list(dict.fromkeys(m for by_metric in values.values() for m in by_metric))
    kind = TRANSLATION.get(task, "") if translation is None else translation
    return write_records(
        root, model, task, records, order, config_hash="aligned", samples=samples, langs=("en", "es", "de"),
        settings={"translation": kind} if kind else {},
    )  # fmt: skip


def planted(
    seed: int, rows: range, right: float, *, like: dict[int, float] | None = None, flips: float = 0.0
) -> dict[int, float]:
    """0/1 values over ``rows``: a share ``right`` of 1s, or, with ``like``, its values with
    a share ``flips`` of the questions turned from right to wrong."""
    rng = np.random.default_rng(seed)
    if like is None:
        return {row: float(rng.random() < right) for row in rows}
    return {row: 0.0 if value and rng.random() < flips else value for row, value in like.items() if row in rows}
