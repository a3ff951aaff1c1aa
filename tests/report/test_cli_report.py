"""``mlbench report`` from the command line: files written, one-line errors."""

import json

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app

runner = CliRunner()


def report(*args):
    return runner.invoke(app, ["report", *map(str, args)], env={"COLUMNS": "250"})


def test_report_prints_tables_and_writes_every_file(two_models, tmp_path):
    out = tmp_path / "out"
    result = report(two_models, "--format", "md,csv,latex,html,json", "--plots", "--out", out)
    assert result.exit_code == 0, result.output
    assert "truthfulqa_multi · org/gap-model" in result.output and "truthfulqa_multi · org/flat-model" in result.output
    assert "***" in result.output  # the Basque gap, marked in the terminal too
    # Languages go down the rows: the tables and their caption fit 80 columns.
    narrow = runner.invoke(app, ["report", str(two_models)], env={"COLUMNS": "80"})
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    assert f"wrote 9 file(s) to {out}" in result.output
    assert {p.name for p in out.iterdir()} == {
        "report.md",
        "report.csv",
        "report.tex",
        "report.html",
        "report.json",
        "plots",
    }


def test_report_files_default_to_the_results_folder(two_models):
    result = report(two_models, "--format", "json", "--model", "org/gap-model", "--metric", "mc2", "--seed", "3")
    assert result.exit_code == 0, result.output
    data = json.loads((two_models / "report" / "report.json").read_text())
    assert [t["metric"] for t in data["tables"]] == ["mc2"] and data["seed"] == 3
    assert [r["model"] for r in data["tables"][0]["rows"]] == ["org/gap-model"]


def test_an_out_folder_without_formats_gets_every_format(two_models, tmp_path):
    result = report(two_models, "--out", tmp_path / "all", "--task", "truthfulqa_multi")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(
        ["report.md", "report.csv", "report.tex", "report.html", "report.json", "explorer.html"]
    )


@pytest.mark.parametrize("ref_lang", ["eu", "EU", "eu-ES", "Basque"])
def test_another_reference_language(ref_lang, two_models, tmp_path):
    result = report(two_models, "--ref-lang", ref_lang, "--format", "json,md", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    # A tag or name read as the runs' code is said once; a change of case is not.
    said = f"mlbench: --ref-lang {ref_lang}: using eu"
    assert result.output.count(said) == (ref_lang not in ("eu", "EU")), result.output
    # ... on the console only: the report's Notes are about the runs, not the flags.
    assert "using eu" not in (tmp_path / "report.md").read_text()
    table = json.loads((tmp_path / "report.json").read_text())["tables"][0]
    assert table["langs"][0] == "eu"
    assert table["rows"][1]["cells"]["en"]["significant_holm"] is True  # en vs eu for gap-model


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "docx"], "--format must be one of md, csv, latex, html, json, explore, not 'docx'"),
        (["--ref-lang", "zz"], "--ref-lang zz: no run has it; languages found: ca, en, es, eu, gl"),
        (["--task", "msqad"], "no run under"),
        (["--task", "truthfulqa_mult"], "matches truthfulqa_mult (did you mean truthfulqa_multi?); found "),
        (["--model", "gap_model"], "matches gap_model (did you mean org/gap-model?); found "),
        (["--ref-lang", "Basqe"], "--ref-lang Basqe (did you mean eu?): no run has it"),
        (["--metric", "mc9"], "--metric mc9: no run has it (did you mean mc2?); metrics: bleu_max, mc1, mc2"),
        (["--metric", "mc1,BLEU-max"], "--metric BLEU-max: no run has it (did you mean bleu_max?)"),
        (["--ref-lang", "Englsh"], "--ref-lang Englsh (did you mean en?): no run has it"),
    ],
)
def test_bad_input_is_one_line(two_models, args, message):
    result = report(two_models, *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output


def test_an_unknown_metric_lists_the_first_metrics_only(two_models, monkeypatch):
    monkeypatch.setattr("mlbench.report.make.METRICS_LISTED", 2)  # the fixture's runs have 3
    result = report(two_models, "--metric", "mc9")
    assert result.exit_code == 2
    assert result.output.strip().endswith(
        f"--metric mc9: no run has it (did you mean mc2?); metrics: bleu_max, mc1 … (3 in all; `mlbench report"
        f" {two_models}` prints a table per metric)"
    ), result.output


def test_a_malformed_results_file_is_one_line(tmp_path):
    (tmp_path / "m" / "t").mkdir(parents=True)
    (tmp_path / "m" / "t" / "results.json").write_text("{not json")
    result = report(tmp_path)
    assert result.exit_code == 2 and "not an mlbench results file" in result.output


def test_report_needs_only_results_json(two_models, tmp_path):
    """results.json is self-contained: with every other file of the runs deleted, every
    report format holds the same tables, gaps and tests."""
    before = tmp_path / "before"
    assert report(two_models, "--format", "md,csv,json", "--out", before).exit_code == 0
    printed = report(two_models).stdout
    for path in list(two_models.rglob("*")):
        if path.is_file() and path.name != "results.json":
            path.unlink()
    after = tmp_path / "after"
    result = report(two_models, "--format", "md,csv,json", "--out", after)
    assert result.exit_code == 0, result.output
    for name in ("report.md", "report.csv", "report.json"):
        assert (after / name).read_text() == (before / name).read_text(), name
    assert report(two_models).stdout == printed
