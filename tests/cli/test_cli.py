"""End to end through the CLI on the tiny model."""

import json

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app

runner = CliRunner()


def run_cli(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def run_model(model, output, flags: str, *more):
    """``mlbench run --model MODEL --output OUTPUT`` plus space-separated ``flags`` and ``more``
    arguments (paths)."""
    return run_cli("run", "--model", model, "--output", output, *flags.split(), *more)


@pytest.fixture(scope="module")
def finished_run(tiny_model, fixture_datasets, tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    cache = tmp_path_factory.mktemp("cache")
    result = run_model(
        tiny_model,
        out,
        "--task truthfulqa_multi,veritasqa --lang en,es --limit 4",
        "--data-dir",
        fixture_datasets,
        "--cache-dir",
        cache,
    )
    assert result.exit_code == 0, result.output
    return out, result


def test_run_writes_the_results_layout(finished_run, tiny_model):
    out, result = finished_run
    for task, metrics in (
        ("truthfulqa_multi", {"mc1", "mc2", "bleu_max", "bleu_acc", "bleu_diff"}),
        ("veritasqa", {"mc1", "mc2", "mc3", "lprob_max", "lprob_diff", "bleu_max"}),
    ):
        run_dir = out / tiny_model.name / task
        data = json.loads((run_dir / "results.json").read_text())
        assert data["task"] == task
        assert set(data["results"]) == {"en", "es"}
        block = data["results"]["en"]
        assert block["n-samples"] == 4
        assert metrics <= set(block)
        assert block["mc2"]["ci_low"] <= block["mc2"]["value"] <= block["mc2"]["ci_high"]
        assert data["config"]["data_source"].startswith("local:")
        assert data["config"]["limit"] == 4 and data["config"]["prompt_hashes"]
        lines = (run_dir / "samples_es.jsonl").read_text().splitlines()
        assert len(lines) == 4
        record = json.loads(lines[0])
        assert {"id", "lang", "prompt", "outputs", "metrics"} <= set(record)
        assert "| mc1 |" in (run_dir / "table.md").read_text()
    assert "truthfulqa_multi" in result.output and "mc2" in result.output


def test_samples_are_the_same_ids_in_both_languages(finished_run, tiny_model):
    out, _ = finished_run
    run_dir = out / tiny_model.name / "truthfulqa_multi"
    ids = {
        lang: [json.loads(x)["id"] for x in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]
        for lang in ("en", "es")
    }
    assert ids["en"] == ids["es"]


def test_report_collects_every_run(finished_run):
    out, _ = finished_run
    result = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for text in ("truthfulqa_multi", "veritasqa", "mc1", "bleu_acc", "en", "es"):
        assert text in result.output
    chosen = runner.invoke(app, ["report", str(out), "--metric", "mc3"], env={"COLUMNS": "200"})
    assert chosen.exit_code == 0 and "mc3" in chosen.output  # any metric, when asked for


def test_a_run_saves_each_questions_values_for_the_report(finished_run, tiny_model):
    out, _ = finished_run
    run_dir = out / tiny_model.name / "truthfulqa_multi"
    records = [json.loads(x) for x in (run_dir / "samples_es.jsonl").read_text().splitlines()]
    block = json.loads((run_dir / "results_es.json").read_text())["per_question"]
    by_id = {r["id"]: r["metrics"] for r in records}
    assert sorted(block["ids"]) == sorted(by_id)
    for metric, column in block["values"].items():
        assert column == [by_id[q].get(metric) for q in block["ids"]], metric
    result = runner.invoke(app, ["report", str(out), "--format", "csv", "-o", str(out / "rep")])
    assert result.exit_code == 0, result.output
    rows = (out / "rep" / "report.csv").read_text().splitlines()
    assert any(row.startswith("truthfulqa_multi,mc1,tiny,es,en,") for row in rows)
    # --out, the spelling of earlier releases, names the same folder.
    again = runner.invoke(app, ["report", str(out), "--format", "csv", "--out", str(out / "rep2")])
    assert again.exit_code == 0, again.output
    assert (out / "rep2" / "report.csv").read_text().splitlines() == rows
    both = runner.invoke(app, ["report", str(out), "-o", str(out / "a"), "--out", str(out / "b")])
    assert both.exit_code == 2 and "give one" in both.output and len(both.output.strip().splitlines()) == 1, both.output


def test_rerun_gives_identical_metrics(finished_run, tiny_model, fixture_datasets, tmp_path):
    out, _ = finished_run
    again = run_model(
        tiny_model, tmp_path, "--task veritasqa --lang en,es --limit 4 --no-cache", "--data-dir", fixture_datasets
    )
    assert again.exit_code == 0, again.output
    first = json.loads((out / tiny_model.name / "veritasqa" / "results.json").read_text())["results"]
    second = json.loads((tmp_path / tiny_model.name / "veritasqa" / "results.json").read_text())["results"]
    assert first == second


def test_sample_set_in_every_language(tiny_model, tmp_path):
    result = run_model(tiny_model, tmp_path, "--task truthfulqa_multi --lang all --mode mc --sample --no-cache")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / tiny_model.name / "truthfulqa_multi" / "results.json").read_text())
    assert list(data["results"]) == ["en", "es", "ca", "gl", "eu"]
    assert data["config"]["data_source"].startswith("sample:")
    assert set(data["results"]["eu"]) == {"n-samples", "mc1", "mc2"}


def test_user_jsonl_data(tiny_model, tmp_path):
    rows = [
        {
            "id": f"q{i}",
            "lang": lang,
            "question": f"Question {i}?",
            "best_answer": "Yes it is.",
            "correct_answers": ["Yes it is.", "It is."],
            "incorrect_answers": ["No it is not."],
        }
        for i in range(3)
        for lang in ("en", "eu")
    ]
    data_file = tmp_path / "mine.jsonl"
    data_file.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_model(tiny_model, tmp_path / "out", "--task veritasqa --no-cache --mode mc", "--data-file", data_file)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / tiny_model.name / "veritasqa" / "results.json").read_text())
    assert sorted(data["results"]) == ["en", "eu"] and data["results"]["eu"]["n-samples"] == 3


def test_tasks_lists_benchmarks():
    result = runner.invoke(app, ["tasks"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in ("truthfulqa_multi", "truthfulqa_multi_mt", "veritasqa", "TruthfulQA-Multi (machine translations)"):
        assert text in result.output
    one = runner.invoke(app, ["tasks", "truthfulqa_multi_mt"], env={"COLUMNS": "200"})  # its languages and data
    assert "HiTZ/truthfulqa-multi" in one.output and "en, es, ca, gl, eu" in one.output
