"""`mlbench run` on the real data where a run's size depends on it (moved from
tests/test_cli_xlinghealth.py, which checks the same on the fixture data)."""

from __future__ import annotations

from typer.testing import CliRunner

from mlbench.cli.main import app

runner = CliRunner()


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_the_full_xlinghealth_consistency_run_asks_for_yes(tiny_model, full_data_dir, tmp_path):
    # 934 English questions (LiveQA and MedicationQA) × 5 temperatures × 10 answers. (mlbench's
    # own prompts: this copy holds the data, not the authors' code; tests/upstream_code reads that.)
    result = run_cli(
        "run", "--model", tiny_model, "--task", "xlinghealth", "--data-dir", full_data_dir, "--output", tmp_path,
        "--mode", "consistency", "--lang", "en", "-T", "prompts=mlbench",
    )  # fmt: skip
    assert result.exit_code == 2 and "generates 46,700 texts (over 10,000); pass --yes" in result.output
