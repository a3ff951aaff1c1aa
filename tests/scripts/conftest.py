"""The real single-node Slurm (tests/scripts/slurm_cluster.py), one a test session; the
tests that use it share one pytest-xdist worker (``xdist_group("slurm")``) and so one
cluster."""

from __future__ import annotations

import pytest

from tests.scripts.slurm_cluster import SlurmMissing, started


@pytest.fixture(scope="session")
def slurm_cluster(tmp_path_factory):
    try:
        yield from started(tmp_path_factory.mktemp("slurm"))
    except SlurmMissing as missing:
        pytest.fail(str(missing))


@pytest.fixture
def slurm(slurm_cluster):
    """The session's cluster, with every job of the test cancelled and gone at its end, so
    that a test that failed mid-wait leaves the next one a free node."""
    yield slurm_cluster
    slurm_cluster.cancel_all()
