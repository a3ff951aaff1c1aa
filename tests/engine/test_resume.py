"""A run killed at any point and resumed ends exactly like an uninterrupted run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mlbench.backends.registry import model_spec
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, run
from mlbench.results import read_samples


def cli(model: Path, data: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "mlbench",
        "run",
        "--model",
        str(model),
        "--task",
        "truthfulqa_multi",
        "--lang",
        "en,eu",
        "--mode",
        "mc",
        "--data-dir",
        str(data),
        "--limit",
        "16",
        "--chunk-size",
        "2",
        "--output",
        str(out),
        "--no-cache",
        *extra,
    ]


def results(out: Path, model: Path) -> dict:
    return json.loads((out / model.name / "truthfulqa_multi" / "results.json").read_text())["results"]


def test_sigkill_then_resume(tiny_model, fixture_datasets, tmp_path):
    reference = tmp_path / "reference"
    subprocess.run(cli(tiny_model, fixture_datasets, reference), check=True, capture_output=True)

    killed = tmp_path / "killed"
    samples = killed / tiny_model.name / "truthfulqa_multi" / "samples_en.jsonl"
    process = subprocess.Popen(
        cli(tiny_model, fixture_datasets, killed), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 120
    while time.time() < deadline and (not samples.exists() or samples.read_text().count("\n") < 4):
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL, "the kill should land mid-run"
    assert samples.read_text().count("\n") >= 4

    resumed = subprocess.run(cli(tiny_model, fixture_datasets, killed, "--resume"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert results(killed, tiny_model) == results(reference, tiny_model)
    for lang in ("en", "eu"):
        lines = (killed / tiny_model.name / "truthfulqa_multi" / f"samples_{lang}.jsonl").read_text().splitlines()
        ids = [json.loads(line)["id"] for line in lines]
        assert len(ids) == len(set(ids)) == 16


def test_resume_skips_finished_samples_and_cuts_a_torn_line(tiny_model, fixture_datasets, tmp_path):
    calls = []

    def config(resume: bool) -> RunConfig:
        return RunConfig(
            model=model_spec(str(tiny_model), device="cpu"),
            tasks=("veritasqa",),
            langs=("gl",),
            mode="mc",
            task_options=TaskOptions(DataSource("local", fixture_datasets)),
            limit=6,
            output=tmp_path,
            resume=resume,
        )

    def factory():
        from mlbench.backends.hf import HFBackend

        backend = HFBackend(str(tiny_model), device="cpu")
        original = backend.loglikelihood

        def counted(requests, progress=None):
            calls.append(len(requests))
            return original(requests, progress)

        backend.loglikelihood = counted
        return backend

    first = run(config(False), backend_factory=factory)[0]
    path = tmp_path / tiny_model.name / "veritasqa" / "samples_gl.jsonl"
    lines = path.read_text().splitlines()
    # Keep four finished samples and half of the fifth, as a kill mid-write would.
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:30])
    calls.clear()
    second = run(config(True), backend_factory=factory)[0]
    assert len(calls) == 1  # one chunk: the two samples not finished
    assert len(read_samples(path)) == 6
    assert second.languages["gl"].metrics == first.languages["gl"].metrics


def test_resume_refuses_samples_from_other_settings(tiny_model, fixture_datasets, tmp_path):
    base = cli(tiny_model, fixture_datasets, tmp_path)
    subprocess.run(base, check=True, capture_output=True)
    other = subprocess.run([*base, "--fewshot", "0", "--resume"], capture_output=True, text=True)
    assert other.returncode == 2
    assert "different settings" in other.stderr and "Traceback" not in other.stderr
