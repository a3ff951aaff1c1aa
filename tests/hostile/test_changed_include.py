"""Issue 35, item 12: ``mlbench judge`` of a user's benchmark loads its file again from the
path results.json records. A file changed since the run is refused, naming it, unless the
user passes it with --include (saying: load it as it is now)."""

import json
import shutil

import pytest

from mlbench.benchmarks.include import recorded_file
from mlbench.errors import MlbenchError

# own_registry: the benchmark included here is forgotten afterwards (an autouse fixture).
from tests.benchmarks.test_include import EXAMPLE, _mlbench, own_registry  # noqa: F401
from tests.cli.test_cli import run_model

LANGS = "en,es"


def test_judging_a_run_whose_benchmark_file_changed_is_refused(tiny_model, tmp_path):
    example = tmp_path / "capitals"
    shutil.copytree(EXAMPLE, example)
    flags = f"--task capitals --lang {LANGS} --backend hf --max-new-tokens 8 --limit 2 --no-cache"
    ran = run_model(tiny_model, tmp_path / "out", flags, "--include", example)
    assert ran.exit_code == 0, ran.output
    run_dir = tmp_path / "out" / tiny_model.name / "capitals"
    toml = example / "benchmark.toml"
    toml.write_text(toml.read_text() + "\n# edited after the run\n")

    judge = (
        "judge",
        run_dir,
        "--judge",
        tiny_model,
        "-J",
        "kind=truth",
        "-J",
        "backend=hf",
        "--no-cache",
        "--lang",
        "en",
    )
    refused = _mlbench(*judge)
    assert refused.returncode == 2, refused.stderr
    assert f"included from {toml}, which has changed since" in refused.stderr
    assert f"pass --include {toml}" in refused.stderr and "Traceback" not in refused.stderr
    assert "truthful" not in json.loads((run_dir / "results.json").read_text())["results"]["en"]

    confirmed = _mlbench(*judge, "--include", example)
    assert confirmed.returncode == 0, confirmed.stderr


def test_an_unchanged_file_is_loaded_again(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("x = 1\n")
    digest = "5a7a2c6a1f7c9c3b2f3d5d5f7ee9d3bc4e6c1c8b2aa0e3b0d1f3a7f1e9d0c2b4"  # not its hash
    with pytest.raises(MlbenchError, match="which has changed since"):
        recorded_file("mine", {"path": str(path), "sha256": digest}, "results.json")
    import hashlib

    same = {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    assert recorded_file("mine", same, "results.json") == path
