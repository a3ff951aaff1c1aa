"""Issue 35, item 17: ``mlbench agree --output`` naming a folder, or a file in a missing
folder, ended in a traceback (after the intervals were drawn). One line, exit 2, before
the labels are read."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import run_cli
from tests.cli.test_errors import assert_one_line_error


@pytest.fixture
def labels(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("a,b\n1,1\n0,0\n1,0\n0,0\n1,1\n")
    return path


def agree(labels, output):
    return run_cli("agree", labels, "--a", "a", "--b", "b", "--output", output)


def test_an_output_that_is_a_folder_is_one_line(labels, tmp_path):
    assert_one_line_error(agree(labels, tmp_path), f"--output {tmp_path} is a folder; name a file in it")


def test_an_output_in_a_missing_folder_is_one_line(labels, tmp_path):
    target = tmp_path / "missing" / "kappa.json"
    assert_one_line_error(agree(labels, target), f"{tmp_path / 'missing'} does not exist")
    assert not (tmp_path / "missing").exists()


def test_an_output_under_a_file_is_one_line(labels, tmp_path):
    assert_one_line_error(agree(labels, labels / "kappa.json"), f"{labels} is not a folder")


def test_an_output_file_is_written(labels, tmp_path):
    result = agree(labels, tmp_path / "kappa.json")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "kappa.json").read_text())[0]["group"] == "all"
