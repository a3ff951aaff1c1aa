"""Issue 35, item 1: a run resumed with a smaller --limit, then judged. Judging (and the
cross-language tests) must read the samples the run's settings selected, not every line
the samples file holds from the larger run before."""

import json

from tests.cli.test_cli import run_cli, run_model

RUN = "--task truthfulqa_multi --lang en --sample --mode gen --backend hf --no-cache"


def _results(run_dir):
    return json.loads((run_dir / "results.json").read_text())


def test_judging_a_resumed_smaller_run_keeps_its_samples(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, f"{RUN} --limit 5").exit_code == 0
    resumed = run_model(tiny_model, tmp_path, f"{RUN} --limit 2 --resume")
    assert resumed.exit_code == 0, resumed.output
    run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
    before = _results(run_dir)["results"]["en"]
    assert before["n-samples"] == 2 and len((run_dir / "samples_en.jsonl").read_text().splitlines()) == 5

    judged = run_cli("judge", run_dir, "--judge", tiny_model, "-J", "kind=info", "-J", "backend=hf", "--no-cache")
    assert judged.exit_code == 0, judged.output
    after = _results(run_dir)["results"]["en"]
    assert after["n-samples"] == 2
    assert after["bleu_max"] == before["bleu_max"]
    lines = [json.loads(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    selected = json.loads((run_dir / "results_en.json").read_text())["sample_ids"]
    assert len(selected) == 2
    # Only the run's two samples were judged; the three left from the larger run were not.
    assert sorted(r["id"] for r in lines if "info" in r.get("judges", {})) == sorted(selected)


def test_a_samples_file_missing_a_selected_sample_is_one_line(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, f"{RUN} --limit 2").exit_code == 0
    run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
    path = run_dir / "samples_en.jsonl"
    path.write_text(path.read_text().splitlines()[0] + "\n")
    judged = run_cli("judge", run_dir, "--judge", tiny_model, "-J", "kind=info", "-J", "backend=hf", "--no-cache")
    assert judged.exit_code != 0
    assert "lacks 1 of the samples its result is of" in judged.output and "Traceback" not in judged.output


def test_a_resumed_run_counts_only_the_texts_left(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, f"{RUN} --limit 2").exit_code == 0
    resumed = run_model(tiny_model, tmp_path, f"{RUN} --limit 5 --resume")
    assert resumed.exit_code == 0, resumed.output
    assert "this run generates 3 texts" in resumed.output
