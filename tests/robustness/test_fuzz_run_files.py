"""`mlbench report` over a run folder whose files were damaged: every
file report reads × six damages. Each must give exit 2 with one line naming the
file — never a traceback, and the run's files are left as they were. Report reads
results.json; results_<lang>.json only for a run written before results.json held the
per-question values, and a damaged one beside a current results.json changes nothing."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from tests.report.synthetic_runs import planted_values, without_per_question_in_results_json, write_run

DAMAGES = {
    "truncated": lambda b: b[: len(b) // 2],
    "non_utf8": lambda b: b[: len(b) // 3] + b"\xff\xfe" + b[len(b) // 3 :],
    "nul": lambda b: b[: len(b) // 2] + b"\x00" + b[len(b) // 2 :],
    "empty": lambda b: b"",
    "wrong_shape": lambda b: json.dumps(["not", "a", "run"]).encode(),
    "directory": None,  # the file replaced by a folder of the same name
}
FILES = ["results.json", "results_en.json", "results_es.json"]


@pytest.fixture
def run_root(tmp_path):
    root = tmp_path / "results"
    write_run(root, "org/model", "truthfulqa_multi", planted_values(1, gap_lang="es"))
    return root


def _damage(target, damage):
    if DAMAGES[damage] is None:
        target.unlink()
        target.mkdir()
    else:
        target.write_bytes(DAMAGES[damage](target.read_bytes()))


def _snapshot(root):
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize("name", FILES)
def test_report_on_a_damaged_run(run_root, name, damage):
    target = next(run_root.rglob(name))
    if name != "results.json":  # an older run: its per-question values are in results_<lang>.json
        without_per_question_in_results_json(target.parent)
    _damage(target, damage)
    before = _snapshot(run_root)
    result = CliRunner().invoke(app, ["report", str(run_root)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), result.stderr
    assert target.name in lines[0]  # the line names the damaged file
    assert _snapshot(run_root) == before  # report reads; it never rewrites a run


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_report_does_not_read_the_language_files_of_a_current_run(run_root, damage):
    fresh = CliRunner().invoke(app, ["report", str(run_root)])
    _damage(next(run_root.rglob("results_es.json")), damage)
    result = CliRunner().invoke(app, ["report", str(run_root)])
    assert result.exit_code == 0, result.output
    assert result.stdout == fresh.stdout
