"""Issue 35, item 11: ``--model ..`` wrote its results to ``OUTPUT/../truthfulqa_multi/``,
outside --output, while the last line named a folder under OUTPUT/. The model's folder name
(its slug) is never ``.``, ``..``, empty, nor holds a separator: every write stays under
the output folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mlbench.results import model_slug
from tests.cli.test_cli import run_model


@pytest.mark.parametrize("name", ["..", ".", "./", "../", "a/..", "/", "~", "...", "a/b/..", "./.."])
def test_a_slug_is_one_plain_folder_name(name, tmp_path, monkeypatch):
    (tmp_path / "models" / "tiny" / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "models" / "tiny")
    slug = model_slug(name)
    assert slug not in ("", ".", "..") and "/" not in slug and os.sep not in slug and slug.strip(".")
    assert (Path("out") / slug).resolve().parent == (Path("out")).resolve()


def test_dot_and_dot_dot_name_the_folder_they_stand_for(tmp_path, monkeypatch):
    (tmp_path / "tiny" / "sub").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "tiny" / "sub")
    assert model_slug("..") == "tiny" and model_slug(".") == "sub" and model_slug("../sub/..") == "tiny"
    assert model_slug("HiTZ/Latxa-Llama-3.1-8B") == "HiTZ__Latxa-Llama-3.1-8B"  # a hub id, as before


def test_a_run_of_model_dot_dot_writes_under_its_output(tiny_model, tmp_path, monkeypatch):
    model = tmp_path / "work" / "tiny"
    (model / "sub").mkdir(parents=True)
    for item in tiny_model.iterdir():  # the tiny model's files, in a folder of our own
        (model / item.name).symlink_to(item)
    monkeypatch.chdir(model / "sub")
    out = tmp_path / "work" / "out"
    result = run_model("..", out, "--task truthfulqa_multi --lang en --mode mc --sample --limit 1 --no-cache")
    assert result.exit_code == 0, result.output
    assert (out / "tiny" / "truthfulqa_multi" / "results.json").is_file()
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["out", "tiny"]  # nothing beside --output
