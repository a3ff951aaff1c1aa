"""`mlbench run --task truthfulqa_multi_mt` end to end on the tiny model: the machine-translated
variant reads its data from its own folder and its prompts from TruthfulQA-Multi's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.benchmarks import get_task
from mlbench.cli.main import app
from mlbench.data.source import sample_dir
from mlbench.resources import prompt_hash

runner = CliRunner()
LANGS = ("en", "es")
MT_MARK = "(MT) "  # put before every question, so a prompt shows which copy was read


@pytest.fixture
def mt_data_dir(tmp_path: Path) -> Path:
    """Three questions and the six primer pairs per language, from the embedded sample set,
    in the upstream layout ``truthfulqa-multi-MT/<lang>/{train,validation}.json``."""
    root = tmp_path / "data"
    for lang in LANGS:
        folder = root / "truthfulqa-multi-MT" / lang
        folder.mkdir(parents=True)
        rows = json.loads((sample_dir() / lang / "validation.json").read_text(encoding="utf-8"))[:3]
        rows = [{**row, "question": MT_MARK + row["question"]} for row in rows]
        (folder / "validation.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        shutil.copy(sample_dir() / lang / "train.json", folder / "train.json")
    return root


def _run(model: Path, data: Path, out: Path, mode: str):
    args = [
        "run", "--model", model, "--task", "truthfulqa_multi_mt", "--lang", ",".join(LANGS), "--mode", mode,
        "--data-dir", data, "--output", out, "--no-cache", "--max-new-tokens", "16",
    ]  # fmt: skip
    return runner.invoke(app, [str(a) for a in args])


def _samples(run_dir: Path, lang: str) -> list[dict]:
    return [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]


def test_mc_run_uses_the_truthfulqa_multi_prompts(tiny_model, mt_data_dir, tmp_path):
    result = _run(tiny_model, mt_data_dir, tmp_path / "out", "mc")
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / "out" / tiny_model.name / "truthfulqa_multi_mt"
    data = json.loads((run_dir / "results.json").read_text())
    assert data["task"] == "truthfulqa_multi_mt" and data["config"]["fewshot"] == 6
    assert data["config"]["prompt_hashes"] == {
        name: prompt_hash(get_task("truthfulqa_multi").prompt_dir, name)
        for name in ("shot", "question", "gen_question", "gen_answer")
    }
    for lang in LANGS:
        block = data["results"][lang]
        assert block["n-samples"] == 3 and {"mc1", "mc2"} <= set(block)
        records = _samples(run_dir, lang)
        assert len(records) == 3
        for record in records:
            assert record["question"].startswith(MT_MARK)
            assert record["prompt"].endswith(f"\n\nQ: {record['question']}\nA:")
            assert record["prompt"].count("\nA: ") == 6  # the six-pair primer
            assert len(record["outputs"]["mc1_loglikelihoods"]) >= 2
    assert "| mc1 |" in (run_dir / "table.md").read_text()


def test_gen_run_writes_answers_bleu_and_surface_checks(tiny_model, mt_data_dir, tmp_path):
    result = _run(tiny_model, mt_data_dir, tmp_path / "out", "gen")
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / "out" / tiny_model.name / "truthfulqa_multi_mt"
    data = json.loads((run_dir / "results.json").read_text())
    for lang in LANGS:
        assert {"bleu_max", "bleu_acc", "bleu_diff", "surface_issue"} <= set(data["results"][lang])
        for record in _samples(run_dir, lang):
            assert record["question"].startswith(MT_MARK)
            assert isinstance(record["outputs"]["answer"], str) and "issue" in record["surface"]
    table = (run_dir / "table.md").read_text()
    assert "| bleu_acc |" in table and "## Surface issues" in table
