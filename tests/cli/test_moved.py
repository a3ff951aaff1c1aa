"""Flags of earlier releases end in one line naming their new spelling, for each command."""

from __future__ import annotations

import sys

import pytest

from mlbench.cli.main import _invoke_app
from mlbench.cli.moved import TO_JUDGE, TO_MODEL, moved_option


def error_line(monkeypatch, capsys, *args: str) -> str:
    monkeypatch.setattr(sys, "argv", ["mlbench", *args])
    assert _invoke_app() == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["run", "-m", "m", "-t", "veritasqa", "--batch-size", "4"], "--batch-size is now -M batch_size=..."),
        (["run", "-m", "m", "-t", "veritasqa", "--model-arg", "swap_space=4"], "-M vllm.NAME=VALUE"),
        (["run", "-m", "m", "-t", "veritasqa", "--judge-kind", "truth"], "--judge-kind is now -J kind=..."),
        (["run", "-m", "m", "-t", "veritasqa", "--no-judge-chat-template"], "-J chat_template=false"),
        (["run", "-m", "m", "-t", "msqad", "--topic", "x"], "--topic is now -T topics=..."),
        (["judge", "out", "--judge", "j", "--base-url", "http://x/v1"], "--base-url is now -J base_url=..."),
        (["judge", "out", "--judge", "j", "--seed", "1"], "--seed of the judge is now -J seed=..."),
        (["judge", "out", "--judge", "j", "--kind", "truth"], "--kind of the judge is now -J kind=..."),
        (["judge", "out", "--judge", "j", "-M", "batch_size=2"], "mlbench judge takes no -M"),
    ],
)
def test_a_moved_flag_names_its_new_spelling(args, line, monkeypatch, capsys):
    assert line in error_line(monkeypatch, capsys, *args)


def test_every_moved_flag_has_a_new_spelling_and_others_have_none():
    for name in (*TO_MODEL, *TO_JUDGE):
        assert moved_option(f"--{name}", "run"), name
    assert moved_option("--no-such-option", "run") is None
    assert moved_option(None) is None


def test_an_option_that_exists_is_never_called_moved(monkeypatch, capsys):
    line = error_line(monkeypatch, capsys, "agree", "labels.csv", "--kind")  # its value is missing
    assert "is now" not in line and "--kind" in line
