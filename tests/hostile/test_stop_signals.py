"""Issue 32: SIGTERM was silent. Slurm's ``scancel``, a preemption and a job's time limit
send SIGTERM (``sbatch --signal=B:USR1@120`` sends SIGUSR1 before the limit); mlbench died
with 143 and no word. Now both stop it as Ctrl-C does: what finished stays on disk (every
finished language's results too), one line names the command to continue with --resume,
the exit code is 128 + the signal, and the continued run equals an uninterrupted one.

Each run here is the real command in a subprocess, on the tiny model and the fixture data,
generating 8 tokens per answer one sample at a time: slow enough that the signal, sent as
soon as a language's first sample is on disk, lands mid-run."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO

TASK = "truthfulqa_multi"
LANGS = ("en", "es", "ca")
# Every run's settings but the languages, the data folder and the output.
SETTINGS = ["--task", TASK, "--max-new-tokens", "8", "--limit", "8", "--chunk-size", "1", "--no-cache"]
ARRAY_SCRIPT = REPO / "scripts" / "slurm" / "array.sbatch"

# The command, with a backend whose close() leaves a thread that the interpreter waits for
# at exit (as an engine's shutdown can): a stop that takes ``pause`` seconds after the
# command has ended, in which a second signal arrives.
SLOW_STOP = """
import sys, threading, time
from mlbench.backends.hf import HFBackend

pause = float(sys.argv.pop(1))

def finish():
    time.sleep(pause)
    print("closed", flush=True)

def close(self):
    print("closing", flush=True)
    threading.Thread(target=finish).start()

