"""The catalog's pins of the authors' code files, pointed at a fixture copy for a test.

mlbench reads XLingHealth's and MSQAD's prompts from the authors' files and checks each
against its pinned sha256 (``mlbench/data/untrusted/upstream.py``). The tests' fixture tree
(``tests/fixture_data.py``) holds files in the same shape with text written for the tests,
so their hashes differ: ``pin_fixture_copies`` swaps the catalog's pins for the fixture's
for as long as the patch lasts (the test session, or one test)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from mlbench.data import catalog


def upstream_sets() -> list:
    """Every benchmark's ``UpstreamFiles`` (what it reads of its authors' code)."""
    from mlbench.benchmarks import all_tasks
    from mlbench.benchmarks.declarative.prompts import upstream_files
    from mlbench.benchmarks.msqad.sources import UPSTREAM as MSQAD
    from mlbench.benchmarks.scope_map import UPSTREAM as TQA_SCOPE
    from mlbench.benchmarks.truthfulqa_multi.sources import JUDGE_UPSTREAM as TQA_JUDGE
    from mlbench.benchmarks.xlinghealth.sources import UPSTREAM as XLINGHEALTH

    declared = [upstream_files(task.spec) for task in all_tasks() if getattr(task, "task_files", None)]
    return [XLINGHEALTH, MSQAD, TQA_JUDGE, TQA_SCOPE, *declared]


def pin_fixture_copies(patch: pytest.MonkeyPatch, data_dir: Path) -> None:
    """Pin the files found under ``data_dir/upstream/<folder>/`` by their own sha256."""
    for files in upstream_sets():
        source = catalog.SOURCES[files.source]
        pinned = []
        for entry in source.files:
            copy = data_dir / "upstream" / files.folder / entry.path
            if entry.path in files.paths and copy.is_file():
                entry = replace(entry, sha256=hashlib.sha256(copy.read_bytes()).hexdigest())
            pinned.append(entry)
        patch.setitem(catalog.SOURCES, files.source, replace(source, files=tuple(pinned)))
