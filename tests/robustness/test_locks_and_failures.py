"""Issue 20: two runs of one language into one folder, and runs whose samples all fail.

(3) A second run of a language that another process is running stops at once (exit 2,
one line naming the pid), writing nothing; the lock goes with the process that held it.
(5) A language with more than half its samples failed ends the run with exit 1 and a
line per language (count and first error); fewer failures give a warning and exit 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mlbench.backends.base import Backend
from mlbench.cli.main import app
from mlbench.engine.lock import take_language_lock
from mlbench.records import Generation

runner = CliRunner()


def run_cli(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def gen_run(model: Path, out: Path, *extra: object) -> Any:
    """VeritasQA gen on the embedded sample set, 4 questions."""
    return run_cli(
        "run", "--model", model, "--task", "veritasqa", "--lang", "en", "--mode", "gen", "--sample",
        "--limit", "4", "--output", out, "--no-cache", *extra,
    )  # fmt: skip


class FailingBackend(Backend):
    """Answers every generation, except the first ``failures`` requests of the run."""

    name = "fake"
    fingerprint = "fake-failing"

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.seen = 0

    def generate(self, requests: list[Any], progress: Any = None) -> list[Generation]:
        out = []
        for _ in requests:
            self.seen += 1
            if self.seen <= self.failures:
                out.append(Generation("", 0, "error", error=f"HTTP 500: upstream exploded #{self.seen}"))
            else:
                out.append(Generation("I have no comment.", 4, "stop"))
        return out

    def loglikelihood(self, requests: list[Any], progress: Any = None) -> list[Any]:
        raise AssertionError("gen only")


@pytest.fixture
def failing_backend(monkeypatch: pytest.MonkeyPatch):
    """Patch the backend the CLI makes with a FailingBackend of ``n`` failures."""
    import mlbench.backends.registry as registry

    def install(failures: int) -> FailingBackend:
        backend = FailingBackend(failures)
        monkeypatch.setattr(registry, "create_backend", lambda *args, **kwargs: backend)
        return backend

    return install


def stderr_lines(result: Any) -> list[str]:
    return result.stderr.strip().splitlines()


# ---- (3) one process per language ------------------------------------------------------


def test_a_language_locked_by_another_run_is_refused_and_nothing_written(tiny_model, tmp_path, failing_backend):
    backend = failing_backend(0)
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    with take_language_lock(run_dir, "en"):
        result = gen_run(tiny_model, tmp_path / "out", "--resume")
    assert result.exit_code == 2, result.output
    [line] = stderr_lines(result)
    assert line.startswith("mlbench: error: ")
    assert f"en is being run by another process (pid {os.getpid()}); wait for it or use another --output" in line
    assert backend.seen == 0
    # No samples, no results, and no lock file: the holder removed it when it let go (issue 35, item 18).
    assert sorted(p.name for p in run_dir.iterdir()) == []
    # Released: the same run now goes through.
    assert gen_run(tiny_model, tmp_path / "out", "--resume").exit_code == 0


def test_the_lock_message_comes_before_the_existing_results_one(tiny_model, tmp_path, failing_backend):
    """Without --resume a second run used to be told to pass --resume (which would then
    write every sample twice); the running process is the reason to give."""
    failing_backend(0)
    assert gen_run(tiny_model, tmp_path / "out").exit_code == 0
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    before = (run_dir / "samples_en.jsonl").read_bytes()
    with take_language_lock(run_dir, "en"):
        for flags in ((), ("--resume",), ("--overwrite",)):
            result = gen_run(tiny_model, tmp_path / "out", *flags)
            assert result.exit_code == 2, result.output
            assert "is being run by another process" in stderr_lines(result)[0]
    assert (run_dir / "samples_en.jsonl").read_bytes() == before


def test_another_process_holds_the_lock_until_it_ends(tiny_model, tmp_path, failing_backend):
    """Two processes: the lock names the holder's pid and goes away when it is killed
    (an OS lock, so a crashed run leaves nothing to clear)."""
    failing_backend(0)
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            from mlbench.engine.lock import take_language_lock
            lock = take_language_lock(Path({str(run_dir)!r}), "en")
            print("locked", flush=True)
            time.sleep(120)
        """)],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        result = gen_run(tiny_model, tmp_path / "out")
        assert result.exit_code == 2, result.output
        assert f"(pid {holder.pid})" in stderr_lines(result)[0]
        assert not (run_dir / "samples_en.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    result = gen_run(tiny_model, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert len((run_dir / "samples_en.jsonl").read_text().splitlines()) == 4


def test_the_lock_is_held_while_the_language_runs(tmp_path):
    """A second run started while the first is scoring (here: from inside its backend) is
    refused; other languages of the folder are not locked."""
    from mlbench.backends.registry import ModelOptions
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource
    from mlbench.engine.pipeline import RunConfig, run
    from mlbench.errors import MlbenchError

    config = RunConfig(
        model=ModelOptions("fake-model"),
        tasks=("veritasqa",),
        langs=("en",),
        mode="gen",
        task_options=TaskOptions(DataSource("sample")),
        limit=2,
        output=tmp_path,
    )
    refusals: list[str] = []

    class Reentrant(FailingBackend):
        def generate(self, requests: list[Any], progress: Any = None) -> list[Generation]:
            try:
                run(config.__class__(**{**config.__dict__, "resume": True}), backend_factory=lambda: FailingBackend(0))
            except MlbenchError as error:
                refusals.append(str(error))
            return super().generate(requests, progress)

    run(config, backend_factory=lambda: Reentrant(0))
    assert refusals and all("en is being run by another process" in r for r in refusals)
    lines = (tmp_path / "fake-model" / "veritasqa" / "samples_en.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["id"] for line in lines) == sorted(set(json.loads(line)["id"] for line in lines))
    assert len(lines) == 2


# ---- (5) failed samples ----------------------------------------------------------------


def test_unreachable_server_exits_1_with_a_line_per_language(tiny_model, tmp_path, monkeypatch):
    import mlbench.backends.openai as openai_backend

    # Nothing listens on port 9: every request fails after its retries (made instant here).
    monkeypatch.setattr(openai_backend.time, "sleep", lambda seconds: None)
    result = run_cli(
        "run", "--model", tiny_model, "--output", tmp_path / "out", "--sample", "--task", "veritasqa",
        "--lang", "en,es", "--limit", "2", "--mode", "gen", "--backend", "openai",
        "-M", "base_url=http://127.0.0.1:9/v1",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [line for line in stderr_lines(result) if line.startswith("mlbench: error:")]
    assert len(lines) == 2, result.stderr
    for lang, line in zip(("en", "es"), lines):
        assert line.startswith(
            f"mlbench: error: veritasqa {lang}: 2 of 2 samples failed (first: gen: connection failed"
        )
        assert "rerun with --resume" in line
    # The results are written, so that --resume can retry the failed samples.
    run_dir = tmp_path / "out" / tiny_model.name / "veritasqa"
    results = json.loads((run_dir / "results.json").read_text())
    assert results["results"]["en"]["failed"] == 2 and results["results"]["es"]["failed"] == 2


@pytest.mark.parametrize(("failures", "code", "kind"), [(1, 0, "warning"), (2, 0, "warning"), (3, 1, "error")])
def test_more_than_half_failed_is_an_error_less_a_warning(tiny_model, tmp_path, failing_backend, failures, code, kind):
    failing_backend(failures)
    result = gen_run(tiny_model, tmp_path / "out")
    assert result.exit_code == code, result.output
    [line] = [line for line in stderr_lines(result) if "samples failed" in line]
    assert line == (
        f"mlbench: {kind}: veritasqa en: {failures} of 4 samples failed (first: gen: HTTP 500: upstream exploded #1); "
        "kept in the results; rerun with --resume to retry them"
    )


def test_resume_retries_the_failed_samples_and_then_exits_0(tiny_model, tmp_path, failing_backend):
    failing_backend(4)
    assert gen_run(tiny_model, tmp_path / "out").exit_code == 1
    backend = failing_backend(0)
    result = gen_run(tiny_model, tmp_path / "out", "--resume")
    assert result.exit_code == 0, result.output
    assert backend.seen == 4 and "samples failed" not in result.stderr


def test_a_run_without_failures_says_nothing_about_them(tiny_model, tmp_path, failing_backend):
    failing_backend(0)
    result = gen_run(tiny_model, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "failed" not in result.stderr
