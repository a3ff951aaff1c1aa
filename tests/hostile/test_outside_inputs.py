"""Issue 45, findings 8-11 and the smaller ones: a --slices file naming a column twice, an
output path that is a device or a pipe, an infinite --max-cost, a -T/-M/-J key given twice,
a huge option value, and the advice for samples that overflow the context. Each is one
line of our own with a non-zero exit; nothing is replaced that is not a regular file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mlbench.engine.failures import failures_among
from tests.cli.test_cli import run_cli
from tests.cli.test_errors import assert_one_line_error
from tests.cli.test_messages import one_error_line
from tests.report.synthetic_runs import planted_values, write_run


@pytest.fixture
def runs(tmp_path) -> Path:
    write_run(tmp_path / "runs", "org/m", "truthfulqa_multi", planted_values(1, gap_lang="eu", n=20), samples=True)
    return tmp_path / "runs"


def test_8_a_slices_column_named_twice_is_one_line(runs, tmp_path):
    slices = tmp_path / "slices.csv"
    slices.write_text("id,context,context\nq000,general,cultural\n", encoding="utf-8")
    result = run_cli("report", runs, "--slices", slices, "--by", "context", "--out", tmp_path / "r")
    assert_one_line_error(result, "column 'context' is named twice in the header")
    assert not (tmp_path / "r" / "report.md").exists()


@pytest.fixture
def fifo(tmp_path):
    """A named pipe with its read end held open: a write that should have been refused
    fails the test instead of waiting for a reader forever."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    yield path
    os.close(reader)


@pytest.fixture
def device_link(tmp_path) -> Path:
    """A link to /dev/null: were it replaced, the link would go, never the device."""
    path = tmp_path / "null"
    path.symlink_to("/dev/null")
    return path


@pytest.mark.parametrize("kind", ["fifo", "device_link"])
def test_9_explore_to_a_device_or_a_pipe_replaces_nothing(runs, request, kind):
    target = request.getfixturevalue(kind)
    result = run_cli("explore", runs, "-o", target)
    assert_one_line_error(result, "is a FIFO" if kind == "fifo" else "is a character device", "not a file")
    mode = os.stat(target).st_mode
    assert stat.S_ISFIFO(mode) if kind == "fifo" else stat.S_ISCHR(mode)
    assert os.stat("/dev/null").st_mode == mode or kind == "fifo"


@pytest.mark.parametrize("command", ["surface", "agree"])
def test_9_every_user_named_output_is_checked_first(tmp_path, fifo, command):
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"answer": "Hello there.", "lang": "en"}\n', encoding="utf-8")
    labels = tmp_path / "labels.csv"
    labels.write_text("a,b\n1,1\n0,0\n1,0\n", encoding="utf-8")
    args = (
        ("surface", answers, "-o", fifo)
        if command == "surface"
        else ("agree", labels, "--a", "a", "--b", "b", "--output", fifo)
    )
    assert_one_line_error(run_cli(*args), "is a FIFO")  # not a write that waits for a reader
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("value", ["1e309", "inf", "nan", "0", "-1"])
def test_10_a_cost_budget_must_be_a_finite_amount_above_zero(tiny_model, tmp_path, monkeypatch, capsys, value):
    args = ("run", "--model", tiny_model, "-o", tmp_path, "--task", "veritasqa", "--sample", "--max-cost", value)
    line = one_error_line(monkeypatch, capsys, *args)
    assert line.startswith("--max-cost: ") and ("finite" in line or "more than 0" in line), line


def test_10_the_same_rule_for_a_run_file(tiny_model, tmp_path, monkeypatch, capsys):
    config = tmp_path / "run.toml"
    config.write_text("max_cost = inf\n", encoding="utf-8")
    args = ("run", "--config", config, "--model", tiny_model, "-o", tmp_path, "--task", "veritasqa", "--sample")
    assert "max_cost: inf is not a finite number" in one_error_line(monkeypatch, capsys, *args)


@pytest.mark.parametrize("flag", ["-T", "-M", "-J"])
def test_11_a_key_given_twice_is_refused_as_a_run_file_refuses_it(tiny_model, tmp_path, monkeypatch, capsys, flag):
    key = {"-T": "answer_format", "-M": "batch_size", "-J": "kind"}[flag]
    args = ("run", "--model", tiny_model, "-o", tmp_path, "--task", "truthfulqa_multi", "--sample")
    line = one_error_line(monkeypatch, capsys, *args, flag, f"{key}=a", flag, f"{key}=b")
    assert f"{flag} {key} is given twice ('a', then 'b'): give it once" in line, line


def test_a_huge_option_value_is_cut_in_the_error_line(tiny_model, tmp_path, monkeypatch, capsys):
    args = ("run", "--model", tiny_model, "-o", tmp_path, "--task", "truthfulqa_multi", "--sample")
    line = one_error_line(monkeypatch, capsys, *args, "-T", "answer_format=" + "x" * 100_000)
    assert "answer_format" in line and "(100,002 characters)" in line and len(line) < 400, line[:400]


def test_a_context_overflow_is_not_advised_a_resume():
    # As engine/scoring.py records a sample's failures: "<mode>: <failure>", joined by "; ".
    overflow = "gen: context overflow: 9000 tokens needed, the model's context holds 2048"
    both = "mc: context overflow: 9000 tokens needed; gen: context overflow: 9100 tokens needed"
    line = failures_among("veritasqa", "en", [overflow, None, both]).line()
    assert "--resume" not in line and "longer context" in line
    assert "--resume" in failures_among("veritasqa", "en", ["gen: HTTP 500", overflow]).line()


def test_a_flag_given_a_whole_number_beyond_floats_is_one_line(tiny_model, tmp_path, monkeypatch, capsys):
    huge = "1" + "0" * 400  # past what a float holds: the finite check must not overflow on it
    args = ("run", "--model", tiny_model, "-o", tmp_path, "--task", "veritasqa", "--sample", "--seed", huge)
    line = one_error_line(monkeypatch, capsys, *args)
    assert line.startswith("--seed: ") and "must be between 0 and 4294967295" in line, line[:300]


def test_a_run_file_nested_beyond_reason_is_one_line(tmp_path, monkeypatch, capsys):
    config = tmp_path / "run.toml"
    config.write_text("limit = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert "nested deeper" in one_error_line(monkeypatch, capsys, "run", "--config", config, "--task", "veritasqa")


def test_8_agrees_label_file_naming_a_column_twice_is_one_line(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("a,b,a\n1,1,0\n0,0,1\n", encoding="utf-8")
    result = run_cli("agree", labels, "--a", "a", "--b", "b")
    assert_one_line_error(result, "column 'a' is named twice in the header")
