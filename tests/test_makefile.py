"""`make demo` installs only when the environment's install stamp is missing or stale."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def dry_run(target: str, stamp: Path) -> str:
    assert shutil.which("make"), "make is part of the documented set-up"
    result = subprocess.run(
        ["make", "-n", target, f"INSTALL_STAMP={stamp}"], cwd=REPO, capture_output=True, text=True, check=True
    )
    return result.stdout


@pytest.mark.parametrize("target", ["demo", "demo-real"])
def test_demo_installs_only_without_a_fresh_stamp(tmp_path, target):
    stamp = tmp_path / "installed-test"
    assert "pip install" in dry_run(target, stamp)
    stamp.touch()
    assert "pip install" not in dry_run(target, stamp)
    older = time.time() - 3600  # pyproject.toml changed since the install: install again
    os.utime(stamp, (older, older))
    pyproject = REPO / "pyproject.toml"
    kept = pyproject.stat()
    os.utime(pyproject)
    try:
        assert "pip install" in dry_run(target, stamp)
    finally:  # the checkout's own stamp must not look stale because of this test
        os.utime(pyproject, ns=(kept.st_atime_ns, kept.st_mtime_ns))
