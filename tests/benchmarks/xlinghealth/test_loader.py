"""The XLingHealth loader on the fixture data (tests/fixture_data.py) and on malformed files.

The real release's counts are checked in tests/full_data/test_loaders_full.py."""

from __future__ import annotations

import csv

import pytest

from mlbench.benchmarks.xlinghealth.loader import (
    LANGUAGE_COLUMNS,
    dataset_path,
    load_health_questions,
    load_xlinghealth,
)
from mlbench.errors import MlbenchError


def _files(fixture_datasets):
    return {d: dataset_path(fixture_datasets, d) for d in ("liveqa", "medicationqa")}


def test_release_gives_one_sample_per_question_with_five_candidates(fixture_datasets):
    es = load_xlinghealth("es", _files(fixture_datasets))
    assert len(es.samples) == 6 + 6 and es.counts == {}
    for sample in es.samples:
        labels = [c["label"] for c in sample.meta["candidates"]]
        assert sorted(labels) == [0, 0, 0, 0, 1]
        gold = next(c for c in sample.meta["candidates"] if c["label"] == 1)
        assert gold["answer"] == sample.best_answer
        # The negatives are other questions' gold answers, named by answer_ids.
        assert sample.id.split(":")[1] not in [c["answer_id"] for c in sample.meta["candidates"] if c["label"] == 0]
    assert es.samples[0].id == "liveqa:0" and es.samples[6].id == "medicationqa:0"
    assert {s.meta["dataset"] for s in es.samples} == {"liveqa", "medicationqa"}


def test_empty_questions_and_answers_are_counted_not_dropped_silently(fixture_datasets):
    en = load_xlinghealth("en", _files(fixture_datasets))
    # LiveQA 3 has no English text; MedicationQA 4 has no English gold answer.
    assert len(en.samples) == 11
    assert en.counts == {"skipped_empty_question": 1, "empty_candidates": 1}
    assert "liveqa:3" not in {s.id for s in en.samples}
    no_gold = next(s for s in en.samples if s.id == "medicationqa:4")
    assert no_gold.best_answer == "" and len(no_gold.meta["candidates"]) == 4
    # One Chinese candidate answer is empty: counted, the question kept with four candidates.
    zh = load_xlinghealth("zh", _files(fixture_datasets))
    assert zh.counts == {"empty_candidates": 1}
    assert [len(s.meta["candidates"]) for s in zh.samples].count(4) == 1
    ids = {lang: {s.id for s in load_xlinghealth(lang, _files(fixture_datasets)).samples} for lang in LANGUAGE_COLUMNS}
    assert ids["en"] < ids["zh"] == ids["es"] == ids["hi"]


def _write(path, rows, columns=None):
    columns = columns or ["id", "label", "answer_ids"] + [
        f"{kind}_{name}" for name in LANGUAGE_COLUMNS.values() for kind in ("question", "answer")
    ]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "text") for c in columns})


def test_malformed_files_fail_with_one_line(tmp_path):
    missing = tmp_path / "missing.csv"
    _write(missing, [{"id": "1", "label": "1", "answer_ids": "1"}], ["id", "label", "answer_ids", "question_English"])
    with pytest.raises(MlbenchError, match="missing column.*answer_English"):
        load_health_questions(missing, "healthqa", "en")
    bad_label = tmp_path / "bad_label.csv"
    _write(bad_label, [{"id": "1", "label": "yes", "answer_ids": "1"}])
    with pytest.raises(MlbenchError, match="line 2: label must be 0 or 1"):
        load_health_questions(bad_label, "healthqa", "en")
    two_gold = tmp_path / "two_gold.csv"
    _write(two_gold, [{"id": "1", "label": "1", "answer_ids": "1"}, {"id": "1", "label": "1", "answer_ids": "2"}])
    with pytest.raises(MlbenchError, match="question 1 has 2 rows with label=1"):
        load_health_questions(two_gold, "healthqa", "en")
    with pytest.raises(MlbenchError, match="no XLingHealth file"):
        load_health_questions(tmp_path / "nope.csv", "healthqa", "en")
