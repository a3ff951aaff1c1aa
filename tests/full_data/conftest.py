"""Tests over the full benchmark data, run by ``make test-data`` with
``MLBENCH_TEST_DATA=DIR`` (a folder laid out like ``--data-dir``; ``DIR/upstream/`` holds
files exactly as their homes ship them). ``make test`` leaves this folder out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _data_dir() -> Path:
    value = os.environ.get("MLBENCH_TEST_DATA")
    if not value:
        pytest.exit("tests/full_data needs MLBENCH_TEST_DATA=DIR (see `make test-data`)", returncode=2)
    path = Path(value).expanduser().resolve()
    if not path.is_dir():
        pytest.exit(f"MLBENCH_TEST_DATA={value} is not a folder", returncode=2)
    return path


@pytest.fixture(scope="session")
def full_data_dir() -> Path:
    """The full data (a ``--data-dir`` folder)."""
    return _data_dir()


@pytest.fixture(scope="session")
def upstream_dir(full_data_dir) -> Path:
    """Files exactly as the benchmarks' homes ship them (``DIR/upstream/``)."""
    path = full_data_dir / "upstream"
    assert path.is_dir(), f"{path} is missing"
    return path


@pytest.fixture(autouse=True)
def benchmark_sources():
    """The built-in benchmarks' sources, as a command finds them (they register on import)."""
    from mlbench.benchmarks import discover

    discover()
