"""Which XLingHealth datasets a run reads: every one found by default (HealthQA included),
--dataset to choose, --healthqa FILE, and mlbench's copy of the release when no --data-dir
is given. The files are synthetic, written here."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import openpyxl
import pytest

from mlbench import data as datastore
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.xlinghealth.loader import LANGUAGE_COLUMNS, NEEDED_COLUMNS
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions as Own
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError

TASK = get_task("xlinghealth")
MLBENCH_PROMPTS = Own(prompts="mlbench")  # these tests read data; the authors' prompt files have tests of their own


def rows(questions: int) -> list[list[object]]:
    """``questions`` questions of two rows (their gold answer and one other), int ids."""
    table: list[list[object]] = [list(NEEDED_COLUMNS)]
    for q in range(questions):
        for label, answer_id in ((1, q), (0, (q + 1) % questions)):
            table.append([q, label, answer_id, *(f"{kind}{q} {n}" for n in LANGUAGE_COLUMNS.values() for kind in "qa")])
    return table


def write(path: Path, questions: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".xlsx":
        book = openpyxl.Workbook()
        book.active.title = "Sheet1"
        for row in rows(questions):
            book.active.append(row)
        book.save(path)
    else:
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(rows(questions))
    return path


def counts(options: TaskOptions) -> list[tuple[str, int]]:
    """Questions per dataset, in the order loaded."""
    found: dict[str, int] = {}
    for sample in TASK.load("es", options).samples:
        found[sample.meta["dataset"]] = found.get(sample.meta["dataset"], 0) + 1
    return list(found.items())


def test_every_dataset_found_is_read_by_default_healthqa_included(tmp_path):
    write(tmp_path / "xlinghealth" / "MedicationQA.csv", 2)
    write(tmp_path / "xlinghealth" / "HealthQA.xlsx", 3)
    local = TaskOptions(DataSource("local", tmp_path), own=MLBENCH_PROMPTS)  # the data only: no prompt files
    TASK.validate(local)
    assert counts(local) == [("healthqa", 3), ("medicationqa", 2)]
    write(tmp_path / "LiveQA.xlsx", 4)
    assert counts(local) == [("healthqa", 3), ("liveqa", 4), ("medicationqa", 2)]
    chosen = TaskOptions(DataSource("local", tmp_path), own=Own(datasets=("medicationqa", "healthqa")))
    assert counts(chosen) == [("medicationqa", 2), ("healthqa", 3)]
    own = TaskOptions(DataSource("local", tmp_path), own=Own(healthqa_file=write(tmp_path / "mine" / "h.csv", 5)))
    assert counts(own) == [("healthqa", 5), ("liveqa", 4), ("medicationqa", 2)]


def test_a_chosen_dataset_without_a_file_names_the_paths_looked_at(tmp_path):
    write(tmp_path / "xlinghealth" / "LiveQA.csv", 2)
    with pytest.raises(MlbenchError) as caught:
        TASK.validate(TaskOptions(DataSource("local", tmp_path), own=Own(datasets=("liveqa", "healthqa"))))
    message = str(caught.value)
    assert message.startswith(
        "xlinghealth: dataset healthqa: no file found (or pass -T healthqa_file=FILE); looked at "
    )
    assert f"{tmp_path}/XLingHealth_Dataset/HealthQA.xlsx, {tmp_path}/HealthQA.xlsx" in message
    assert "\n" not in message and "LiveQA" not in message
    with pytest.raises(
        MlbenchError, match=re.escape(f"no XLingHealth dataset in {tmp_path / 'empty'}: looked for HealthQA")
    ):
        TASK.validate(TaskOptions(DataSource("local", tmp_path / "empty")))


def test_without_data_dir_the_release_in_the_data_cache_is_read(tmp_path, monkeypatch):
    release = tmp_path / "XLingEval"
    for name, questions in (("HealthQA", 3), ("LiveQA", 2), ("MedicationQA", 1)):
        write(release / "XLingHealth_Dataset" / f"{name}.xlsx", questions)
    asked: list[str] = []
    monkeypatch.setattr(datastore, "source_folder", lambda name: asked.append(name) or release)
    hub = TaskOptions(DataSource("hub"), own=MLBENCH_PROMPTS)
    TASK.validate(hub)
    assert counts(hub) == [("healthqa", 3), ("liveqa", 2), ("medicationqa", 1)]
    assert set(asked) == {"xlinghealth"}
    assert counts(TaskOptions(DataSource("hub"), own=Own(datasets=("liveqa",)))) == [("liveqa", 2)]


def test_healthqa_file_alone_needs_no_release(tmp_path, monkeypatch):
    def no_release(name: str) -> Path:
        raise AssertionError("the release was fetched")

    monkeypatch.setattr(datastore, "source_folder", no_release)
    healthqa = write(tmp_path / "HQ.xlsx", 2)
    own = TaskOptions(DataSource("hub"), own=Own(datasets=("healthqa",), healthqa_file=healthqa, prompts="mlbench"))
    TASK.validate(own)
    assert counts(own) == [("healthqa", 2)]


@pytest.mark.parametrize("source", [DataSource("sample"), DataSource("jsonl", Path("x.jsonl"))])
def test_sample_and_jsonl_sources_are_refused(source):
    with pytest.raises(MlbenchError, match="xlinghealth reads the XLingEval release .* not --sample or --data-file"):
        TASK.validate(TaskOptions(source))
