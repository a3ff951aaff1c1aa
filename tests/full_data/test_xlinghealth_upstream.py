"""XLingHealth's .xlsx files as the XLingEval release ships them read exactly like our CSV
conversions of them: the same samples, candidates and counts in every language."""

from __future__ import annotations

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.xlinghealth.loader import LANGUAGE_COLUMNS, load_health_questions, read_rows
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.data.source import DataSource

QUESTIONS = {"liveqa": ("LiveQA", 246, 5), "medicationqa": ("MedicationQA", 690, 5)}


@pytest.mark.parametrize("dataset", QUESTIONS)
def test_upstream_xlsx_reads_like_the_csv_conversion(dataset, upstream_dir, full_data_dir):
    name, questions, rows_per_question = QUESTIONS[dataset]
    xlsx = upstream_dir / "xlinghealth" / f"{name}.xlsx"
    conversion = full_data_dir / "xlinghealth" / f"{name}.csv"
    rows = read_rows(xlsx)
    assert rows == read_rows(conversion)
    assert len(rows) == questions * rows_per_question and len({row["id"] for row in rows}) == questions
    for lang in LANGUAGE_COLUMNS:
        from_xlsx = load_health_questions(xlsx, dataset, lang)
        assert from_xlsx == load_health_questions(conversion, dataset, lang)
        skipped = from_xlsx.counts.get("skipped_empty_question", 0)
        assert len(from_xlsx.samples) + skipped == questions


def test_a_data_dir_of_upstream_files_runs_like_one_of_conversions(upstream_dir, full_data_dir):
    task = get_task("xlinghealth")
    # upstream/xlinghealth/*.xlsx; mlbench's own prompts (the copy holds the data, not the code)
    upstream = TaskOptions(DataSource("local", upstream_dir), own=XLingHealthOptions(prompts="mlbench"))
    task.validate(upstream)
    for lang in LANGUAGE_COLUMNS:
        samples = task.load(lang, upstream).samples
        assert samples == task.load(lang, TaskOptions(DataSource("local", full_data_dir))).samples
        assert {s.meta["dataset"] for s in samples} == {"liveqa", "medicationqa"}
