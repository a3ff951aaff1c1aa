"""`mlbench report`'s terminal output at any width: the metrics whose columns do not fit are
left to the files and counted in the caption, never cut; piped, it is 100 columns wide."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mlbench.cli.app import PIPED_WIDTH
from mlbench.cli.main import app
from mlbench.metrics.catalog import column_heading

from .synthetic_runs import write_run

MODELS = ("org/a-rather-long-model-name-7b-instruct", "org/another-long-model-name-13b-chat")
# truthfulqa_multi's headline metrics, the last with a long name.
METRICS = ("mc1", "mc2", "bleu_acc", "truthful_informative")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wide") / "results"
    rng = np.random.default_rng(0)
    ids = [f"q{i}" for i in range(20)]
    for model in MODELS:
        values = {lang: {m: dict(zip(ids, rng.random(20).tolist())) for m in METRICS} for lang in ("en", "es", "eu")}
        write_run(root, model, "truthfulqa_multi", values)
    return root


def report_text(runs: Path, columns: int | None) -> str:
    result = CliRunner().invoke(app, ["report", str(runs)], env={"COLUMNS": str(columns) if columns else None})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("columns", [60, 80, 120, None])
def test_the_report_fits_its_width_and_cuts_no_name(runs, columns):
    width = columns or PIPED_WIDTH
    text = report_text(runs, columns)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert "…" not in text
    headers = [line for line in lines if line.split()[:2] == ["lang", "n"]]
    assert len(headers) == 2 + 1  # a table per model, one for the pair
    # The metrics as the run summary heads them (their labels), whole, in the headline's order.
    shown = [m for m in METRICS if column_heading(m, "truthfulqa_multi") in headers[0]]
    assert shown == list(METRICS[: len(shown)]) and shown
    assert "truthful_informative" not in headers[0]
    left_out = len(METRICS) - len(shown)
    caption = " ".join(text.split())
    if left_out:
        assert f"{left_out} more {'metric' if left_out == 1 else 'metrics'} and the intervals" in caption
    else:
        assert "more metric" not in caption.split("Model against model")[0]
    # Files were not written: the caption says how; short lines, the † defined on its own.
    assert "(--format md|html|latex|csv|json)" in caption
    assert "† low-resource language." in lines


def test_the_caption_does_not_ask_for_files_it_wrote(runs, tmp_path):
    args = ["report", str(runs), "--format", "md", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "--format" not in result.stdout and "in the report files written." in " ".join(result.stdout.split())


def _columns(line: str) -> int:
    return len([cell for cell in line.split("  ") if cell.strip()])


def test_a_narrow_terminal_drops_columns_that_a_wide_one_shows(runs):
    narrow = [line for line in report_text(runs, 60).splitlines() if line.split()[:2] == ["lang", "n"]]
    wide = [line for line in report_text(runs, 120).splitlines() if line.split()[:2] == ["lang", "n"]]
    assert _columns(narrow[0]) < _columns(wide[0]) == 2 + len(METRICS)
