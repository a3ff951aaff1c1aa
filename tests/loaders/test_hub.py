"""The hub path, with datasets.load_dataset replaced by the local rows (the hub is unreachable here)."""

import csv
import json

import datasets

from mlbench.loaders.source import DataSource
from mlbench.loaders.truthfulqa_multi import load_truthfulqa_multi
from mlbench.loaders.veritasqa import CSV_COLUMNS, load_veritasqa


def test_truthfulqa_multi_reads_config_language_and_both_splits(shared_datasets, monkeypatch):
    calls = []

    def fake_load_dataset(path, name=None, split=None):
        calls.append((path, name, split))
        folder = shared_datasets / "truthfulqa-multi" / name
        return {s: json.loads((folder / f"{s}.json").read_text()) for s in ("train", "validation")}

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    hub = load_truthfulqa_multi("gl", DataSource("hub"))
    local = load_truthfulqa_multi("gl", DataSource("local", shared_datasets))
    assert calls == [("HiTZ/truthfulqa-multi", "gl", None)]
    assert hub == local
    load_truthfulqa_multi("eu", DataSource("hub"), variant="mt")
    assert calls[-1] == ("HiTZ/truthfulqa-multi-MT", "eu", None)


def test_veritasqa_reads_split_language_with_snake_case_columns(shared_datasets, monkeypatch):
    def fake_load_dataset(path, name=None, split=None):
        assert (path, split) == ("projecte-aina/veritasQA", "es")
        with (shared_datasets / "veritasqa" / f"veritasqa_{split}.csv").open(encoding="utf-8") as handle:
            return [{CSV_COLUMNS.get(k, k.lower()): v for k, v in row.items()} for row in csv.DictReader(handle)]

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    assert load_veritasqa("es", DataSource("hub")) == load_veritasqa("es", DataSource("local", shared_datasets))
