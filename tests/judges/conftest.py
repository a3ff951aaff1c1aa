"""Finished runs of the tiny model (MC and generation), copied fresh for each test that judges them."""

import itertools
import shutil

import pytest

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, run


@pytest.fixture(scope="session")
def make_run(tiny_model, hf_backend):
    """``make_run(out, mode)``: TruthfulQA-Multi, 4 sample questions in en and es."""

    def make(out, mode):
        config = RunConfig(
            model=ModelOptions(str(tiny_model)),
            tasks=("truthfulqa_multi",),
            langs=("en", "es"),
            mode=mode,
            task_options=TaskOptions(DataSource("sample")),
            limit=4,
            output=out,
        )
        run(config, backend_factory=lambda: hf_backend)
        return out / tiny_model.name / "truthfulqa_multi"

    return make


@pytest.fixture(scope="session")
def finished_run(make_run, tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("finished"), "all")


@pytest.fixture
def run_dir_factory(finished_run, tmp_path):
    counter = itertools.count()
    return lambda: shutil.copytree(finished_run, tmp_path / f"run{next(counter)}")


@pytest.fixture
def run_dir(run_dir_factory):
    return run_dir_factory()
