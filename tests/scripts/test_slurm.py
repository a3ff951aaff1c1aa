"""The sbatch templates, run as plain bash scripts with the Slurm variables set by hand."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SLURM = Path(__file__).resolve().parents[2] / "scripts" / "slurm"
MLBENCH = f"{sys.executable} -m mlbench"


def sbatch(script: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(SLURM / script)], env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def jobs(tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text("# TASK LANG\nveritasqa en\n\nveritasqa es\n")
    return path


def test_array_index_runs_its_pair_and_says_what_it_runs(tiny_model, jobs, tmp_path):
    out = tmp_path / "out"
    done = sbatch(
        "array.sbatch", MODEL=str(tiny_model), LIST=str(jobs), OUT=str(out), SLURM_ARRAY_TASK_ID="2",
        MLBENCH=MLBENCH, EXTRA_ARGS="--sample --limit 2 --mode mc --no-cache --backend hf",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "--task veritasqa --lang es" in done.stdout and "--resume" in done.stdout
    results = json.loads((out / tiny_model.name / "veritasqa" / "results.json").read_text())
    assert list(results["results"]) == ["es"]


def test_array_job_exits_non_zero_when_mlbench_does(jobs, tmp_path):
    failed = sbatch(
        "array.sbatch", MODEL=str(tmp_path / "missing"), LIST=str(jobs), SLURM_ARRAY_TASK_ID="1", MLBENCH=MLBENCH,
        OUT=str(tmp_path / "out"), EXTRA_ARGS="--sample",
    )  # fmt: skip
    assert failed.returncode == 2 and "model path not found" in failed.stderr


def test_array_index_past_the_list(jobs):
    failed = sbatch("array.sbatch", MODEL="m", LIST=str(jobs), SLURM_ARRAY_TASK_ID="3", MLBENCH="true")
    assert failed.returncode == 2 and "line 3" in failed.stderr


def test_judge_stage_propagates_failure(tmp_path):
    failed = sbatch("judge.sbatch", OUT=str(tmp_path), MLBENCH="false")
    assert failed.returncode != 0 and "mlbench-judge: false judge" in failed.stdout


def test_big_model_uses_every_gpu_of_the_node_for_tensor_parallelism():
    done = sbatch("big_model.sbatch", MODEL="org/big", SLURM_JOB_NUM_NODES="1", SLURM_GPUS_ON_NODE="8", MLBENCH="echo")
    assert done.returncode == 0, done.stderr
    assert "run --model org/big --task truthfulqa_multi,veritasqa --lang all" in done.stdout
    assert "--backend vllm -M tensor_parallel_size=8" in done.stdout and "pipeline_parallel_size" not in done.stdout


def test_example_job_list_names_real_tasks_and_languages():
    from mlbench.benchmarks import get_task

    lines = [line.split() for line in (SLURM / "jobs.example.txt").read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == 9
    for task, lang in lines:
        assert lang in get_task(task).languages


def test_judge_stage_judges_every_run_under_out_then_reports(tiny_model, tmp_path):
    out, jobs = tmp_path / "out", tmp_path / "jobs.txt"
    jobs.write_text("veritasqa en\n")
    ran = sbatch(
        "array.sbatch", MODEL=str(tiny_model), LIST=str(jobs), OUT=str(out), SLURM_ARRAY_TASK_ID="1",
        MLBENCH=MLBENCH, EXTRA_ARGS="--sample --limit 2 --mode gen --no-cache --backend hf",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    judged = sbatch(
        "judge.sbatch", OUT=str(out), MLBENCH=MLBENCH,
        JUDGE_ARGS=f"--judge {tiny_model} -J kind=truth -J backend=hf --no-cache",
    )  # fmt: skip
    assert judged.returncode == 0, judged.stderr
    assert "--resume" in judged.stdout and "veritasqa · tiny" in judged.stdout  # the report's table
    results = json.loads((out / tiny_model.name / "veritasqa" / "results.json").read_text())
    assert "truthful" in results["results"]["en"]
