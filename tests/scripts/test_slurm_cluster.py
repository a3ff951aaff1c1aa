"""The sbatch scripts submitted to a real single-node Slurm (tests/scripts/slurm_cluster.py),
as a user's cluster runs them: Slurm parses their ``#SBATCH`` lines, runs the array, holds
the judge stage until the array succeeded, requeues, signals before the time limit and
cancels. Each test checks what the researcher gets: every question once, results.json
merged, the judge's verdicts, the stop line and the exit status. The GPU and memory requests
are overridden on the command line, as on a CPU partition."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from tests.scripts.slurm_cluster import ON_A_CPU_PARTITION, Slurm

pytestmark = pytest.mark.xdist_group("slurm")

SLURM_SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "slurm"
SLOWED = Path(__file__).resolve().parent / "slowed_mlbench.py"
MLBENCH = f"{sys.executable} -m mlbench"
# The tiny model on the embedded sample set, one sample a batch.
RUN = "--sample --chunk-size 1 --no-cache --backend hf"
# How each script's node shape becomes the test node's (a GPU node's, for big_model).
NODE_SHAPE = {
    "array.sbatch": ON_A_CPU_PARTITION,
    "judge.sbatch": ON_A_CPU_PARTITION,
    "report.sbatch": ("--mem=1G", "--cpus-per-task=1"),
    "big_model.sbatch": ("--gpus-per-node=0", "--cpus-per-task=1", "--mem=1G"),
}


def question_ids(task: str, lang: str) -> list[str]:
    loaded = get_task(task).load(lang, TaskOptions(DataSource("sample")))
    return [sample.id for sample in loaded.samples]


def answered(out: Path, model: Path, task: str, lang: str) -> list[str]:
    lines = (out / model.name / task / f"samples_{lang}.jsonl").read_text().splitlines()
    return [json.loads(line)["id"] for line in lines]


def results(out: Path, model: Path, task: str) -> dict:
    return json.loads((out / model.name / task / "results.json").read_text())


def wait_for_first_sample(slurm: Slurm, job: str, samples: Path) -> None:
    """Back once a sample is on disk (mlbench is mid-run, its signal handling set)."""
    deadline = time.monotonic() + 300
    while not (samples.exists() and samples.read_text().count("\n") >= 1):
        state = slurm.job(job)["JobState"]
        assert state in {"PENDING", "RUNNING"}, f"job {job} is {state} before its first sample"
        assert time.monotonic() < deadline, f"no sample from job {job} after 300 s"
        time.sleep(0.3)


@pytest.fixture
def workdir(tmp_path):
    """The submit folder: the scripts log to logs/ under it."""
    (tmp_path / "logs").mkdir()
    return tmp_path


def submit_array(slurm: Slurm, workdir: Path, model: Path, pairs: str, run: str, *sbatch: str, **env: str) -> str:
    (workdir / "jobs.txt").write_text(pairs)
    count = len([line for line in pairs.splitlines() if line.strip() and not line.startswith("#")])
    settings = {"MODEL": str(model), "LIST": "jobs.txt", "OUT": "out", "MLBENCH": MLBENCH, "EXTRA_ARGS": run, **env}
    return slurm.sbatch(f"--array=1-{count}", *ON_A_CPU_PARTITION, *sbatch, str(SLURM_SCRIPTS / "array.sbatch"),
                        cwd=workdir, env=settings)  # fmt: skip


def log_of(workdir: Path, job: str) -> str:
    return "\n".join(path.read_text() for path in sorted((workdir / "logs").glob(f"*{job}*")))


@pytest.mark.parametrize("script", sorted(NODE_SHAPE))
def test_sbatch_accepts_every_line_of_the_script(slurm, workdir, script):
    """``--test-only``: Slurm parses the script's #SBATCH lines and finds a place for the
    job, submitting nothing."""
    shown = slurm.command("sbatch", "--test-only", *NODE_SHAPE[script], str(SLURM_SCRIPTS / script),
                          cwd=workdir, check=False)  # fmt: skip
    assert shown.returncode == 0 and "to start at" in shown.stderr, shown.stderr


@pytest.mark.parametrize(
    ("line", "broken"),
    [("#SBATCH --signal=B:USR1@120", "#SBATCH --signal=B:USR1@two-minutes"),
     ("#SBATCH --time=04:00:00", "#SBATCH --time=four-hours"),
     ("#SBATCH --requeue", "#SBATCH --requeue-on-preempt")],
)  # fmt: skip
def test_a_broken_sbatch_line_is_refused(slurm, workdir, line, broken):
    text = (SLURM_SCRIPTS / "array.sbatch").read_text()
    assert line in text
    script = workdir / "array.sbatch"
    script.write_text(text.replace(line, broken))
    refused = slurm.command("sbatch", "--test-only", *ON_A_CPU_PARTITION, str(script), cwd=workdir, check=False)
    assert refused.returncode != 0 and refused.stderr.startswith("sbatch: "), refused.stderr


def test_array_runs_each_pair_once_and_the_judge_waits_for_it(slurm, workdir, tiny_model):
    """Three (task, language) pairs as an array, answers generated; the judge stage chained
    with --dependency=afterok judges every run under OUT and reports."""
    pairs = "# TASK LANG\nveritasqa en\n\nveritasqa es\ntruthfulqa_multi en\n"
    array = submit_array(slurm, workdir, tiny_model, pairs, f"{RUN} --mode gen --limit 3")
    judging = f"--judge {tiny_model} -J kind=truth -J backend=hf --no-cache"
    judge = slurm.sbatch(
        f"--dependency=afterok:{array}", *ON_A_CPU_PARTITION, str(SLURM_SCRIPTS / "judge.sbatch"), cwd=workdir,
        env={"OUT": "out", "MLBENCH": MLBENCH, "JUDGE_ARGS": judging},
    )  # fmt: skip
    tasks = slurm.wait(array)
    assert len(tasks) == 3 and {t["JobState"] for t in tasks} == {"COMPLETED"}, log_of(workdir, array)
    for task in tasks:  # the script's own #SBATCH lines, as Slurm read them
        assert (task["JobName"], task["Requeue"], task["TimeLimit"]) == ("mlbench", "1", "04:00:00")
        assert task["StdOut"] == str(workdir / "logs" / f"mlbench-{array}_{task['ArrayTaskId']}.out")
    (judged,) = slurm.wait(judge)
    assert judged["JobState"] == "COMPLETED" and judged["ExitCode"] == "0:0", log_of(workdir, judge)
    assert judged["StartTime"] >= max(t["EndTime"] for t in tasks)  # ISO times sort as text
    assert (judged["JobName"], judged["Requeue"]) == ("mlbench-judge", "1")

    out = workdir / "out"
    for task, lang in [("veritasqa", "en"), ("veritasqa", "es"), ("truthfulqa_multi", "en")]:
        ids = answered(out, tiny_model, task, lang)
        assert len(ids) == len(set(ids)) == 3
    assert sorted(results(out, tiny_model, "veritasqa")["results"]) == ["en", "es"]  # merged from two jobs
    for task in ("veritasqa", "truthfulqa_multi"):
        for metrics in results(out, tiny_model, task)["results"].values():
            assert "truthful" in metrics  # the judge's verdicts
    log = log_of(workdir, judge)
    assert "mlbench-judge: job" in log and "veritasqa · tiny" in log  # the report's table


def test_a_failed_array_job_holds_the_judge_back(slurm, workdir, tiny_model):
    array = submit_array(slurm, workdir, tiny_model / "missing", "veritasqa en\n", RUN)
    judge = slurm.sbatch(f"--dependency=afterok:{array}", "--kill-on-invalid-dep=yes", *ON_A_CPU_PARTITION,
                         str(SLURM_SCRIPTS / "judge.sbatch"), cwd=workdir, env={"MLBENCH": MLBENCH})  # fmt: skip
    (failed,) = slurm.wait(array)
    assert failed["JobState"] == "FAILED" and failed["ExitCode"] == "2:0"
    assert "model path not found" in log_of(workdir, array)
    (held,) = slurm.wait(judge)
    assert held["JobState"] == "CANCELLED" and held["Reason"] == "DependencyNeverSatisfied"
    assert not log_of(workdir, judge)


def test_a_requeued_job_resumes_with_every_question_once(slurm, workdir, tiny_model):
    array = submit_array(slurm, workdir, tiny_model, "veritasqa en\n", f"{RUN} --mode mc",
                         MLBENCH=f"{sys.executable} {SLOWED}", MLBENCH_TEST_PAUSE="1")  # fmt: skip
    job, samples = f"{array}_1", workdir / "out" / tiny_model.name / "veritasqa" / "samples_en.jsonl"
    wait_for_first_sample(slurm, job, samples)
    slurm.command("scontrol", "requeue", job)
    # Slurm holds a requeued job back two minutes (its begin time); an operator's release:
    slurm.wait(job, until={"PENDING"}, timeout=120)
    slurm.command("scontrol", "update", f"JobId={job}", "StartTime=now")
    (done,) = slurm.wait(job)
    log = log_of(workdir, array)
    assert done["JobState"] == "COMPLETED" and done["Restarts"] == "1", log
    assert "stopped by SIGTERM; what finished is saved" in log and "--resume" in log
    assert log.count("mlbench-array: job") == 2  # both runs in one log (--open-mode=append)
    ids = answered(workdir / "out", tiny_model, "veritasqa", "en")
    assert sorted(ids) == sorted(question_ids("veritasqa", "en"))
    assert results(workdir / "out", tiny_model, "veritasqa")["results"]["en"]["n-samples"] == len(ids)


def test_the_time_limit_signal_stops_the_job_and_a_resubmit_completes_it(slurm, workdir, tiny_model):
    """The script's --signal=B:USR1@120: with the limit cut to two minutes mid-run, Slurm
    sends SIGUSR1 at its next check; mlbench stops, saves, exits 138; submitted again, the
    job does only what is left."""
    # 4 s a sample: the signal comes at Slurm's next check, up to 30 s after the cut, and
    # the run must still be going then (the run after it is not slowed).
    slowed = {"MLBENCH": f"{sys.executable} {SLOWED}", "MLBENCH_TEST_PAUSE": "4"}
    array = submit_array(slurm, workdir, tiny_model, "veritasqa es\n", f"{RUN} --mode mc", "--time=30", **slowed)
    job, samples = f"{array}_1", workdir / "out" / tiny_model.name / "veritasqa" / "samples_es.jsonl"
    wait_for_first_sample(slurm, job, samples)
    slurm.command("scontrol", "update", f"JobId={job}", "TimeLimit=2")
    (stopped,) = slurm.wait(job, timeout=120)
    log = log_of(workdir, array)
    assert stopped["JobState"] == "FAILED" and stopped["ExitCode"] == "138:0", log
    assert "mlbench: stopped by SIGUSR1; what finished is saved" in log
    kept = answered(workdir / "out", tiny_model, "veritasqa", "es")
    assert 0 < len(kept) < len(question_ids("veritasqa", "es"))

    again = submit_array(slurm, workdir, tiny_model, "veritasqa es\n", f"{RUN} --mode mc")
    (done,) = slurm.wait(again)
    assert done["JobState"] == "COMPLETED", log_of(workdir, again)
    ids = answered(workdir / "out", tiny_model, "veritasqa", "es")
    assert ids[: len(kept)] == kept and sorted(ids) == sorted(question_ids("veritasqa", "es"))


def test_scancel_stops_the_job_with_what_finished_saved_and_no_requeue(slurm, workdir, tiny_model):
    array = submit_array(slurm, workdir, tiny_model, "veritasqa ca\n", f"{RUN} --mode mc",
                         MLBENCH=f"{sys.executable} {SLOWED}", MLBENCH_TEST_PAUSE="1")  # fmt: skip
    job, samples = f"{array}_1", workdir / "out" / tiny_model.name / "veritasqa" / "samples_ca.jsonl"
    wait_for_first_sample(slurm, job, samples)
    slurm.command("scancel", job)
    (cancelled,) = slurm.wait(job, timeout=60)
    log = log_of(workdir, array)
    assert cancelled["JobState"] == "CANCELLED" and cancelled["Restarts"] == "0", log
    assert "mlbench: stopped by SIGTERM; what finished is saved" in log
    ids = answered(workdir / "out", tiny_model, "veritasqa", "ca")
    assert 0 < len(ids) == len(set(ids)) < len(question_ids("veritasqa", "ca"))
    assert not (samples.parent / "results_ca.json").exists()


def test_the_node_has_no_gpu_so_the_scripts_own_request_is_refused(slurm, workdir):
    """The overrides above are needed: this is not a GPU node, and Slurm says so."""
    refused = slurm.command("sbatch", "--test-only", str(SLURM_SCRIPTS / "array.sbatch"), cwd=workdir, check=False)
    assert refused.returncode != 0 and "gres" in refused.stderr.lower(), refused.stderr
