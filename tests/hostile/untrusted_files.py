"""A benchmark's task files made hostile, and a run of mlbench over them in a process of
its own under a 4 GB address-space limit (``ulimit -v``) and a time limit.

The copy is the tests' NorTruthfulQA fixture (``template_fixture``): its template ``p1``
task file, or its ``utils.py``, is replaced by what a test writes, and the copy's files
are pinned by their own sha256 inside the child process (``pin_fixture_copies``), as a
user pins the files of a benchmark of their own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from tests.benchmarks.declared.template_fixture import NOR, nor_task_path, write_template_copy
from tests.upstream_pins import pin_fixture_copies

MEMORY_LIMIT = 4 << 30  # bytes of address space: the "ulimit -v" of 4 GB
REPO = Path(__file__).resolve().parents[2]

_CHILD = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import pytest
from tests.upstream_pins import pin_fixture_copies
pin_fixture_copies(pytest.MonkeyPatch(), Path({copy!r}))
from mlbench.cli.main import main
sys.argv = ["mlbench", *{args!r}]
main()
"""


@dataclass(frozen=True)
class Ended:
    """How a bounded run ended: its exit code, what it wrote to stderr, and its seconds."""

    returncode: int
    stderr: str
    seconds: float

    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.strip().splitlines() if line.strip()]


def hostile_copy(root: Path, *, task_file: str | None = None, utils: str | None = None) -> Path:
    """The NorTruthfulQA fixture under ``root``, Bokmål's template p1 task file (and/or its
    ``utils.py``) replaced by the given text."""
    copy = write_template_copy(root)
    upstream = copy / "upstream" / "nortruthfulqa"
    if task_file is not None:
        (upstream / nor_task_path("nb", "p1")).write_text(task_file, encoding="utf-8")
    if utils is not None:
        (upstream / NOR / "nob" / "utils.py").write_text(utils, encoding="utf-8")
    return copy


def _run_args(model: Path, copy: Path, output: Path, *more: str) -> list[str]:
    """``mlbench run`` of NorTruthfulQA (Bokmål, template p1, one question) over ``copy``."""
    args = ["run", "--model", str(model), "--task", "nortruthfulqa", "--lang", "nb", "-T", "prompt=p1"]
    return [*args, "--data-dir", str(copy), "--limit", "1", "--output", str(output), "--no-cache", *more]


def run_here(patch: pytest.MonkeyPatch, model: Path, copy: Path, output: Path) -> Ended:
    """The run of ``run_bounded`` in this process: for what asks for no memory or time,
    only a traceback or a wrong type (a second's start-up less than a child process)."""
    pin_fixture_copies(patch, copy)
    started = time.monotonic()
    result = CliRunner().invoke(app, _run_args(model, copy, output))
    stderr = result.stderr + ("".join(traceback.format_exception(result.exception)) if result.exit_code == 1 else "")
    return Ended(result.exit_code, stderr, time.monotonic() - started)


def run_bounded(model: Path, copy: Path, output: Path, *more: str, timeout: float = 120) -> Ended:
    """``mlbench run`` of NorTruthfulQA (Bokmål, template p1, one question) over ``copy``
    in a child process limited to ``MEMORY_LIMIT`` of address space."""
    args = _run_args(model, copy, output, *more)
    code = _CHILD.format(limit=MEMORY_LIMIT, copy=str(copy), args=args)
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO, check=False
    )
    return Ended(done.returncode, done.stderr, time.monotonic() - started)


def assert_refused(ended: Ended, *fragments: str, seconds: float = 60) -> None:
    """One line of ours, exit 2, no traceback, in bounded time."""
    lines = ended.error_lines()
    assert ended.returncode == 2, (ended.returncode, ended.stderr[-2000:])
    assert "Traceback" not in ended.stderr and len(lines) == 1, ended.stderr[-2000:]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert ended.seconds < seconds, ended.seconds


def yaml_text(document: dict) -> str:
    """A task file from a mapping (JSON is YAML)."""
    return json.dumps(document)
