"""What a run records of its data: for the cache, the source's repository, the commit
fetched and every file's sha256; for other sources, where the data was read from."""

from __future__ import annotations

from mlbench.data.catalog import SOURCES
from mlbench.data.source import DataSource
from mlbench.data.store import read_lock
from mlbench.records.jsontypes import JsonObject


def data_record(task_name: str, source: DataSource) -> JsonObject:
    if source.kind != "hub":
        return {"kind": source.kind, **({"path": str(source.path)} if source.path is not None else {})}
    for catalog_source in SOURCES.values():
        if task_name in catalog_source.tasks:
            lock = read_lock(catalog_source)
            if lock is None:  # not fetched (e.g. a run that failed before loading)
                return {"kind": "cache", "source": catalog_source.name}
            return {
                "kind": "cache",
                "source": catalog_source.name,
                "home": catalog_source.home_url(),
                "revision": lock.commit,
                "files": {path: entry["sha256"] for path, entry in sorted(lock.files.items())},
            }
    return {"kind": "hub"}
