"""The sbatch scripts' own logic, run as plain bash with the Slurm variables set by hand: what
no single-node Slurm can show (a multi-GPU node) and the failures before mlbench starts.
What Slurm itself does with them is tested on a real one (test_slurm_cluster.py)."""

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


def test_judge_stage_reports_unless_a_report_stage_of_its_own_follows(tmp_path):
    reported = sbatch("judge.sbatch", OUT=str(tmp_path), MLBENCH="echo", JUDGE_ARGS="--judge j")
    assert reported.returncode == 0 and reported.stdout.splitlines()[-1] == f"report {tmp_path}"
    left = sbatch("judge.sbatch", OUT=str(tmp_path), MLBENCH="echo", JUDGE_ARGS="--judge j", REPORT="0")
    assert left.returncode == 0 and left.stdout.splitlines()[-1] == f"judge {tmp_path} --resume --judge j"


def test_report_stage_writes_every_format_under_out(tmp_path):
    done = sbatch("report.sbatch", OUT=str(tmp_path), MLBENCH="echo", REPORT_ARGS="--by scope")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == f"report {tmp_path} --output {tmp_path}/report --by scope"


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
