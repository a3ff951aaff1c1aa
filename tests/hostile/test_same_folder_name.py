"""Issue 35, item 6: two different models whose folders have the same name (``a/tiny``,
``b/tiny``) are two models in a report, never one row whose language gap mixes them."""

import json
import shutil

from mlbench.records import RunResult
from mlbench.report.collect import collect, model_labels
from tests.cli.test_cli import run_cli, run_model

RUN = "--task truthfulqa_multi --sample --mode mc --backend hf --no-cache --limit 4"


def test_two_models_of_one_folder_name_are_two_rows(tiny_model, make_tiny_model, tmp_path):
    first = tmp_path / "a" / "tiny"
    shutil.copytree(tiny_model, first)
    other = make_tiny_model(tmp_path / "b" / "tiny", size="tiny", seed=1)
    assert run_model(first, tmp_path / "out1", f"{RUN} --lang en").exit_code == 0
    assert run_model(other, tmp_path / "out2", f"{RUN} --lang es").exit_code == 0

    runs = collect(tmp_path).runs
    assert sorted(run.model for run in runs) == ["a/tiny", "b/tiny"]
    assert [sorted(run.languages) for run in sorted(runs, key=lambda r: r.model)] == [["en"], ["es"]]

    report = run_cli("report", tmp_path, "--format", "json", "--out", tmp_path / "report")
    assert report.exit_code == 0, report.output
    table = json.loads((tmp_path / "report" / "report.json").read_text())["tables"][0]
    rows = {row["model"]: row["cells"] for row in table["rows"]}
    assert set(rows) == {"a/tiny", "b/tiny"}
    # No es−en gap: no model ran both languages.
    assert rows["b/tiny"]["es"]["gap"] is None and rows["b/tiny"]["es"]["gap_note"] == "no en results for this model"


def test_one_model_written_by_two_jobs_is_one_row(tiny_model, tmp_path):
    # A Slurm job per language: the same weights, two folders. Still one model.
    assert run_model(tiny_model, tmp_path / "job1", f"{RUN} --lang en").exit_code == 0
    assert run_model(tiny_model, tmp_path / "job2", f"{RUN} --lang es").exit_code == 0
    (run,) = collect(tmp_path).runs
    assert run.model == "tiny" and sorted(run.languages) == ["en", "es"]


def test_labels_grow_only_where_names_clash():
    def run(model, fingerprint, backend="hf"):
        return RunResult(model, "t", {"model_fingerprint": fingerprint, "backend": backend}, {})

    runs = [run("/x/a/tiny", "1111"), run("/y/b/tiny", "2222"), run("/z/llama", "3333"), run("/x/a/tiny", "4444aaaa9")]
    labels = model_labels(runs)
    assert labels["fingerprint:3333"] == "llama"
    assert labels["fingerprint:2222"] == "b/tiny"
    # The same path holding other weights: told apart by fingerprint.
    assert labels["fingerprint:1111"] == "a/tiny@1111" and labels["fingerprint:4444aaaa9"] == "a/tiny@4444aaaa"
    served = model_labels([run("judge", "5555", "openai"), run("judge", "6666", "openai")])
    assert served == {"name:judge": "judge"}  # a served model is known by its name
