"""scripts/slurm/submit.sh: the pairs from mlbench's listing, then the array, the judge
stage and the report, each after the one before; the whole pipeline on the real
single-node Slurm (tests/scripts/slurm_cluster.py) with the tiny model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripts.slurm_cluster import ON_A_CPU_PARTITION

SUBMIT = Path(__file__).resolve().parents[2] / "scripts" / "slurm" / "submit.sh"
MLBENCH = f"{sys.executable} -m mlbench"


def submit(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SUBMIT), *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MLBENCH": MLBENCH, **(env or {})})  # fmt: skip


def job_ids(stdout: str) -> dict[str, str]:
    return dict(field.split("=") for field in stdout.strip().splitlines()[-1].split())


def test_dry_run_names_the_pairs_and_the_stages_and_submits_nothing(tmp_path):
    shown = submit("--model", "org/m", "--task", "truthfulqa_multi,veritasqa", "--lang", "en,eu",
                   "--run-args", "--mode gen", "--judge-args", "--judge org/j -J kind=truth",
                   "--sbatch", "--account=lab", "--report-sbatch", "--partition=cpu", "--max-running", "2",
                   "--dry-run", cwd=tmp_path)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert "submit: veritasqa has no eu: not submitted" in lines
    assert "submit: 3 pairs, to be written to logs/mlbench-pairs-XXXXXX.txt:" in lines
    assert ["  truthfulqa_multi en", "  truthfulqa_multi eu", "  veritasqa en"] == [
        line for line in lines if line.startswith("  ")
    ]
    array, judge, report = (line for line in lines if line.startswith("submit: would run:"))
    assert "MODEL=org/m" in array and "EXTRA_ARGS=--mode\\ gen" in array
    # The user's options first, the pipeline's own last (for sbatch the last one wins).
    assert array.endswith("sbatch --export=ALL --account=lab --array=1-3%2 " + str(SUBMIT.parent / "array.sbatch"))
    assert "REPORT=0" in judge and "--account=lab --dependency=afterok:<array> --kill-on-invalid-dep=yes" in judge
    assert "--account=lab --partition=cpu --dependency=afterok:<judge>" in report
    assert f"OUT={tmp_path}/results" in array  # absolute: the jobs find it wherever they start
    assert job_ids(shown.stdout) == {"array": "<array>", "judge": "<judge>", "report": "<report>"}
    assert not (tmp_path / "logs").exists()


def test_a_pair_asked_for_twice_is_run_once(tmp_path):
    shown = submit("--model", "m", "--task", "veritasqa,veritasqa", "--lang", "en,es,en", "--dry-run", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert [line for line in shown.stdout.splitlines() if line.startswith("  ")] == ["  veritasqa en", "  veritasqa es"]


def test_without_a_judge_the_report_follows_the_array(tmp_path):
    shown = submit("--model", "m", "--task", "veritasqa", "--dry-run", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "submit: 4 pairs" in shown.stdout  # --lang all: VeritasQA's four
    assert job_ids(shown.stdout) == {"array": "<array>", "report": "<report>"}
    assert "--dependency=afterok:<array>" in shown.stdout.splitlines()[-3]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--task", "veritasqa"], "submit: --model is required"),
     (["--model", "m"], "submit: --task is required"),
     (["--model", "m", "--task", "veritasqa", "--lang", "eu"], "no benchmark of veritasqa has language 'eu'"),
     (["--model", "m", "--task", "veritasq"], "unknown task 'veritasq' (did you mean veritasqa?)"),
     (["--model", "m", "--task", "veritasqa", "--max-running", "0"], "--max-running takes a whole number above 0"),
     (["--model", "m", "--task", "veritasqa", "--lagn", "en"], "submit: unknown option '--lagn'"),
     (["--model"], "submit: --model needs a value")],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    refused = submit("--dry-run", *args, cwd=tmp_path)
    assert refused.returncode == 2 and message in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr


@pytest.mark.xdist_group("slurm")
def test_the_whole_pipeline_on_a_real_slurm(slurm, tmp_path, tiny_model):
    done = submit(
        "--model", str(tiny_model), "--task", "truthfulqa_multi,veritasqa", "--lang", "en,eu", "--output", "out",
        "--run-args", "--sample --limit 2 --mode gen --no-cache --backend hf",
        "--judge-args", f"--judge {tiny_model} -J kind=truth -J backend=hf --no-cache",
        "--sbatch", " ".join(ON_A_CPU_PARTITION), cwd=tmp_path,
        env={**slurm.env, "SBATCH_EXPORT": "NONE"},  # a site whose jobs get no environment by default
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ids = job_ids(done.stdout)
    assert list(ids) == ["array", "judge", "report"]
    assert f"submit: array job {ids['array']}" in done.stdout
    (pairs,) = (tmp_path / "logs").glob("mlbench-pairs-*.txt")
    assert pairs.read_text() == "truthfulqa_multi en\ntruthfulqa_multi eu\nveritasqa en\n"

    (report,) = slurm.wait(ids["report"], timeout=400)
    array, judge = slurm.jobs(ids["array"]), slurm.job(ids["judge"])
    assert [j["JobState"] for j in array] == ["COMPLETED"] * 3
    assert judge["Dependency"] == "(null)" and judge["JobState"] == "COMPLETED"
    assert report["JobState"] == "COMPLETED", slurm.logs()
    assert report["StartTime"] >= judge["EndTime"] >= max(j["EndTime"] for j in array)

    out = tmp_path / "out" / tiny_model.name
    langs = {task: json.loads((out / task / "results.json").read_text())["results"]
             for task in ("truthfulqa_multi", "veritasqa")}  # fmt: skip
    assert sorted(langs["truthfulqa_multi"]) == ["en", "eu"] and sorted(langs["veritasqa"]) == ["en"]
    assert all("truthful" in metrics for results in langs.values() for metrics in results.values())
    written = json.loads((tmp_path / "out" / "report" / "report.json").read_text())
    assert [(run["task"], run["languages"]) for run in written["runs"]] == [
        ("truthfulqa_multi", ["en", "eu"]), ("veritasqa", ["en"])]  # fmt: skip
    assert "truthful" in {table["metric"] for table in written["tables"]}
    text = (tmp_path / "out" / "report" / "report.md").read_text()
    assert "truthfulqa_multi" in text and "veritasqa" in text and "truthful" in text
    # The judge left the report to its stage: its log ends with the judging.
    judge_log = (tmp_path / "logs" / f"mlbench-judge-{ids['judge']}.out").read_text()
    assert "mlbench-judge: job" in judge_log and "veritasqa · tiny" not in judge_log


@pytest.mark.xdist_group("slurm")
def test_a_stage_sbatch_refuses_cancels_the_stages_before_it(slurm, tmp_path, tiny_model):
    """More memory than the node has: sbatch refuses the judge, and the array, which would
    run for nothing (and refuse a second submission's jobs), is cancelled."""
    refused = submit(
        "--model", str(tiny_model), "--task", "veritasqa", "--lang", "en", "--run-args", "--sample --limit 1",
        "--judge-args", "--judge x", "--sbatch", " ".join(ON_A_CPU_PARTITION), "--judge-sbatch", "--mem=100G",
        cwd=tmp_path, env=slurm.env,
    )  # fmt: skip
    assert refused.returncode == 1
    (array,) = [line.split()[-1] for line in refused.stdout.splitlines() if line.startswith("submit: array job ")]
    assert f"sbatch did not submit the judge stage, so the jobs before it were cancelled ({array})" in refused.stderr
    (cancelled,) = slurm.wait(array, timeout=60)
    assert cancelled["JobState"] == "CANCELLED"
