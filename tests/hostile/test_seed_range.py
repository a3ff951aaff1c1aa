"""Issue 35, item 14: ``--seed -5`` (or ``seed = -1`` in a run file) was accepted: the model
loaded, samples were written, then numpy raised a traceback and no results.json was
written. A seed is checked up front (0 to 2³²−1, what numpy and vLLM take), one line, exit
2, before a model loads; the judge's ``-J seed=`` too."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.cli.test_cli import run_cli
from tests.cli.test_errors import assert_one_line_error

COMMON = ["--task", "truthfulqa_multi", "--lang", "en", "--sample", "--limit", "1", "--no-cache"]
RUN = [*COMMON, "--mode", "mc"]


def mlbench(*args: object) -> subprocess.CompletedProcess:
    """The real command: a bad flag value is parsed by click, whose line mlbench's main writes."""
    return subprocess.run([sys.executable, "-m", "mlbench", *map(str, args)], capture_output=True, text=True)


def one_line(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("mlbench: error: ") and "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in line


@pytest.mark.parametrize("seed", ["-5", "4294967296"])
def test_a_seed_out_of_range_stops_before_the_model_loads(seed, tiny_model, tmp_path):
    done = mlbench("run", "--model", tiny_model, "--output", tmp_path / "out", "--seed", seed, *RUN)
    one_line(done, "--seed", f"{seed} must be between 0 and 4294967295")
    assert not (tmp_path / "out").exists()  # nothing loaded, nothing written


def test_a_run_file_seed_is_checked_the_same_way(tiny_model, tmp_path):
    (tmp_path / "run.toml").write_text("seed = -1\n")
    done = mlbench("run", "--model", tiny_model, "--output", tmp_path / "out", "--config", tmp_path / "run.toml", *RUN)
    one_line(done, "run.toml seed: -1 must be between 0 and 4294967295")
    assert not (tmp_path / "out").exists()


def test_the_largest_seed_runs(tiny_model, tmp_path):
    result = run_cli("run", "--model", tiny_model, "--output", tmp_path / "out", "--seed", "4294967295", *RUN)
    assert result.exit_code == 0, result.output


def test_a_judge_seed_out_of_range_is_one_line_before_anything_runs(tiny_model, tmp_path):
    result = run_cli("run", "--model", tiny_model, "--output", tmp_path / "out", *COMMON, "--mode", "gen",
                     "--judge", tiny_model, "-J", "seed=-1", "-J", "backend=hf")  # fmt: skip
    assert_one_line_error(result, "-J seed must be between 0 and 4294967295, not -1")
    assert not (tmp_path / "out").exists()
    judged = run_cli("judge", tmp_path, "--judge", tiny_model, "-J", "seed=-3")
    assert_one_line_error(judged, "-J seed must be between 0 and 4294967295, not -3")
