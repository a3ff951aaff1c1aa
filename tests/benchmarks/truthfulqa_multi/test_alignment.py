"""TruthfulQA-Multi's questions carry TruthfulQA's row (``tqa_index``): its release's ids
count TruthfulQA's 817 rows from 1, in the human and the machine translations alike; the
sample set, whose questions are mlbench's own, carries none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.truthfulqa_multi.loader import _from_rows, load_truthfulqa_multi
from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError


def test_a_copy_of_the_release_labels_each_question_with_its_id_less_one(fixture_datasets):
    samples = load_truthfulqa_multi("es", DataSource("local", fixture_datasets)).samples
    assert [s.meta[TQA_INDEX_LABEL] for s in samples] == [str(int(s.id) - 1) for s in samples]
    # Kept with each sample for the report, as the data's other labels are.
    task = get_task("truthfulqa_multi")
    assert task.sample_labels(samples[0])[TQA_INDEX_LABEL] == str(int(samples[0].id) - 1)


def test_the_machine_translations_are_labelled_the_same_way(fixture_datasets, tmp_path):
    shutil.copytree(fixture_datasets / "truthfulqa-multi" / "eu", tmp_path / "truthfulqa-multi-MT" / "eu")
    samples = load_truthfulqa_multi("eu", DataSource("local", tmp_path), variant="mt").samples
    assert samples and all(s.meta[TQA_INDEX_LABEL] == str(int(s.id) - 1) for s in samples)


def test_the_sample_set_is_not_truthfulqa_and_carries_no_row():
    samples = load_truthfulqa_multi("en", DataSource("sample")).samples
    assert samples and not any(TQA_INDEX_LABEL in s.meta for s in samples)
    assert TQA_INDEX_LABEL not in get_task("truthfulqa_multi").sample_labels(samples[0])


def _copy_with_ids(root: Path, fixture_datasets: Path, ids: list[object]) -> DataSource:
    folder = root / "truthfulqa-multi" / "en"
    shutil.copytree(fixture_datasets / "truthfulqa-multi" / "en", folder)
    rows = json.loads((folder / "validation.json").read_text(encoding="utf-8"))[: len(ids)]
    rows = [{**row, "id": new} for row, new in zip(rows, ids)]
    (folder / "validation.json").write_text(json.dumps(rows), encoding="utf-8")
    return DataSource("local", root)


@pytest.mark.parametrize("ids", [[1, 0], [818], ["q1", "q2"]])
def test_a_copy_whose_ids_are_not_truthfulqas_rows_runs_unlabelled(fixture_datasets, tmp_path, ids):
    """A copy of one's own (ids q1, or a 0) is run as before, and aligned with nothing:
    no question of it may be paired with another's."""
    samples = load_truthfulqa_multi("en", _copy_with_ids(tmp_path, fixture_datasets, ids)).samples
    assert [s.id for s in samples] == [str(i) for i in ids]
    assert not any(TQA_INDEX_LABEL in s.meta for s in samples)


@pytest.mark.parametrize(
    ("ids", "said"), [([1, 0], "row 2: 0 - 1 = -1 is no TruthfulQA row"), ([818], "818 - 1 = 817 is no TruthfulQA row")]
)
def test_the_release_with_an_id_that_is_no_row_is_refused(ids, said):
    targets = {"choices": ["Yes.", "No."], "labels": [1, 0]}
    rows = [{"id": i, "question": "Is it?", "best_answer": "Yes.", "correct_answers": ["Yes."],
             "incorrect_answers": ["No."], "mc1_targets": targets, "mc2_targets": targets} for i in ids]  # fmt: skip
    with pytest.raises(MlbenchError, match=said):
        _from_rows(rows, [], "en", "HiTZ/truthfulqa-multi", rows_are="release")


def test_the_task_says_how_it_aligns():
    for name in ("truthfulqa_multi", "truthfulqa_multi_mt"):
        alignment = get_task(name).alignment
        assert alignment is not None and alignment.aligned and "id - 1" in alignment.how
    assert get_task("msqad").alignment is None  # not a translation of TruthfulQA
    veritas = get_task("veritasqa").alignment  # through the authors' map (tests/benchmarks/veritasqa)
    assert veritas is not None and veritas.aligned and veritas.from_scope_map
