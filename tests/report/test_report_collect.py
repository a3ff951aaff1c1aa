"""Reading runs for the report: languages of separate jobs merged, the newer of two
copies kept, everything from results.json alone, old runs read from their language and
samples files, filters."""

import json
import os

import pytest

from mlbench.errors import MlbenchError
from mlbench.report import build_tables, collect
from mlbench.report.collect import model_label

from .synthetic_runs import LANGS, planted_values, without_per_question_in_results_json, write_run


def test_languages_run_in_separate_jobs_and_folders_are_merged(tmp_path):
    values = planted_values(1, gap_lang="eu")
    write_run(tmp_path / "job1", "org/m", "truthfulqa_multi", {lang: values[lang] for lang in ("en", "es")})
    write_run(tmp_path / "job2", "org/m", "truthfulqa_multi", {lang: values[lang] for lang in ("ca", "gl", "eu")})
    collection = collect(tmp_path)
    assert len(collection.runs) == 1
    run = collection.runs[0]
    assert sorted(run.languages) == sorted(LANGS) and len(run.configs) == 2
    table = {t.metric: t for t in build_tables(collection)}["mc1"]
    assert table.langs == list(LANGS)
    assert table.gap("org/m", "eu").significant  # paired across the two folders


def test_the_newer_copy_of_a_language_is_used_and_said(tmp_path):
    old = planted_values(1, gap_lang=None)
    new = planted_values(1, gap_lang="eu")
    first = write_run(tmp_path / "a", "org/m", "truthfulqa_multi", {"en": old["en"], "eu": old["eu"]})
    write_run(tmp_path / "b", "org/m", "truthfulqa_multi", {"eu": new["eu"]})
    os.utime(first / "results_eu.json", (1, 1))  # job a wrote its Basque long ago
    collection = collect(tmp_path)
    entry = collection.runs[0].languages["eu"]
    assert entry.run_dir == tmp_path / "b" / "org__m" / "truthfulqa_multi"
    assert entry.values.mapping("mc1") == new["eu"]["mc1"]
    assert any("the newer" in note and "eu" in note for note in collection.notes)


def test_per_question_values_round_trip_through_results_files(two_models):
    run_dir = two_models / "org__gap-model" / "truthfulqa_multi"
    results = json.loads((run_dir / "results.json").read_text())
    block = results["per_question"]["eu"]
    assert len(block["ids"]) == 200 and set(block["values"]) == {"mc1", "mc2", "bleu_max"}
    assert "per_question" not in results["results"]["eu"]  # beside the summary, not in it
    # One line per language: thousands of numbers only programs read.
    lines = (run_dir / "results.json").read_text().splitlines()
    assert len([line for line in lines if line.startswith('    "eu": {"ids"')]) == 1
    # results_<lang>.json keeps the same values, for the jobs that merge languages.
    assert json.loads((run_dir / "results_eu.json").read_text())["per_question"] == block
    entry = {r.model: r for r in collect(two_models).runs}["org/gap-model"].languages["eu"]
    assert entry.values.mapping("mc2") == planted_values(1, gap_lang="eu")["eu"]["mc2"]


def test_a_folder_holding_only_results_json_gives_the_same_report(tmp_path):
    values = planted_values(1, gap_lang="eu")
    run_dir = write_run(tmp_path, "org/m", "truthfulqa_multi", values, samples=True)
    fresh = build_tables(collect(tmp_path))
    for path in run_dir.iterdir():
        if path.name != "results.json":
            path.unlink()
    alone = build_tables(collect(tmp_path))
    assert [(t.metric, t.langs, t.rows) for t in alone] == [(t.metric, t.langs, t.rows) for t in fresh]
    assert all(t.gap("org/m", "eu") is not None for t in alone if t.per_question)


