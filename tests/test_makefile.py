"""`make demo` installs only when the environment's install stamp is missing or stale."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def dry_run(target: str, stamp: Path) -> str:
    assert shutil.which("make"), "make is part of the documented set-up"
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", target, f"INSTALL_STAMP={stamp}"],
        cwd=REPO, capture_output=True, text=True, check=True, env=outside_make(),
    )  # fmt: skip
    return result.stdout


def outside_make() -> dict[str, str]:
    """The environment without what a calling make passes down (`make test` runs these tests):
    a sub-make would print its "Entering directory" lines and take the caller's flags."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}


@pytest.mark.parametrize("target", ["demo", "demo-real"])
def test_demo_installs_only_without_a_fresh_stamp(tmp_path, target):
    stamp = tmp_path / "installed-test"
    assert "pip install" in dry_run(target, stamp)
    stamp.touch()
    assert "pip install" not in dry_run(target, stamp)
    # pyproject.toml changed since the install: install again. The stamp is made older than
    # the file rather than the file newer: the checkout's pyproject.toml is shared by every
    # test worker (touching it made the other case's fresh stamp stale mid-test).
    older = (REPO / "pyproject.toml").stat().st_mtime - 60
    os.utime(stamp, (older, older))
    assert "pip install" in dry_run(target, stamp)


def make_help(env: dict[str, str]) -> str:
    unset = ("VIRTUAL_ENV", "CONDA_DEFAULT_ENV", "CONDA_PREFIX", "PYTHON")
    clean = {k: v for k, v in outside_make().items() if k not in unset}
    result = subprocess.run(
        ["make", "-s", "--no-print-directory", "help"], cwd=REPO, capture_output=True, text=True, check=True,
        env=clean | env,
    )  # fmt: skip
    return result.stdout


def test_help_lists_every_target_with_what_it_does():
    text = make_help({})
    phony = next(line for line in (REPO / "Makefile").read_text().splitlines() if line.startswith(".PHONY:"))
    for target in phony.split(":", 1)[1].split():
        line = next((x for x in text.splitlines() if x.split()[:1] == [target]), None)
        assert line is not None and len(line.split()) > 1, f"make help does not describe {target}"
    assert max(map(len, text.splitlines())) <= 100


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({}, "the project's own environment: .venv/bin/python"),
        ({"VIRTUAL_ENV": "/opt/venvs/x"}, "the active virtual environment: /opt/venvs/x/bin/python"),
        (
            {"CONDA_DEFAULT_ENV": "eval", "CONDA_PREFIX": "/opt/conda/envs/eval"},
            "the active conda environment: /opt/conda/envs/eval/bin/python",
        ),
        ({"CONDA_DEFAULT_ENV": "base", "CONDA_PREFIX": "/opt/conda"}, "the project's own environment"),
        ({"PYTHON": "/usr/bin/python3", "VIRTUAL_ENV": "/opt/venvs/x"}, "the Python you named: /usr/bin/python3"),
    ],
)
def test_targets_use_the_active_environment_else_their_own(env, said):
    """No target installs into whatever python3 comes first on PATH: the first line of
    `make help` says which environment every target uses."""
    assert said in make_help(env).splitlines()[0]


@pytest.mark.parametrize(
    ("target", "tables"),
    [
        ("demo", "results-demo/tiny-model/{truthfulqa_multi,veritasqa}/table.md"),
        ("demo-real", "results-demo-real/gemma-3-270m/truthfulqa_multi/table.md"),
    ],
)
def test_demo_ends_by_naming_the_tables_and_the_report(tmp_path, target, tables):
    """The paths where `mlbench run` writes them: OUT/<the model folder's name>/<task>/."""
    last = dry_run(target, tmp_path / "stamp").strip().splitlines()[-2:]
    assert last[0].endswith(f'{tables}"'), last[0]
    assert f"{tables.split('/')[0]}/report/report.html" in last[1]
