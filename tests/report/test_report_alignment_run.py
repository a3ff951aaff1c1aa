"""End to end on the tiny model: TruthfulQA-X's German and TruthfulQA-Multi's English, run
from copies in their real layouts, give a paired de-vs-en gap in ``mlbench report --align
tqa_index`` over the questions both hold."""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmarks.declared.template_fixture import TQAX_LANGS, tqax_file, write_template_copy
from tests.benchmarks.truthfulqa_multi.fixtures import truthfulqa_rows
from tests.cli.test_cli import run_cli, run_model
from tests.upstream_pins import pin_fixture_copies


def _run_both(model: Path, out: Path, *runs: tuple[str, Path]) -> None:
    """Each (flags, --data-dir) run of ``model`` into ``out``, each ending well."""
    for flags, data in runs:
        result = run_model(model, out, flags, "--data-dir", data)
        assert result.exit_code == 0, result.output


def _aligned_report(out: Path, folder: Path) -> dict:
    """``mlbench report OUT --align tqa_index``'s report.json."""
    report = run_cli("report", out, "--align", "tqa_index", "--format", "json", "--out", folder)
    assert report.exit_code == 0, report.output
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


def test_german_of_truthfulqax_against_english_of_truthfulqa_multi(tiny_model, fixture_datasets, tmp_path, monkeypatch):
    copy = write_template_copy(tmp_path / "copy")
    pin_fixture_copies(monkeypatch, copy)
    out = tmp_path / "out"
    common = "--backend hf --no-cache --mode mc"
    _run_both(tiny_model, out, (f"--task truthfulqa_multi --lang en {common}", fixture_datasets),
              (f"--task truthfulqax --lang de {common}", copy))  # fmt: skip
    lines = (out / tiny_model.name / "truthfulqax" / "samples_de.jsonl").read_text(encoding="utf-8").splitlines()
    samples = [json.loads(line) for line in lines]
    assert sorted(s["labels"]["tqa_index"] for s in samples) == ["0", "1"]
    payload = _aligned_report(out, tmp_path / "r")
    assert payload["ref_lang"] == "en (truthfulqa_multi)"
    mc1 = next(t for t in payload["tables"] if t["metric"] == "mc1")
    de = mc1["rows"][0]["cells"]["de (truthfulqax)"]
    # TruthfulQA-X's rows 0 and 1 are TruthfulQA-Multi's ids 1 and 2: two questions in common.
    assert de["gap_n"] == 2 and de["paired"] is True and de["test"] == "mcnemar"
    assert mc1["rows"][0]["cells"]["en (truthfulqa_multi)"]["n"] == 20


def _larger_copies(root: Path, rows: int) -> tuple[Path, Path]:
    """TruthfulQA-Multi's English (ids 1..rows) and TruthfulQA-X's generation files (ids
    0..rows-1, every language: the benchmark is parallel) in their layouts: the same
    TruthfulQA rows under ids one apart."""
    multi = root / "multi"
    (multi / "truthfulqa-multi" / "en").mkdir(parents=True)
    english, train = truthfulqa_rows("en")
    grown = [{**english[i % len(english)], "id": i + 1, "question": f"Question {i + 1}?"} for i in range(rows)]
    for name, content in (("validation", grown), ("train", train)):
        (multi / "truthfulqa-multi" / "en" / f"{name}.json").write_text(json.dumps(content), encoding="utf-8")
    x = write_template_copy(root / "x")
    for code, *_ in TQAX_LANGS.values():
        lines = [json.dumps({"id": i, "question": f"Frage {i} ({code})?", "best_answer": "Ja.",
                             "correct_answers": ["Ja.", "Gewiss."], "incorrect_answers": ["Nein."]})
                 for i in range(rows)]  # fmt: skip
        (x / "truthfulqax" / tqax_file("gen", code)).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return multi, x


def test_runs_limited_alike_answer_the_same_rows_and_the_gap_says_its_n(tiny_model, tmp_path, monkeypatch):
    multi, x = _larger_copies(tmp_path, 60)
    pin_fixture_copies(monkeypatch, x)
    out = tmp_path / "out"
    common = "--backend hf --no-cache --limit 20"
    _run_both(tiny_model, out, (f"--task truthfulqa_multi --mode gen --lang en {common}", multi),
              (f"--task truthfulqax_gen --lang de {common}", x))  # fmt: skip
    rows = {}
    for task, lang in (("truthfulqa_multi", "en"), ("truthfulqax_gen", "de")):
        lines = (out / tiny_model.name / task / f"samples_{lang}.jsonl").read_text(encoding="utf-8").splitlines()
        rows[task] = {json.loads(line)["labels"]["tqa_index"] for line in lines}
    assert len(rows["truthfulqa_multi"]) == 20 and rows["truthfulqa_multi"] == rows["truthfulqax_gen"]
    payload = _aligned_report(out, tmp_path / "r")
    bleu = next(t for t in payload["tables"] if t["metric"] == "bleu_acc")
    de = bleu["rows"][0]["cells"]["de (truthfulqax_gen)"]
    assert de["n"] == 20 and de["gap_n"] == 20 and de["paired"] is True and de["test"] == "mcnemar"
