"""Shared fixtures: the tiny model (built once per session) and the shared datasets."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPO.parent / "shared" / "datasets"


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def make_tiny_model():
    return _load_script("make_tiny_model").make_tiny_model


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, make_tiny_model) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("models") / "tiny", size="tiny", seed=0)


@pytest.fixture(scope="session")
def hf_backend(tiny_model):
    from mlbench.backends.hf import HFBackend

    return HFBackend(str(tiny_model), device="cpu", batch_size=4)


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    assert SHARED_DATASETS.is_dir(), f"the shared datasets are expected at {SHARED_DATASETS}"
    return SHARED_DATASETS
