"""Model-based consistency metrics of a language's saved samples."""

from __future__ import annotations

import pytest

from mlbench.benchmarks.xlinghealth.consistency import add_model_metrics
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.records import SampleRecord

OPTIONS = XLingHealthOptions(embedder="minilm", bertscore_model="minilm", bertscore_layer=4)


def _records():
    same = ["Rest and drink water."] * 3
    varied = ["Rest and drink water.", "See a doctor about the fever.", "Insulin lowers blood sugar."]
    lines = [
        {
            "id": "liveqa:1",
            "lang": "en",
            "group": "liveqa",
            "metrics": {},
            "outputs": {"consistency": {"0": same, "1": varied}},
        },
        {
            "id": "liveqa:2",
            "lang": "en",
            "group": "liveqa",
            "metrics": {},
            "outputs": {"consistency": {"0": same, "1": same}},
        },
        {"id": "liveqa:3", "lang": "en", "group": "liveqa", "metrics": {}, "outputs": {"error": "gen: failed"}},
    ]
    return [SampleRecord.from_json(line) for line in lines]


def test_identical_answers_score_one_and_varied_ones_less(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    records = _records()
    assert add_model_metrics(records, OPTIONS, seed=0) is True
    first, second, failed = records
    for metric in ("sim_sent", "bertscore_f1", "sim_lda20", "sim_lda100", "sim_hdp"):
        assert first.metrics[f"{metric}@0"] == pytest.approx(1.0), metric
        assert second.metrics[f"{metric}@1"] == pytest.approx(1.0), metric
    assert first.metrics["sim_sent@1"] < 0.6 and first.metrics["bertscore_f1@1"] < 0.9
    assert failed.metrics == {}
    stamp = first.outputs["consistency_models"]
    assert stamp["embedder"] == "minilm" and stamp["bertscore_layer"] == 4


def test_recomputed_only_when_settings_or_answers_change(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from dataclasses import replace

    records = _records()
    add_model_metrics(records, OPTIONS, seed=0)
    assert add_model_metrics(records, OPTIONS, seed=0) is False
    records[1].outputs["consistency"]["1"] = ["Something else entirely.", "Rest.", "Water."]
    assert add_model_metrics(records, OPTIONS, seed=0) is True
    skipped = replace(OPTIONS, embedder="none", bertscore_model="none")
    assert add_model_metrics(records, skipped, seed=0) is True
    assert not any(k.startswith(("sim_sent", "bertscore")) for k in records[0].metrics)
    assert "sim_lda20@1" in records[0].metrics


def test_progress_opens_only_when_there_is_work(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    opened, advanced = [], []

    def start(what, total):
        opened.append((what, total))
        return advanced.append

    records = _records()
    add_model_metrics(records, OPTIONS, seed=0, start_progress=start)
    assert opened == [("consistency models", 3 * 4)]  # 2 questions × 2 temperatures, 3 steps each
    assert sum(advanced) == 12
    add_model_metrics(records, OPTIONS, seed=0, start_progress=start)
    assert len(opened) == 1
