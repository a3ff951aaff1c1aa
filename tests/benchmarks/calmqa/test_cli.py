"""`mlbench run --task calmqa` on the tiny model and the fixture data (tests/fixture_data.py), and `mlbench surface`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mlbench.cli.main import app

runner = CliRunner()


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_calmqa_end_to_end_on_the_tiny_model(tiny_model, fixture_datasets, tmp_path):
    out = tmp_path / "out"
    result = run_cli(
        "run", "--model", tiny_model, "--task", "calmqa", "--lang", "en,fj,bal", "--limit", "4",
        "--data-dir", fixture_datasets, "--max-new-tokens", "40", "--output", out, "--no-cache",
        "--judge", tiny_model,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    run_dir = out / tiny_model.name / "calmqa"
    data = json.loads((run_dir / "results.json").read_text())
    assert set(data["results"]) == {"en", "fj", "bal"}
    assert set(data["config"]["judges"]) == {"relevance", "claims", "claim_support"}
    for block in data["results"].values():
        assert block["n-samples"] == 4
        assert "surface_issue" in block and "overall_without_factuality" in block
        assert sum(group["n-samples"] for group in block["groups"].values()) == 4
    assert data["results"]["bal"]["language_not_judged"] == 4
    records = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    assert all(r["outputs"]["finish_reason"] in ("stop", "length") for r in records)
    assert all(r["surface"]["language"]["expected"] == "en" for r in records)
    table = (run_dir / "table.md").read_text()
    assert "## Surface issues" in table and "## By language and kind" in table
    # The terminal: one summary with the headline metrics (the full tables are in table.md).
    assert "any issue" in result.stdout and "Surface issues" not in result.stdout


def test_kind_filter_and_its_errors(tiny_model, fixture_datasets, tmp_path):
    result = run_cli(
        "run", "--model", tiny_model, "--task", "calmqa", "--lang", "fj", "-T", "kind=specific", "--limit", "2",
        "--data-dir", fixture_datasets, "--max-new-tokens", "8", "--output", tmp_path, "--no-cache",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    records = (tmp_path / tiny_model.name / "calmqa" / "samples_fj.jsonl").read_text().splitlines()
    assert [json.loads(line)["group"] for line in records] == ["specific", "specific"]

    wrong_task = run_cli("run", "--model", tiny_model, "--task", "veritasqa", "-T", "kind=specific", "--sample")
    assert wrong_task.exit_code == 2 and "veritasqa takes no options (-T kind)" in wrong_task.output
    other_options = run_cli(
        "run", "--model", tiny_model, "--task", "truthfulqa_multi", "-T", "kind=specific", "--sample"
    )  # fmt: skip
    assert other_options.exit_code == 2
    assert "truthfulqa_multi has no option 'kind' (-T kind); valid: answer_format" in other_options.output
    bogus = run_cli("run", "--model", tiny_model, "--task", "calmqa", "-T", "kind=both", "--data-dir", fixture_datasets)
    assert bogus.exit_code == 2 and "'both' is not one of all, specific, agnostic" in bogus.output
    sample = run_cli("run", "--model", tiny_model, "--task", "calmqa", "--sample")
    assert sample.exit_code == 2 and "no embedded sample set" in sample.output


def test_search_options_are_checked_before_any_model_loads(tiny_model, tmp_path, monkeypatch):
    monkeypatch.delenv("NO_SUCH_SEARCH_KEY", raising=False)
    result = run_cli(
        "judge", tmp_path, "--judge", tiny_model, "-J", "search_url=http://127.0.0.1:9/search",
        "-J", "search_api_key_env=NO_SUCH_SEARCH_KEY",
    )  # fmt: skip
    assert result.exit_code == 2 and "NO_SUCH_SEARCH_KEY: that variable is not set" in result.output
    bad_url = run_cli("judge", tmp_path, "--judge", tiny_model, "-J", "search_url=search.example")
    assert bad_url.exit_code == 2 and "must be an http(s) URL" in bad_url.output


def write_answers(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


def test_surface_command_tables_answers_from_anywhere(tmp_path):
    answers = write_answers(
        tmp_path / "answers.jsonl",
        [
            {"id": "a", "lang": "eu", "answer": "Sorry, I don't understand Basque. Could you translate it?"},
            {
                "id": "b",
                "lang": "eu",
                "answer": "Hegazkinak atzetik aurrera betetzen dira, korridorea libre egon dadin.",
            },
            {"id": "c", "lang": "fj", "answer": None},
        ],
    )
    out = tmp_path / "surface.jsonl"
    result = run_cli("surface", answers, "--output", out)
    assert result.exit_code == 0, result.output
    assert "Surface issues" in result.output and "0.500 [" in result.output
    blocks = {r["id"]: r["surface"] for r in map(json.loads, out.read_text().splitlines())}
    assert blocks["a"]["language"]["detected"] == "en" and blocks["a"]["issue"] is True
    assert set(blocks["a"]["markers"]) == {"apology", "refusal", "translation_request", "language_named"}
    assert blocks["b"]["issue"] is False
    assert blocks["c"]["language"]["status"] == "n/a"  # a missing answer is checked as empty, not dropped
    assert "1 empty answer(s)" in result.output


def test_surface_command_reads_nested_fields_and_a_fixed_language(tmp_path):
    answers = write_answers(tmp_path / "samples.jsonl", [{"outputs": {"answer": "Bula vinaka, au lako mai Suva."}}])
    result = run_cli("surface", answers, "--text-field", "outputs.answer", "--lang", "fj")
    assert result.exit_code == 0, result.output
    assert "fj†" in result.output


def test_surface_command_errors_name_the_line(tmp_path):
    answers = write_answers(tmp_path / "a.jsonl", [{"lang": "en", "answer": "ok fine"}, {"lang": "en", "text": "x"}])
    result = run_cli("surface", answers)
    assert result.exit_code == 2 and "a.jsonl:2: no field 'answer'" in result.output
    no_lang = write_answers(tmp_path / "b.jsonl", [{"answer": "text"}])
    result = run_cli("surface", no_lang)
    assert result.exit_code == 2 and "b.jsonl:1: no field 'lang'" in result.output
    (tmp_path / "c.jsonl").write_text("{not json\n")
    assert "c.jsonl:1: invalid JSON" in run_cli("surface", tmp_path / "c.jsonl").output
    assert "no such file" in run_cli("surface", tmp_path / "missing.jsonl").output
