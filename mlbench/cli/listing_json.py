"""What ``--json`` prints for the listing commands (``tasks``, ``tasks NAME``, ``data list``):
one JSON object on stdout for scripts, with the same facts as the tables and nothing cut.

Every object carries ``schema_version``. Its keys only grow within a version: a key is
renamed, removed or given another meaning only with a new version, as the run files do
(``records/version.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, cast

import typer

from mlbench.benchmarks.base import Task
from mlbench.cli.task_info import PRODUCES, mode_metrics, prompt_paths
from mlbench.data.catalog import Source, data_licence
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.options import describe_options

# The layout of the listing commands' --json output (independent of the run files').
LISTING_SCHEMA_VERSION = 1

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON for scripts (with schema_version) instead of the table.")
]


def dumps(payload: JsonObject) -> str:
    """``payload`` with its ``schema_version`` first, indented, non-ASCII kept."""
    return json.dumps({"schema_version": LISTING_SCHEMA_VERSION, **payload}, indent=2, ensure_ascii=False)


def options_json(kind: type | None) -> list[JsonValue]:
    """An options dataclass's fields: name, type, default (a JSON value), choices (null
    when any value of the type), help."""
    # cast: describe_options gives each default as JSON (None, a bool, a number, text or a list).
    return [
        {
            "name": o.name,
            "type": o.type,
            "default": cast("JsonValue", o.value),
            "choices": list(o.choices) or None,
            "help": o.help,
        }
        for o in describe_options(kind)
    ]


def catalog_json(source: Source) -> JsonObject:
    """What the catalog says of a data source, without looking at the cache."""
    return {
        "name": source.name,
        "tasks": list(source.tasks),
        "home": source.home,
        "repo": source.repo,
        "url": source.home_url(),
        "revision": source.revision,
        "pinned_commit": source.pinned_commit,
        "license": source.license,
        "rows": source.rows,
        "size_mb": source.size_mb,
        "notes": source.notes,
    }


def task_json(task: Task, sources: list[Source]) -> JsonObject:
    """Everything ``mlbench tasks NAME`` shows of ``task``."""
    return {
        "name": task.name,
        "title": task.title,
        "languages": list(task.languages),
        "modes": [
            {
                "name": m.name,
                "produces": m.produces,
                "produces_text": PRODUCES.get(m.produces, m.produces),
                "metrics": [*mode_metrics(task, m)],
            }
            for m in task.modes
        ],  # fmt: skip
        "default_shots": task.default_fewshot,
        "headline_metrics": list(task.headline_metrics),
        "judge_kinds": list(task.default_judge_kinds),
        "judge_protocols": list(task.judge_protocols),
        "prompt_files": [*prompt_paths(task)],
        "options": options_json(task.options_type),
        "hub_id": task.hub_id or None,
        "license": data_licence(task.name) or None,
        "data_sources": [catalog_json(s) for s in sources if task.name in s.tasks],
        # How its questions map to TruthfulQA's rows; null: not a translation of TruthfulQA.
        "alignment": (
            None
            if task.alignment is None
            else {
                "aligned": task.alignment.aligned,
                "how": task.alignment.how,
                "translation": task.alignment.translation or None,
                "translator": task.alignment.translator or None,
            }
        ),
    }


@dataclass(frozen=True)
class SourceState:
    """A data source as the cache holds it (``mlbench data list``)."""

    source: Source
    state: str  # yes (cached), no, stale (a lock without its files)
    revision: str  # as listed: the pinned commit, or the branch and what it was locked at
    locked_commit: str | None
    files: str  # as listed
    size: str  # as listed ("—" when not cached)
    size_bytes: int | None  # of the cached files
    fetched: dict[str, JsonObject] | None = None  # the lock's files (path → sha256, size), once fetched


def source_json(entry: SourceState) -> JsonObject:
    source = entry.source
    return {
        **catalog_json(source),
        "locked_commit": entry.locked_commit,
        "files": [{"path": f.path, "sha256": f.sha256, "rows": f.rows} for f in source.files],
        "files_listed_by_hub": not source.files,
        "fetched_files": [{"path": path, **entry} for path, entry in entry.fetched.items()] if entry.fetched else None,
        "cached": entry.state == "yes",
        "cache_state": entry.state,
        "size_bytes": entry.size_bytes,
    }
