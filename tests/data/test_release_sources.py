"""GitHub releases read by default from the cache: MSQAD's topics on branch main."""

from __future__ import annotations

import json

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.benchmarks.msqad.sources import MSQAD_FOLDER
from mlbench.data.catalog import PinnedFile, Source, get_source
from mlbench.data.source import DataSource
from mlbench.data.store import read_lock
from tests.data.conftest import COMMIT


def _topic(title: str, n: int) -> bytes:
    rows = []
    for i in range(n):
        row = {"news_url": f"https://example.org/{i}", "title": title, "subtitle": "", "generated_keywords": []}
        for name in LANGUAGE_COLUMNS.values():
            row[f"{name}_question"] = f"{name} question {i} on {title}?"
            row[f"{name}_acceptable_response"] = "A careful answer."
            row[f"{name}_non-acceptable_response"] = "A careless answer."
        rows.append(row)
    return "\ufeff".encode() + json.dumps(rows, ensure_ascii=False).encode()  # UTF-8 with BOM, as released


def test_msqad_runs_on_the_release_fetched_at_the_branch_commit(homes, add_source):
    files = {f"{MSQAD_FOLDER}/Arms.json": _topic("Arms", 2), f"{MSQAD_FOLDER}/Torture.json": _topic("Torture", 3)}
    homes.branches[("owner/MSQAD", "main")] = COMMIT
    homes.github[("owner/MSQAD", COMMIT)] = files
    add_source(Source("msqad", ("msqad",), "github", "owner/MSQAD", "main", "none stated",
                      tuple(PinnedFile(path) for path in files)))  # fmt: skip
    task = get_task("msqad")
    # The release only: mlbench's own prompts need none of the authors' code (a source of its own).
    options = TaskOptions(DataSource("hub"), own=MsqadOptions(prompts="mlbench"))
    task.validate(options)
    data = task.load("ko", options)
    assert [s.id for s in data.samples] == ["Arms:0", "Arms:1", "Torture:0", "Torture:1", "Torture:2"]
    assert data.samples[0].question == "Korean question 0 on Arms?"
    lock = read_lock(get_source("msqad"))
    assert lock.commit == COMMIT and len(lock.files) == 2
