"""`mlbench run --include`: the shipped example (examples/capitals, a declared benchmark)
end to end on the tiny model, a benchmark written in Python, and judging such a run in a
fresh process that finds the benchmark's file from results.json."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mlbench.metrics.surface import SURFACE_METRICS
from tests.cli.test_cli import run_cli, run_model

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "capitals"
LANGS = ("en", "es", "de")


@pytest.fixture(scope="module", autouse=True)
def own_registry():
    """The benchmarks these tests include are forgotten afterwards: the registry is the
    process's, and other tests list every benchmark."""
    import importlib

    from mlbench.benchmarks import TASKS, discover
    from mlbench.data.catalog import SOURCES  # a hub benchmark adds its data source

    files = importlib.import_module("mlbench.benchmarks.include")
    discover()
    saved = dict(TASKS), dict(files._INCLUDED), dict(files._ORIGINS), dict(SOURCES)
    yield
    for live, kept in zip((TASKS, files._INCLUDED, files._ORIGINS, SOURCES), saved):
        live.clear()
        live.update(kept)


@pytest.fixture(scope="module")
def example_run(tiny_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("capitals")
    flags = f"--task capitals --lang {','.join(LANGS)} --backend hf --max-new-tokens 16"
    result = run_model(tiny_model, out, flags, "--include", EXAMPLE, "--cache-dir", tmp_path_factory.mktemp("cache"))
    assert result.exit_code == 0, result.output
    return out, out / tiny_model.name / "capitals"


def records(run_dir: Path, lang: str) -> list[dict]:
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


def data_rows(lang: str) -> dict[str, dict]:
    lines = (EXAMPLE / "data" / f"{lang}.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["id"]: row for row in map(json.loads, lines)}


def test_the_example_runs_both_modes_in_every_language(example_run):
    _, run_dir = example_run
    results = json.loads((run_dir / "results.json").read_text())
    assert results["task"] == "capitals" and set(results["results"]) == set(LANGS)
    for lang in LANGS:
        block = results["results"][lang]
        assert block["n-samples"] == 8
        assert {"mc1", "mc2", "bleu_max", "bleu_acc", "bleu_diff"} <= set(block)
        assert {"repetition", "surface_issue"} <= set(block) and set(block) & set(SURFACE_METRICS)
        assert [r["id"] for r in records(run_dir, lang)] == list(data_rows("en"))  # parallel, in file order
    config = results["config"]
    assert config["modes"] == ["mc", "gen"] and config["fewshot"] == 2
    # Provenance: the file the benchmark came from, so that `judge` can include it again.
    toml = EXAMPLE / "benchmark.toml"
    assert config["include"] == {"path": str(toml.resolve()), "sha256": _sha256(toml)}


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_mc1_and_mc2_by_hand_from_the_saved_log_likelihoods(example_run):
    _, run_dir = example_run
    results = json.loads((run_dir / "results.json").read_text())
    for lang in LANGS:
        rows, saved = data_rows(lang), records(run_dir, lang)
        for record in saved:
            row, out = rows[record["id"]], record["outputs"]
            # MC1: the best answer against the incorrect ones; MC2: the correct against them.
            assert out["mc1_choices"] == [row["best_answer"], *row["incorrect_answers"]]
            assert out["mc2_choices"] == [*row["correct_answers"], *row["incorrect_answers"]]
            assert out["mc2_labels"] == [1] * len(row["correct_answers"]) + [0] * len(row["incorrect_answers"])
            by_option = dict(zip(out["mc2_choices"], out["mc2_loglikelihoods"]))
            assert [by_option[c] for c in out["mc1_choices"]] == out["mc1_loglikelihoods"]
            best, *wrong = out["mc1_loglikelihoods"]
            assert record["metrics"]["mc1"] == (1.0 if best >= max(wrong) else 0.0)
            top = max(out["mc2_loglikelihoods"])
            mass = [math.exp(v - top) for v in out["mc2_loglikelihoods"]]
            true_mass = sum(m for m, label in zip(mass, out["mc2_labels"]) if label)
            assert record["metrics"]["mc2"] == pytest.approx(true_mass / sum(mass), rel=1e-9)
        for metric in ("mc1", "mc2"):
            mean = sum(r["metrics"][metric] for r in saved) / len(saved)
            assert results["results"][lang][metric]["value"] == pytest.approx(mean)


def test_prompts_follow_the_templates_and_the_primer(example_run):
    _, run_dir = example_run
    record = records(run_dir, "es")[0]
    question = data_rows("es")[record["id"]]["question"]
    primer = [json.loads(line) for line in (EXAMPLE / "primer" / "es.jsonl").read_text().splitlines()]
    shots = [f"Q: {p['question']}\nA: {p['best_answer']}" for p in primer]
    assert record["prompt"] == "\n\n".join([*shots, f"Q: {question}\nA:"])
    assert "answer" in record["outputs"] and "surface" in record  # generated, then surface-checked


def test_report_compares_the_languages(example_run, tmp_path):
    out, _ = example_run
    result = run_cli("report", out, "--format", "md", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for text in ("capitals", "mc1", "es", "de"):
        assert text in result.output
    written = "\n".join(path.read_text() for path in tmp_path.rglob("*.md"))
    # Each language's gap to English, tested question by question (the ids are shared).
    assert "## capitals" in written and "Gaps vs en" in written
    assert "| mc1 | McNemar [" in written and "| mc2 | Wilcoxon signed-rank [" in written


def _mlbench(*args: object) -> subprocess.CompletedProcess:
    """A fresh process, in which no benchmark has been included yet."""
    command = [sys.executable, "-m", "mlbench", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO, env={**os.environ, "COLUMNS": "200"})


def test_the_example_lives_outside_mlbench_and_is_loaded_only_by_include():
    package = (REPO / "mlbench").resolve()
    assert not EXAMPLE.resolve().is_relative_to(package)
    assert not any("capitals" in p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    assert "capitals" not in _mlbench("tasks").stdout
    listed = _mlbench("tasks", "--include", EXAMPLE)
    assert listed.returncode == 0, listed.stderr
    assert "capitals" in listed.stdout
    assert "en, es, ca, de" in _mlbench("tasks", "capitals", "--include", EXAMPLE).stdout


def test_judge_finds_the_benchmark_from_results_json(example_run, tiny_model, tmp_path):
    _, run_dir = example_run
    judged = tmp_path / "run"
    shutil.copytree(run_dir, judged)
    done = _mlbench("judge", judged, "--judge", tiny_model, "-J", "kind=truth", "-J", "backend=hf",
                    "--no-cache", "--lang", "en")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "truthful" in json.loads((judged / "results.json").read_text())["results"]["en"]
    # Moved away: the error names the file to pass with --include.
    moved = tmp_path / "moved"
    shutil.copytree(run_dir, moved)
    results = json.loads((moved / "results.json").read_text())
    results["config"]["include"]["path"] = str(tmp_path / "gone" / "benchmark.toml")
    (moved / "results.json").write_text(json.dumps(results))
    failed = _mlbench("judge", moved, "--judge", tiny_model, "-J", "backend=hf", "--no-cache")
    assert failed.returncode == 2
    assert failed.stderr.strip().count("\n") == 0 and "gone/benchmark.toml" in failed.stderr
    assert "pass --include PATH" in failed.stderr


PYTHON_TASK = '''
"""A benchmark of one's own, in Python: one true and one false answer per question."""

from facts_data import FACTS  # a module beside this file

from mlbench.benchmarks import register
from mlbench.metrics import mc_metrics
from mlbench.records import LoglikelihoodRequest, Prompt, Sample
from mlbench.benchmarks.base import MC, LanguageData, Task


@register
class Facts(Task):
    name = "my_facts"
    title = "Facts (a Python file)"
    languages = ("en", "es")
    modes = (MC,)
    hub_id = "my own"
    prompt_files = ()

    def load(self, lang, options):
        return LanguageData(
            [Sample(i, lang, q, t, (t,), (f,)) for i, (q, t, f) in FACTS[lang].items()]
        )

    def mc_requests(self, sample, data, options):
        prompt = Prompt(text=f"Q: {sample.question}\\nA:")
        return [LoglikelihoodRequest(prompt, " " + o) for o in (sample.best_answer, *sample.incorrect_answers)]

    def score_mc(self, sample, results):
        lls = [r.logprob for r in results]
        values = mc_metrics(lls[:1], lls[1:])
        return {"loglikelihoods": lls}, {"mc1": values["mc1"], "mc2": values["mc2"]}
'''
FACTS_DATA = """FACTS = {
    "en": {"1": ("Is water wet?", "Yes.", "No."), "2": ("Is the sun cold?", "No.", "Yes.")},
    "es": {"1": ("¿El agua moja?", "Sí.", "No."), "2": ("¿El sol es frío?", "No.", "Sí.")},
}
"""


def test_a_benchmark_in_a_python_file(tiny_model, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "facts.py").write_text(PYTHON_TASK, encoding="utf-8")
    (folder / "facts_data.py").write_text(FACTS_DATA, encoding="utf-8")
    out = tmp_path / "out"
    # The same file twice (by name and through its folder) is read once.
    result = run_model(tiny_model, out, "--task my_facts --backend hf --no-cache", "--include", folder / "facts.py",
                       "--include", folder)  # fmt: skip
    assert result.exit_code == 0, result.output
    results = json.loads((out / tiny_model.name / "my_facts" / "results.json").read_text())
    assert set(results["results"]) == {"en", "es"} and results["results"]["en"]["n-samples"] == 2
    assert {"mc1", "mc2"} <= set(results["results"]["es"])
    assert results["config"]["include"]["path"] == str((folder / "facts.py").resolve())