def test_runs_whose_results_json_lacks_them_read_the_language_files(tmp_path):
    values = planted_values(1, gap_lang="eu")
    run_dir = write_run(tmp_path, "org/m", "truthfulqa_multi", values)
    fresh = build_tables(collect(tmp_path))
    without_per_question_in_results_json(run_dir)
    assert collect(tmp_path).runs[0].languages["eu"].values.mapping("mc1") == values["eu"]["mc1"]
    old = build_tables(collect(tmp_path))
    assert [(t.metric, t.gap("org/m", "eu")) for t in old] == [(t.metric, t.gap("org/m", "eu")) for t in fresh]


def test_runs_without_per_question_values_are_read_from_their_samples(tmp_path):
    values = planted_values(1, gap_lang="eu")
    run_dir = write_run(tmp_path, "org/m", "truthfulqa_multi", values, samples=True)
    fresh = build_tables(collect(tmp_path))
    without_per_question_in_results_json(run_dir)
    for lang in LANGS:  # as an older version wrote them
        path = run_dir / f"results_{lang}.json"
        payload = json.loads(path.read_text())
        del payload["per_question"]
        path.write_text(json.dumps(payload))
    entry = collect(tmp_path).runs[0].languages["eu"]
    assert entry.values.mapping("mc1") == values["eu"]["mc1"]
    old = build_tables(collect(tmp_path))
    assert [(t.metric, t.gap("org/m", "eu")) for t in old] == [(t.metric, t.gap("org/m", "eu")) for t in fresh]


def test_samples_of_other_settings_are_not_mixed_in(tmp_path):
    values = planted_values(1, gap_lang=None)
    run_dir = write_run(tmp_path, "org/m", "truthfulqa_multi", {"en": values["en"]}, samples=True)
    without_per_question_in_results_json(run_dir)
    path = run_dir / "results_en.json"
    payload = json.loads(path.read_text())
    del payload["per_question"]
    path.write_text(json.dumps(payload))
    with (run_dir / "samples_en.jsonl").open("a") as handle:
        handle.write(json.dumps({"id": "stale", "config_hash": "older", "metrics": {"mc1": 1.0}}) + "\n")
        handle.write('{"id": "cut off mid-wri')  # a job still writing
    assert "stale" not in collect(tmp_path).runs[0].languages["en"].values.mapping("mc1")


def test_filters_and_their_errors(two_models):
    assert [r.model for r in collect(two_models, models=["org/flat-model"]).runs] == ["org/flat-model"]
    with pytest.raises(MlbenchError, match="no run under .* matches calmqa; found org/flat-model · truthfulqa_multi"):
        collect(two_models, tasks=["calmqa"])
    empty = two_models.parent / "empty"
    empty.mkdir()
    with pytest.raises(MlbenchError, match="no results.json"):
        collect(empty)
    with pytest.raises(MlbenchError, match="no such results folder"):
        collect(two_models.parent / "missing")


def test_a_pooled_metric_gets_a_table_without_gaps(tmp_path):
    from mlbench.results import run_from_json

    values = planted_values(1, gap_lang=None)
    run_dir = write_run(tmp_path, "m", "xlinghealth", {lang: {"mc1": values[lang]["mc1"]} for lang in ("en", "es")})
    # A metric with no per-question values (like macro F1), added as the task's pooled one.
    data = json.loads((run_dir / "results.json").read_text())
    for lang in ("en", "es"):
        data["results"][lang]["verify_f1@0"] = {"value": 0.5, "ci_low": 0.4, "ci_high": 0.6, "stderr": 0.05}
    (run_dir / "results.json").write_text(json.dumps(data))
    assert run_from_json(data).languages["es"].metrics["verify_f1@0"].value == 0.5
    tables = {t.metric: t for t in build_tables(collect(tmp_path))}
    pooled = tables["verify_f1@0"]
    assert not pooled.per_question and pooled.gap("m", "es") is None
    assert pooled.cell("m", "es").n == 200
    assert pooled.headline and not tables["mc1"].headline  # verify_f1 is an xlinghealth headline


def test_model_labels():
    assert model_label("meta-llama/Llama-3.1-8B") == "meta-llama/Llama-3.1-8B"
    assert model_label("/scratch/ckpt/llama-eu") == "llama-eu"
    assert model_label("./tiny") == "tiny"
