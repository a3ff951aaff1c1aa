"""`mlbench run --task xlinghealth`, each mode, on the tiny model and the fixture data (tests/fixture_data.py)."""

from __future__ import annotations

import json

from judges.scripted import ScriptedBackend
from typer.testing import CliRunner

from mlbench.cli.main import app
from mlbench.metrics.judged import CORRECTNESS_METRICS

runner = CliRunner()


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def _results(out, model):
    return json.loads((out / model.name / "xlinghealth" / "results.json").read_text())


def _samples(out, model, lang):
    path = out / model.name / "xlinghealth" / f"samples_{lang}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_correctness_then_the_correctness_judge(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_cli(
        "run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "correctness", "--lang", "en,zh",
        "--limit", "3", "--data-dir", fixture_datasets, "--max-new-tokens", "16", "--output", tmp_path,
        "--no-cache", "--judge", tiny_model,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "this run generates 6 texts" in result.output
    data = _results(tmp_path, tiny_model)
    assert set(data["config"]["judges"]) == {"correctness"}
    # The fixture's release defects: a LiveQA question empty in English, a MedicationQA
    # question without an English gold answer, one empty Chinese candidate answer.
    assert data["config"]["data_counts"] == {
        "en": {"skipped_empty_question": 1, "empty_candidates": 1},
        "zh": {"empty_candidates": 1},
    }
    for lang in ("en", "zh"):
        block = data["results"][lang]
        records = _samples(tmp_path, tiny_model, lang)
        assert all(r["reference"] and "answer" in r["outputs"] and "correctness" in r["judges"] for r in records)
        labeled = sum(r["judges"]["correctness"].get("label") in CORRECTNESS_METRICS for r in records)
        # Every answer got one of the four labels or is counted as unparsed: none is dropped.
        assert labeled + block.get("unparsed_correctness", 0) == 3
        if labeled:
            assert sum(block[m]["value"] for m in CORRECTNESS_METRICS.values()) == 1.0
        assert {r["group"] for r in records} <= {"liveqa", "medicationqa"}


def test_consistency_with_statistics_across_languages(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_cli(
        "run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "consistency", "--lang", "en,es,zh,hi",
        "-T", "datasets=medicationqa", "--limit", "4", "--data-dir", fixture_datasets, "--max-new-tokens", "12",
        "-T", "samples=3", "-T", "temperatures=0,1", "-T", "embedder=minilm", "-T", "bertscore_model=minilm",
        "--output", tmp_path, "--no-cache",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "this run generates 96 texts" in result.output  # 4 languages × 4 questions × 2 temperatures × 3
    data = _results(tmp_path, tiny_model)
    for block in data["results"].values():
        for metric in (
            "sim_1gram",
            "sim_2gram",
            "length",
            "sim_sent",
            "bertscore_f1",
            "sim_lda20",
            "sim_lda100",
            "sim_hdp",
        ):
            assert f"{metric}@0" in block and f"{metric}@1" in block, metric
        assert block["sim_1gram@0"]["value"] == 1.0  # greedy answers are identical
        assert set(block["groups"]) == {"medicationqa"}
    anova = data["cross_language"]["anova"]
    assert {(r["metric"], r["temperature"]) for r in anova} >= {("sim_1gram", "1"), ("sim_hdp", "1")}
    assert len(data["cross_language"]["tukey"]) == len(anova) * 6
    table = (tmp_path / tiny_model.name / "xlinghealth" / "table.md").read_text()
    assert "One-way ANOVA across languages" in table and "Tukey HSD" in table and "t-tests" in table
    records = _samples(tmp_path, tiny_model, "hi")
    assert all(len(r["outputs"]["consistency"]["1"]) == 3 for r in records)


def test_verifiability_from_log_probs_and_from_words(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    common = [
        "run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "verifiability", "--lang", "es",
        "--limit", "3", "--data-dir", fixture_datasets, "-T", "temperatures=0,1", "--no-cache",
    ]  # fmt: skip
    logprob = run_cli(*common, "--output", tmp_path / "a")
    assert logprob.exit_code == 0, logprob.output
    block = _results(tmp_path / "a", tiny_model)["results"]["es"]
    for name in ("precision", "recall", "f1", "accuracy"):
        assert f"verify_{name}@0" in block and f"verify_{name}@1" in block
    assert "verify_auc@1" in block
    records = _samples(tmp_path / "a", tiny_model, "es")
    assert all(len(r["outputs"]["verifiability"]["candidates"]) == 5 for r in records)
    words = run_cli(*common, "-T", "verify_scoring=generate", "--output", tmp_path / "b")
    assert words.exit_code == 0, words.output
    assert "this run generates 30 texts" in words.output
    records = _samples(tmp_path / "b", tiny_model, "es")
    assert all(set(c["words"]) == {"0", "1"} for r in records for c in r["outputs"]["verifiability"]["candidates"])


def test_a_backend_without_log_probs_falls_back_to_words(fixture_datasets, tmp_path):
    from mlbench.backends.registry import ModelOptions
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
    from mlbench.data.source import DataSource
    from mlbench.engine.pipeline import RunConfig, RunObserver, run
    from mlbench.errors import LogprobsUnsupported

    class ChatOnly(ScriptedBackend):
        def loglikelihood(self, requests, progress=None):
            raise LogprobsUnsupported("the server does not return prompt log-probs")

    class Warnings(RunObserver):
        messages: list[str] = []

        def warn(self, message):
            self.messages.append(message)

    backend = ChatOnly(text=lambda prompt: "Yes")
    config = RunConfig(
        model=ModelOptions("chat-api"),
        tasks=("xlinghealth",),
        langs=("en",),
        mode="verifiability",
        task_options=TaskOptions(DataSource("local", fixture_datasets)),
        own_options={"xlinghealth": XLingHealthOptions(temperatures=(0.0,))},
        limit=4,
        output=tmp_path,
    )
    [result] = run(config, Warnings(), backend_factory=lambda: backend)
    metrics = result.languages["en"].metrics
    assert metrics["verify_recall@0"].value == 0.5 and "verify_auc@0" not in metrics  # all Yes: AUC n/a
    assert "reading generated words instead" in Warnings.messages[0]
    assert len(backend.generation_requests) == 4 * 5


def test_large_runs_ask_for_yes_and_bad_options_fail_in_one_line(tiny_model, fixture_datasets, tmp_path):
    base = ["run", "--model", tiny_model, "--task", "xlinghealth", "--data-dir", fixture_datasets, "--output", tmp_path]
    # 11 English questions (LiveQA and MedicationQA) × 5 temperatures × 200 answers.
    big = run_cli(*base, "--mode", "consistency", "--lang", "en", "-T", "samples=200")
    assert big.exit_code == 2 and "generates 11,000 texts (over 10,000); pass --yes" in big.output
    for extra, message in [
        (["-T", "temperatures=0,hot"], "'hot' is not a number"),
        (["--mode", "truthfulness"], "has no mode truthfulness; valid: correctness, consistency, verifiability"),
        (["-T", f"healthqa_file={tmp_path / 'missing.csv'}"], "no such file"),
        (["-T", "datasets=pubmedqa"], "datasets 'pubmedqa' is not one of healthqa, liveqa, medicationqa"),
        (["-T", "verify_scoring=guess"], "verify_scoring"),
        (["--lang", "fr"], "has no language fr"),
    ]:
        result = run_cli(*base, *extra)
        assert result.exit_code == 2 and message in result.output, (extra, result.output)
