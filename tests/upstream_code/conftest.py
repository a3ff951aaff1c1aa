"""Tests over the authors' own code files, the ones mlbench reads XLingHealth's and MSQAD's
prompts and TruthfulQA-Multi's judge protocol and universal/local map from
(``DIR/upstream/truthfulqa-multi/...``),
and the lm-eval task files of the declared NorTruthfulQA, AraDiCE and
TruthfulQA-X, run by ``make test-upstream`` with ``MLBENCH_UPSTREAM_CODE=DIR``: a folder
laid out as ``--data-dir`` lays them out (``DIR/upstream/xlinghealth/<path>``,
``DIR/upstream/msqad/<path>``, ``DIR/upstream/nortruthfulqa/lm_eval/tasks/...``), e.g. what
``mlbench data fetch xlinghealth msqad nortruthfulqa ...`` brings, copied there.
``make test`` and ``make test-data`` leave this folder out: the tests' own fixture copies
(in the same shapes, with text written for the tests) stand in for them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def upstream_code() -> Path:
    value = os.environ.get("MLBENCH_UPSTREAM_CODE")
    if not value:
        pytest.exit("tests/upstream_code needs MLBENCH_UPSTREAM_CODE=DIR (see `make test-upstream`)", returncode=2)
    path = Path(value).expanduser().resolve()
    if not (path / "upstream").is_dir():
        pytest.exit(f"MLBENCH_UPSTREAM_CODE={value} holds no upstream/ folder", returncode=2)
    return path


@pytest.fixture(autouse=True)
def benchmark_sources():
    from mlbench.benchmarks import discover

    discover()
