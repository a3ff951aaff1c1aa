"""scripts/compare_runs.py: the check that a refactor left every sample and result the same."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_runs.py"


def _write(root, metrics, extra=None):
    run_dir = root / "m" / "t"
    run_dir.mkdir(parents=True)
    line = {"id": "q1", "metrics": metrics, "schema_version": 1, **(extra or {})}
    (run_dir / "samples_en.jsonl").write_text(json.dumps(line) + "\n")
    (run_dir / "results.json").write_text(json.dumps({"config": {"seed": 0, "timings_s": {"en": 1.0}}}))


def _compare(before, after, *flags):
    return subprocess.run([sys.executable, SCRIPT, before, after, *flags], capture_output=True, text=True)


def test_equal_runs_and_a_changed_value(tmp_path):
    _write(tmp_path / "a", {"mc2": 0.5})
    _write(tmp_path / "b", {"mc2": 0.5})
    _write(tmp_path / "c", {"mc2": 0.5000000001})
    assert _compare(tmp_path / "a", tmp_path / "b").returncode == 0
    changed = _compare(tmp_path / "a", tmp_path / "c")
    assert changed.returncode == 1 and ".q1.metrics.mc2: 0.5 != 0.5000000001" in changed.stdout


def test_a_field_the_change_adds_is_accepted_only_when_named(tmp_path):
    _write(tmp_path / "a", {"mc2": 0.5})
    _write(tmp_path / "b", {"mc2": 0.5}, {"data_hash": "abc"})
    assert "data_hash: only in after" in _compare(tmp_path / "a", tmp_path / "b").stdout
    assert _compare(tmp_path / "a", tmp_path / "b", "--added", "data_hash").returncode == 0
    # Named, but taken away: still a difference.
    assert _compare(tmp_path / "b", tmp_path / "a", "--added", "data_hash").returncode == 1
