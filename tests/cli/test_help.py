"""`--help` reads at 80 columns: options grouped by concern, no names cut short, and each
command's help says what its own --seed seeds."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

PANELS = (
    "Model",
    "Data",
    "Prompts and generation",
    "Judges",
    "Output and run control",
)


def help_text(*command: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mlbench", *command, "--help"],
        env={**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def option_help(text: str, option: str) -> str:
    """The help of ``option`` (its row and the rows wrapped under it) in a panel."""
    rows = text.splitlines()
    start = next(i for i, row in enumerate(rows) if re.search(rf"│\s+(\*\s+)?{re.escape(option)}\s", row))
    block = [rows[start]]
    for row in rows[start + 1 :]:
        if re.match(r"│\s+(\*\s+)?--", row) or not row.startswith("│"):
            break
        block.append(row)
    return " ".join(" ".join(row.strip("│ ").split()) for row in block)


@pytest.fixture(scope="module")
def run_help() -> str:
    return help_text("run")


def test_run_help_fits_80_columns_in_panels_per_concern(run_help):
    lines = run_help.splitlines()
    assert max(map(len, lines)) <= 80
    assert "…" not in run_help  # no option name or default cut short
    titles = [m.group(1) for m in re.finditer(r"╭─ (.+?) ─", run_help)]
    assert titles == ["Options", *PANELS]
    # 287 lines before the panels and metavars, 205 before the benchmarks' own options
    # became -T (listed by `mlbench tasks NAME`), 94 before the backends' became -M
    # (`mlbench backends NAME`) and the judge's -J.
    assert len(lines) <= 60, len(lines)
    # The switches list their "on" name only; their --no-… names still work (hidden).
    assert "--no-chat-template" not in run_help


def test_each_seed_says_what_it_seeds(run_help):
    assert "--limit subset" in option_help(run_help, "--seed")
    for command in ("agree", "surface"):
        seed = option_help(help_text(command), "--seed")
        assert "--limit" not in seed, (command, seed)
    assert "bootstrap" in option_help(help_text("agree"), "--seed")


def test_report_help_has_no_space_before_a_period():
    text = help_text("report")
    assert not re.search(r"\w \.", text), text
    assert "(default: en)" in option_help(text, "--ref-lang")
    assert "(default: RESULTS_DIR/report)" in option_help(text, "--output")


def test_report_names_its_folder_as_run_does():
    """-o/--output is where a command writes, in every command; report's --out of earlier
    releases still works (tests/cli/test_cli.py) but is not shown beside it."""
    text = help_text("report")
    assert re.search(r"--output\s+-o\s+DIR", text), text
    assert not re.search(r"--out\b", text), text


def test_run_help_lists_the_key_value_options_and_not_the_removed_flags(run_help):
    for flag in ("--task-option", "-T", "--model-option", "-M", "--judge-option", "-J", "--config"):
        assert re.search(rf"{re.escape(flag)}\b", run_help), flag
    for flag in ("--batch-size", "--tensor-parallel-size", "--base-url", "--judge-kind", "--search-url"):
        assert flag not in run_help, flag
    for flag in ("--kind", "--dataset", "--healthqa", "--samples", "--temperatures", "--embedder", "--bertscore-model",
                 "--bertscore-layer", "--verify-scoring", "--topic", "--refusal", "--nli-model",
                 "--refusal-threshold", "--permutations"):  # fmt: skip
        assert not re.search(rf"{re.escape(flag)}\b", run_help), flag


def test_every_command_help_fits_80_columns():
    for command in ("judge", "tasks", "backends", "report", "agree", "surface"):
        assert max(map(len, help_text(command).splitlines())) <= 80, command


def test_run_and_judge_share_the_judge_options():
    judge_help = help_text("judge")
    assert "--judge-option" in judge_help and "--judge-kind" not in judge_help
    assert len(judge_help.splitlines()) <= 40


def test_help_into_a_pipe_closed_early_ends_without_a_traceback():
    # `mlbench run --help | head -1`: the reader leaves after one line.
    process = subprocess.Popen(
        [sys.executable, "-m", "mlbench", "run", "--help"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert process.stdout is not None and process.stdout.read(10)
    process.stdout.close()
    stderr = process.stderr.read().decode() if process.stderr else ""
    process.wait(timeout=60)
    assert "Traceback" not in stderr and "AttributeError" not in stderr
