"""The benchmark scripts run (small): a script that no longer matches the code it times
fails here, not when someone needs its figures."""

import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _run(name, *args):
    done = subprocess.run([sys.executable, SCRIPTS / name, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_bench_report_runs(tmp_path):
    assert "gaps tested" in _run("bench_report.py", "--runs", 5, "--questions", 20, "--work", tmp_path)


def test_bench_explore_runs(tmp_path):
    out = _run("bench_explore.py", "--questions", 20, "--work", tmp_path)
    assert "20 questions × 5 languages × 2 models = 200 cells" in out and "apply a filter" in out
