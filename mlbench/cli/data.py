"""``mlbench data``: the benchmarks' data in mlbench's cache — list, fetch, verify, path."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mlbench.cli import options as opt
from mlbench.cli.errors import user_errors
from mlbench.cli.listing_json import JsonOpt, SourceState
from mlbench.errors import terminal_line

if TYPE_CHECKING:
    from mlbench.data.catalog import Source
    from mlbench.data.store import Lock

data_app = typer.Typer(
    help="The benchmarks' data, pinned and hash-checked, in $MLBENCH_DATA_DIR (default ~/.cache/mlbench/data).",
    no_args_is_help=True,
    add_completion=False,
)

NamesArg = Annotated[
    list[str] | None, typer.Argument(help="Sources or task names (default: every source).", show_default=False)
]


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _revision(source: Source, lock: Lock | None) -> str:
    if source.pinned_commit:
        return source.revision[:12]
    if lock is not None and lock.revision == source.revision:
        return f"{source.revision} → {lock.commit[:12]} (locked at fetch)"
    return f"{source.revision} (locked at fetch)"


def discover_benchmarks(include: list[Path] | None = None) -> None:
    """Every benchmark, and those of ``--include``: each adds its data sources to the
    catalog (a declared benchmark with a hub ``[source]`` is one)."""
    from mlbench.benchmarks import discover, include_files

    discover()
    include_files(include or [])


@data_app.command("list")
@user_errors
def list_sources(include: opt.IncludeOpt = None, as_json: JsonOpt = False) -> None:
    """Every data source: where it comes from, its pinned revision, license, and whether it is cached."""
    from mlbench.cli.app import wide_console
    from mlbench.data.catalog import SOURCES

    discover_benchmarks(include)  # each benchmark adds its sources to the catalog
    from mlbench.data.store import data_root

    entries = [source_state(source) for source in sorted(SOURCES.values(), key=lambda source: source.name)]
    if as_json:
        from mlbench.cli.listing_json import dumps, source_json

        print(dumps({"data_dir": str(data_root()), "sources": [source_json(entry) for entry in entries]}))
        return
    from mlbench.cli.layout import Column, Listing

    columns = ("source", "tasks", "home", "revision", "license", "files", "size", "cached")
    # Eight columns of names and URLs: a table only where each fits whole, else a block each.
    listing = Listing(f"mlbench data ({data_root()})", [Column(c, no_wrap=c in ("source", "cached")) for c in columns])
    listing.table_from = TABLE_FROM
    for entry in entries:
        source = entry.source
        home = f"{source.home}: {source.repo}"
        listing.add(
            source.name, list(source.tasks), home, entry.revision, source.license, entry.files, entry.size, entry.state
        )
    wide_console().print(listing)


# Narrower consoles get `mlbench data list` as one block per source.
TABLE_FROM = 120


def source_state(source: Source) -> SourceState:
    """A source as the cache holds it: cached or not, its files and size."""
    from mlbench.data.store import cached_folder, read_lock

    lock = read_lock(source)
    cached = cached_folder(source) is not None
    # Some of a hub dataset's configs, fetched by runs of some of its languages.
    part = lock is not None and lock.revision == source.revision and not lock.complete()
    pinned = sum(1 for f in source.files if f.sha256)
    size_bytes = None
    if lock is not None and (cached or part):
        recorded = len(lock.files) - pinned
        files = f"{len(lock.files)} ({pinned} sha256 pinned here" + (f", {recorded} at fetch)" if recorded else ")")
        size_bytes = lock.size_bytes()
        size = _megabytes(size_bytes)
    else:
        files = f"{len(source.files)} ({pinned} sha256 pinned here)" if source.files else "listed by the hub"
        size = "—"
    state = "yes" if cached else "part" if part else "stale" if lock is not None else "no"
    return SourceState(
        source, state, _revision(source, lock), lock.commit if lock is not None else None, files, size, size_bytes,
        dict(lock.files) if lock is not None else None,
    )  # fmt: skip


@data_app.command()
@user_errors
def fetch(
    names: NamesArg = None,
    force: Annotated[bool, typer.Option("--force", help="Download again even when cached.")] = False,
    include: opt.IncludeOpt = None,
) -> None:
    """Download sources into the cache, checking every file's hash."""
    from mlbench.data.catalog import sources_of

    discover_benchmarks(include)  # each benchmark adds its sources to the catalog
    from mlbench.data.progress import download_progress
    from mlbench.data.store import cached_folder
    from mlbench.data.store import fetch as fetch_source

    for source in sources_of(names or []):
        if not force and cached_folder(source) is not None:
            print(f"{source.name}: cached")
            continue
        with download_progress(source.name) as report:
            lock = fetch_source(source, force=force, on_bytes=report)
        size = lock.size_bytes()
        print(f"{source.name}: {len(lock.files)} file(s), {_megabytes(size)}, {source.repo}@{lock.commit[:12]}")


@data_app.command()
@user_errors
def verify(names: NamesArg = None, include: opt.IncludeOpt = None) -> None:
    """Re-hash cached files and count their rows; exit 1 when anything is off."""
    from mlbench.data.catalog import sources_of

    discover_benchmarks(include)  # each benchmark adds its sources to the catalog
    from mlbench.data.store import read_lock
    from mlbench.data.verify import verify as verify_source

    chosen = sources_of(names or [])
    if not names:  # everything cached; naming a source that is not is a failure
        chosen = [s for s in chosen if read_lock(s) is not None]
        if not chosen:
            print("nothing cached yet: mlbench data fetch [SOURCE…]")
            return
    failed = False
    for source in chosen:
        verdict = verify_source(source)
        if verdict.ok:
            print(f"{source.name}: ok ({verdict.files} file(s), {verdict.rows:,} rows)")
        else:
            failed = True
            for problem in verdict.problems:
                print(terminal_line(f"{source.name}: {problem}"), file=sys.stderr)
    if failed:
        raise typer.Exit(1)


@data_app.command()
@user_errors
def path(name: Annotated[str, typer.Argument(help="A source or task name.")], include: opt.IncludeOpt = None) -> None:
    """Print the folder holding a source's files (fetched first if needed); it can be given to --data-dir."""
    from mlbench.data.store import source_folder

    discover_benchmarks(include)  # each benchmark adds its sources to the catalog

    print(source_folder(name))
