"""Where each benchmark's data lives upstream, pinned: repository, revision, files, hashes.

Each benchmark package declares its sources (``mlbench/benchmarks/<name>/sources.py``) and
adds them here with ``add_sources`` when it is imported; this module names no benchmark.
A source is fetched as its home lays it out, so the loaders that read a ``--data-dir``
copy of the upstream repository read the cache too. GitHub sources name their files;
hub sources take every data file of the revision, listed by the hub's API, which also
gives each file's hash (sha256 for LFS files, the git blob id otherwise).

A revision that is a branch (``main``) is resolved to its commit when first fetched and
that commit is kept in the cache's lock; likewise a file whose sha256 is not written here
gets it recorded then, and every later check holds the file to it. ``mlbench data list``
says which sources are pinned here and which were pinned on fetch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote

from mlbench.errors import MlbenchError, clipped, did_you_mean

Home = Literal["github", "hub"]


@dataclass(frozen=True)
class PinnedFile:
    path: str  # inside the repository, as its home lays it out
    sha256: str | None = None  # None: recorded on first fetch
    rows: int | None = None  # rows (JSON array items, sheet rows, parquet rows) when known


@dataclass(frozen=True)
class Source:
    name: str  # what `mlbench data fetch NAME` takes
    tasks: tuple[str, ...]
    home: Home
    repo: str  # GitHub owner/name, or hub dataset id
    revision: str  # a commit, or a branch resolved and locked at first fetch
    license: str
    files: tuple[PinnedFile, ...] = ()  # hub sources: empty, the revision's data files are listed
    rows: int | None = None  # all data files together, when known
    size_mb: float | None = None  # download size, for the listing
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def pinned_commit(self) -> bool:
        return len(self.revision) == 40 and all(c in "0123456789abcdef" for c in self.revision)

    def home_url(self) -> str:
        if self.home == "hub":
            return f"https://huggingface.co/datasets/{self.repo}"
        return f"https://github.com/{self.repo}"

    def file_url(self, base: str, revision: str, path: str) -> str:
        """Where one file of ``revision`` is downloaded from (``base``: the site's root)."""
        if self.home == "hub":
            return f"{base}/datasets/{self.repo}/resolve/{revision}/{quote(path)}"
        return f"{base}/{self.repo}/{revision}/{quote(path)}"

    def pinned(self, path: str) -> PinnedFile | None:
        return next((f for f in self.files if f.path == path), None)


SOURCES: dict[str, Source] = {}


def add_sources(*sources: Source) -> None:
    """Make ``sources`` known to ``mlbench data`` and the loaders (a benchmark's import does this)."""
    for source in sources:
        existing = SOURCES.get(source.name)
        if existing is not None and existing != source:
            raise MlbenchError(f"two data sources are called {source.name!r}")
        SOURCES[source.name] = source


def get_source(name: str) -> Source:
    if name in SOURCES:
        return SOURCES[name]
    by_task = [s for s in SOURCES.values() if name in s.tasks]
    if by_task:
        return by_task[0]
    names = [*SOURCES, *(task for source in SOURCES.values() for task in source.tasks)]
    given = clipped(repr(name))
    raise MlbenchError(f"unknown data source {given}{did_you_mean(name, names)}; known: {', '.join(sorted(SOURCES))}")


def data_licence(task: str) -> str:
    """The licence of a task's data: its source's (the one named after it, else the first
    that lists it); "" where the catalog has none."""
    named = [s for s in SOURCES.values() if s.name == task] or [s for s in SOURCES.values() if task in s.tasks]
    return named[0].license if named else ""


def sources_of(names: list[str]) -> list[Source]:
    """Sources by name or task name, in the order given (a task's name brings every source
    it reads: MSQAD's data and its authors' code); none given = every source."""
    if not names:
        return [SOURCES[name] for name in sorted(SOURCES)]  # an order that does not depend on imports
    chosen: list[Source] = []
    for name in names:
        for source in [get_source(name)] + [SOURCES[n] for n in sorted(SOURCES) if name in SOURCES[n].tasks]:
            if source not in chosen:
                chosen.append(source)
    return chosen
