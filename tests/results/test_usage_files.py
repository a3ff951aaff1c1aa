"""A run's usage in its files: summed again from the languages on every merge (never an old
block left over), and a malformed usage is one line naming the file."""

import json

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from mlbench.records import RunResult
from mlbench.results import merge_run, read_run
from tests.report.synthetic_runs import planted_values, write_run

OLD = {"model": {"prompt_tokens": 9, "completion_tokens": 9, "estimated": False}}


@pytest.fixture
def run_dir(tmp_path):
    values = planted_values(1, gap_lang=None)
    return write_run(tmp_path, "org/m", "truthfulqa_multi", {"en": values["en"]})


def set_config(path, **settings):
    data = json.loads(path.read_text())
    data["config"].update(settings)
    path.write_text(json.dumps(data))


def test_a_merge_drops_an_old_usage_its_languages_no_longer_have(run_dir):
    stale = RunResult("org/m", "truthfulqa_multi", {"seed": 0, "usage": {"en": OLD}, "usage_total": OLD}, {})
    merged, _ = merge_run(run_dir, stale, "synthetic", ["mc1"], ["en"])
    assert "usage" not in merged.config and "usage_total" not in merged.config
    assert "usage_total" not in read_run(run_dir).config


def test_a_bad_usage_in_a_language_file_is_named_as_such(run_dir):
    set_config(run_dir / "results_en.json", usage={"en": {"model": {"prompt_tokens": "many"}}})
    with pytest.raises(MlbenchError) as error:
        merge_run(run_dir, RunResult("org/m", "truthfulqa_multi", {"seed": 0}, {}), "synthetic", ["mc1"], ["en"])
    assert str(error.value) == (
        f"{run_dir / 'results_en.json'}: not an mlbench language result "
        "(usage holds a token count that is not a whole number >= 0)"
    )  # not "no timing"


@pytest.mark.parametrize(
    "usage",
    [
        {"usage_total": {"model": {"prompt_tokens": -1}}},
        {"usage_total": {"model": "lots"}},
        {"usage_total": {"judges": ["truth"]}},
        {"usage_total": {"model": {"cost_usd": "$1"}}},
        {"usage": {"en": {"model": {"prompt_tokens": 1.5}}}},  # the block the report sums
    ],
    ids=["negative", "not-an-object", "judges-list", "cost-text", "language-block"],
)
def test_a_malformed_usage_makes_report_say_one_line(run_dir, tmp_path, usage):
    set_config(run_dir / "results.json", **usage)
    result = CliRunner().invoke(app, ["report", str(tmp_path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith(f"mlbench: error: {run_dir / 'results.json'}: not an mlbench results file (ValueError: ")
