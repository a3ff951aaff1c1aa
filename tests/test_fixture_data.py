"""The synthetic data dir the tests run on (tests/fixture_data.py): deterministic, small,
and in every layout the local loaders read."""

from __future__ import annotations

from fixture_data import write_fixture_datasets

from mlbench.benchmarks.msqad.sources import CODE as MSQAD_CODE
from mlbench.benchmarks.truthfulqa_multi.sources import JUDGE_SCRIPT
from mlbench.benchmarks.xlinghealth.sources import CODE as XLINGHEALTH_CODE


def _files(root):
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()}


def test_the_tree_is_deterministic_and_small(fixture_datasets, tmp_path):
    first = _files(fixture_datasets)
    assert _files(write_fixture_datasets(tmp_path / "again")) == first
    assert sum(len(content) for content in first.values()) < 1_000_000
    expected = {f"truthfulqa-multi/{lang}/{split}.json" for lang in ("en", "es", "ca", "gl", "eu")
                for split in ("train", "validation")}  # fmt: skip
    expected |= {f"veritasqa/veritasqa_{lang}.csv" for lang in ("en", "es", "ca", "gl")}
    expected |= {"xlinghealth/LiveQA.csv", "xlinghealth/MedicationQA.csv", "calmqa/questions.jsonl"}
    expected |= {
        f"msqad/{topic}.json" for topic in ("Crisis and Conflict", "Disability Rights", "Rights of Older People")
    }
    # The authors' prompt code, in its shape with text written for the tests (upstream/<task>/).
    expected |= {f"upstream/xlinghealth/{path}" for path in XLINGHEALTH_CODE}
    expected |= {f"upstream/msqad/{path}" for path in MSQAD_CODE}
    expected |= {f"upstream/truthfulqa-multi/{JUDGE_SCRIPT}"}  # the authors' judge script, in its shape
    assert set(first) == expected