HFBackend.close = close
sys.argv[0] = "mlbench"
from mlbench.cli.main import main
main()
"""


def run_args(model: Path, data: Path, out: Path) -> list[str]:
    return ["run", "--model", str(model), "--lang", ",".join(LANGS), "--data-dir", str(data), "--output", str(out),
            *SETTINGS]  # fmt: skip


def start(command: list[str], **options: object) -> subprocess.Popen:
    """The command as a person starts it at a prompt: Ctrl-C not ignored. A test run
    started in the background by a shell without job control (`make test &`) has SIGINT
    ignored, every child inherits that, and mlbench rightly leaves an ignored signal alone
    (as nohup asks), so the Ctrl-C these tests send would do nothing."""
    options.setdefault("preexec_fn", _ctrl_c_as_at_a_prompt)
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)


def _ctrl_c_as_at_a_prompt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_dir(out: Path, model: Path) -> Path:
    return out / model.name / TASK


def when_sample_written(path: Path, process: subprocess.Popen) -> None:
    """Back once ``path`` holds a finished sample; fails if the run ended first."""
    deadline = time.monotonic() + 600
    while not (path.exists() and path.read_bytes().count(b"\n") >= 1):
        assert process.poll() is None, f"the run ended before {path.name} had a sample: {process.communicate()}"
        assert time.monotonic() < deadline, f"no sample in {path} after 10 minutes"
        time.sleep(0.02)


def stopped_by(process: subprocess.Popen, signum: int) -> tuple[str, str]:
    """Send ``signum`` and wait for the process to end; its stdout and stderr."""
    process.send_signal(signum)
    try:
        return process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


def the_one_line(stderr: str, *fragments: str) -> str:
    """mlbench's one line on stderr (a library's warning may stand beside it), no traceback."""
    assert "Traceback" not in stderr, stderr
    [line] = [line for line in stderr.splitlines() if line.startswith("mlbench")]
    for fragment in fragments:
        assert fragment in line, line
    return line


def samples(out: Path, model: Path, lang: str) -> dict[str, dict]:
    """A language's sample records by id (they hold no timings: whole records compare)."""
    lines = (run_dir(out, model) / f"samples_{lang}.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == len({r["id"] for r in records}), "a sample written twice"
    return {r["id"]: r for r in records}


def results(out: Path, model: Path) -> dict:
    """results.json's per-language blocks (its timings are in "config", left out)."""
    return json.loads((run_dir(out, model) / "results.json").read_text())["results"]


def continue_command(line: str) -> list[str]:
    """The command the line names, run with this interpreter."""
    words = shlex.split(line.split("continue with: ", 1)[1])
    assert words[1:3] == ["-m", "mlbench"], line
    return [sys.executable, *words[1:]]


@pytest.fixture(scope="module")
def uninterrupted(tiny_model, fixture_datasets, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("uninterrupted")
    done = subprocess.run([sys.executable, "-m", "mlbench", *run_args(tiny_model, fixture_datasets, out)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize(("name", "code"), [("SIGTERM", 143), ("SIGUSR1", 138)])
def test_a_run_stopped_by_scancel_or_the_time_limit_warning_continues_with_resume(
    name, code, uninterrupted, tiny_model, fixture_datasets, tmp_path
):
    out = tmp_path / "out"
    process = start([sys.executable, "-m", "mlbench", *run_args(tiny_model, fixture_datasets, out)])
    when_sample_written(run_dir(out, tiny_model) / "samples_es.jsonl", process)
    _, stderr = stopped_by(process, getattr(signal, name))

    assert process.returncode == code, stderr
    line = the_one_line(stderr, f"stopped by {name}", "--resume", f"--output {out}")
    # en had finished: its results stay; es was cut short: its finished samples stay.
    assert set(results(out, tiny_model)) == {"en"}
    assert (run_dir(out, tiny_model) / "results_en.json").exists()
    assert not (run_dir(out, tiny_model) / "results_es.json").exists()
    assert 1 <= len(samples(out, tiny_model, "es")) < 8

    resumed = subprocess.run(continue_command(line), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    for lang in LANGS:
        assert samples(out, tiny_model, lang) == samples(uninterrupted, tiny_model, lang), lang
    assert results(out, tiny_model) == results(uninterrupted, tiny_model)


def test_a_preempted_array_job_requeued_ends_like_an_uninterrupted_one(
    uninterrupted, tiny_model, fixture_datasets, tmp_path
):
    jobs = tmp_path / "jobs.txt"
    jobs.write_text(f"# TASK LANG\n{TASK} ca\n{TASK} es\n")
    out = tmp_path / "out"
    env = {
        **os.environ,
        "SLURM_ARRAY_TASK_ID": "2",
        "LIST": str(jobs),
        "OUT": str(out),
        "MODEL": str(tiny_model),
        "MLBENCH": f"{sys.executable} -m mlbench",
        "EXTRA_ARGS": shlex.join(["--data-dir", str(fixture_datasets), *SETTINGS]),
    }
    job = start(["bash", str(ARRAY_SCRIPT)], env=env, cwd=tmp_path)
    when_sample_written(run_dir(out, tiny_model) / "samples_es.jsonl", job)
    stdout, stderr = stopped_by(job, signal.SIGTERM)  # Slurm's preemption: SIGTERM, later SIGKILL

    assert job.returncode == 143, stderr
    assert "mlbench-array: " in stdout
    the_one_line(stderr, "stopped by SIGTERM", "--resume")
    assert not (run_dir(out, tiny_model) / "results_es.json").exists()

    requeued = subprocess.run(["bash", str(ARRAY_SCRIPT)], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert requeued.returncode == 0, requeued.stderr
    assert samples(out, tiny_model, "es") == samples(uninterrupted, tiny_model, "es")
    assert results(out, tiny_model) == {"es": results(uninterrupted, tiny_model)["es"]}


def says(process: subprocess.Popen, word: str) -> bool:
    """Reads the process's output up to a line ``word``: False if it ended without one."""
    for line in process.stdout:
        if line.strip() == word:
            return True
    return False


def slow_stop(model: Path, data: Path, out: Path, pause: float) -> subprocess.Popen:
    """The run, stopping in ``pause`` seconds once told to; it says "closing" and "closed"."""
    process = start([sys.executable, "-c", SLOW_STOP, str(pause), *run_args(model, data, out)])
    when_sample_written(run_dir(out, model) / "samples_en.jsonl", process)
    return process


def test_ctrl_c_again_while_it_stops_ends_it_at_once_without_a_traceback(tiny_model, fixture_datasets, tmp_path):
    process = slow_stop(tiny_model, fixture_datasets, tmp_path, pause=120)
    process.send_signal(signal.SIGINT)
    assert says(process, "closing"), process.communicate()
    time.sleep(1.5)  # a person pressing again: not the same Ctrl-C delivered twice
    started = time.monotonic()
    stdout, stderr = stopped_by(process, signal.SIGINT)

    assert process.returncode == 130, stderr
    assert time.monotonic() - started < 60  # not the 120 s the stop would have taken
    assert "closed" not in stdout
    the_one_line(stderr, "mlbench: interrupted", "--resume")


def test_one_scancel_delivered_twice_still_stops_in_order(tiny_model, fixture_datasets, tmp_path):
    # Slurm signals every process of the job, and a wrapper script may pass it on again.
    process = slow_stop(tiny_model, fixture_datasets, tmp_path, pause=2)
    process.send_signal(signal.SIGTERM)
    assert says(process, "closing"), process.communicate()
    stdout, stderr = stopped_by(process, signal.SIGTERM)

    assert process.returncode == 143, stderr
    assert "closed" in stdout  # the second one did not cut the stop short
    the_one_line(stderr, "stopped by SIGTERM", "--resume")


# A signal whose handler runs inside a finalizer: here an object's __del__, in a real run a
# thread pool's generator being closed (CI saw the backend left unclosed, 1 run in 25).
# Python cannot raise from a finalizer; the stop must still reach the work and its finally.
# Threads that keep the interpreter busy (as a scoring thread pool does) delay the main
# thread, so that the stop sent again can land while the first is still being reported.
SIGNAL_IN_A_FINALIZER = """
import os, signal, sys, threading, time
from mlbench.cli.signals import command_running, stop_on_signals, stopped

def busy():
    while True:
        sum(range(10000))

for _ in range(int(sys.argv[1])):
    threading.Thread(target=busy, daemon=True).start()

class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler runs in here

stop_on_signals()
try:
    with command_running():
        try:
            Finalized()  # dropped at once: its __del__ runs on this line
            time.sleep(30)
            print("not stopped", flush=True)
        finally:
            print("finally ran", flush=True)
except KeyboardInterrupt as error:
    sys.exit(stopped(error))
"""


@pytest.mark.parametrize("busy_threads", [0, 4])
def test_a_stop_that_lands_in_a_finalizer_still_stops_the_work_in_order(busy_threads):
    for _ in range(5 if busy_threads else 1):  # a race: tried a few times
        started = time.monotonic()
        command = [sys.executable, "-c", SIGNAL_IN_A_FINALIZER, str(busy_threads)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)

        assert done.returncode == 143, done.stderr
        assert done.stdout.splitlines() == ["finally ran"]
        assert time.monotonic() - started < 20  # not the finalizer's 5 s and the work's 30 s
        assert "Exception ignored" not in done.stderr
        the_one_line(done.stderr, "mlbench: stopped by SIGTERM")


# The command has ended and Python is shutting down, joining a thread pool's busy worker
# (as it does when a child process or vLLM keeps mlbench from ending at once): a stop now
# has nothing to stop in order, and must end the process with its code, not exit 0.
SIGNAL_WHILE_SHUTTING_DOWN = """
import os, signal, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from mlbench.cli.signals import command_running, stop_on_signals

stop_on_signals()
with command_running():
    pool = ThreadPoolExecutor(1)
    pool.submit(time.sleep, 10)  # joined at shutdown

def stop():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=stop, daemon=True).start()
print("command done", flush=True)
sys.exit(0)
"""


def test_a_stop_while_python_shuts_down_ends_it_with_the_stop_code():
    started = time.monotonic()
    command = [sys.executable, "-c", SIGNAL_WHILE_SHUTTING_DOWN]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)

    assert done.returncode == 143, (done.stdout, done.stderr)
    assert done.stdout.splitlines() == ["command done"]
    assert time.monotonic() - started < 8  # not the pool's 10 s
    the_one_line(done.stderr, "mlbench: stopped by SIGTERM")


# A stop caught outside mlbench's commands: typer turns a KeyboardInterrupt raised in its
# own code (parsing, closing its context after the command) into exit 130, unannounced.
SIGNAL_TAKEN_BY_TYPER = """
import os, signal, sys, time
import mlbench.cli.main as main

def invoke_app():
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    except KeyboardInterrupt:
        return 130

main._invoke_app = invoke_app
sys.argv = ["mlbench", "backends"]
main.main()
"""


def test_a_stop_that_typer_takes_still_ends_with_its_line_and_code():
    done = subprocess.run([sys.executable, "-c", SIGNAL_TAKEN_BY_TYPER], capture_output=True, text=True, timeout=60)

    assert done.returncode == 143, done.stderr
    the_one_line(done.stderr, "mlbench: stopped by SIGTERM")


# A stand-in for mlbench: its judge writes which signal it got, then stops as mlbench does.
FAKE_MLBENCH = """#!/usr/bin/env bash
if [[ "$1" == judge ]]; then
    trap 'echo USR1 > "$MARK"; exit 138' USR1
    trap 'echo TERM > "$MARK"; exit 143' TERM
    echo started > "$MARK"
    for _ in $(seq 600); do sleep 0.1; done
    exit 0
fi
echo "report ran"
"""


def test_a_judge_job_warned_of_its_time_limit_passes_the_warning_to_the_judge(tmp_path):
    fake, mark = tmp_path / "fake-mlbench", tmp_path / "mark"
    fake.write_text(FAKE_MLBENCH)
    fake.chmod(0o755)
    env = {**os.environ, "MLBENCH": str(fake), "OUT": str(tmp_path), "MARK": str(mark)}
    job = start(["bash", str(REPO / "scripts" / "slurm" / "judge.sbatch")], env=env, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while not mark.exists() or mark.read_text() != "started\n":
        assert job.poll() is None and time.monotonic() < deadline, job.communicate()
        time.sleep(0.02)
    stdout, _ = stopped_by(job, signal.SIGUSR1)  # what --signal=B:USR1@120 sends: to the shell only

    assert mark.read_text() == "USR1\n"  # the judge got it, rather than going on until SIGKILL
    assert job.returncode == 138
    assert "report ran" not in stdout
