"""The wheel carries every prompt template and data file, and an installed wheel finds
them where an editable install does (mlbench.resources)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", folder, REPO],
        check=True,
        capture_output=True,
    )
    return next(folder.glob("mlbench-*.whl"))


def shipped(tree: str) -> list[str]:
    root = REPO / tree
    return sorted(str(path.relative_to(REPO)) for path in root.rglob("*") if path.is_file())


def test_every_template_and_data_file_is_in_the_wheel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = shipped("prompts")
    assert any(name.endswith("truthfulqa_multi/question.txt") for name in templates)
    for relative in (*templates, *shipped("data")):
        assert f"mlbench/_shipped/{relative}" in names, relative


def test_an_installed_wheel_reads_its_own_prompts(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = (
        "import mlbench.resources as r; from mlbench.benchmarks import get_task;"
        "t = get_task('truthfulqa_multi'); print(r.resource_dir('prompts')); print(t.prompt_dir);"
        "print(r.prompt_hash(t.prompt_dir, 'question'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path)}
    )
    assert done.returncode == 0, done.stderr
    prompts, task_dir, question_hash = done.stdout.split()
    assert Path(prompts) == tmp_path / "mlbench" / "_shipped" / "prompts"
    assert Path(task_dir) == tmp_path / "mlbench" / "_shipped" / "prompts" / "truthfulqa_multi"
    # The hash results.json records for the template, as before the templates moved.
    assert question_hash == "34c3dc990a5934e0"


def test_the_explorers_script_and_style_are_in_the_wheel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"mlbench/report/assets/explorer.js", "mlbench/report/assets/explorer.css"} <= names


def test_the_benchmarks_declared_in_toml_are_in_the_wheel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    declared = sorted(
        p.name for p in (Path(__file__).parents[1] / "mlbench" / "benchmarks" / "declared").glob("*.toml")
    )
    assert declared and {f"mlbench/benchmarks/declared/{name}" for name in declared} <= names
