"""End to end on the tiny model: TruthfulQA-X's German and TruthfulQA-Multi's English, run
from copies in their real layouts, give a paired de-vs-en gap in ``mlbench report --align
tqa_index`` over the questions both hold."""

from __future__ import annotations

import json

from tests.benchmarks.declared.template_fixture import write_template_copy
from tests.cli.test_cli import run_cli, run_model
from tests.upstream_pins import pin_fixture_copies


def test_german_of_truthfulqax_against_english_of_truthfulqa_multi(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    copy = write_template_copy(tmp_path / "copy")
    pin_fixture_copies(monkeypatch, copy)
    out = tmp_path / "out"
    common = "--backend hf --no-cache --mode mc"
    english = run_model(tiny_model, out, f"--task truthfulqa_multi --lang en {common}", "--data-dir", fixture_datasets)
    assert english.exit_code == 0, english.output
    german = run_model(tiny_model, out, f"--task truthfulqax --lang de {common}", "--data-dir", copy)
    assert german.exit_code == 0, german.output
    lines = (out / tiny_model.name / "truthfulqax" / "samples_de.jsonl").read_text(encoding="utf-8").splitlines()
    samples = [json.loads(line) for line in lines]
    assert sorted(s["labels"]["tqa_index"] for s in samples) == ["0", "1"]
    report = run_cli("report", out, "--align", "tqa_index", "--format", "json", "--out", tmp_path / "r")
    assert report.exit_code == 0, report.output
    payload = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert payload["ref_lang"] == "en (truthfulqa_multi)"
    mc1 = next(t for t in payload["tables"] if t["metric"] == "mc1")
    de = mc1["rows"][0]["cells"]["de (truthfulqax)"]
    # TruthfulQA-X's rows 0 and 1 are TruthfulQA-Multi's ids 1 and 2: two questions in common.
    assert de["gap_n"] == 2 and de["paired"] is True and de["test"] == "mcnemar"
    assert mc1["rows"][0]["cells"]["en (truthfulqa_multi)"]["n"] == 20
