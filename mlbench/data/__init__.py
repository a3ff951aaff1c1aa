"""mlbench's own copies of the benchmarks' data: pinned sources (``catalog``), downloads
(``http``, ``remote``), the cache (``store``), and checks (``verify``)."""

from __future__ import annotations

from pathlib import Path


def source_folder(name: str) -> Path:
    """The local folder of data source (or task) ``name``, laid out as its home ships it;
    fetched into the data cache, with a progress bar, on first use."""
    # Imported here: the catalog reads loader constants, and loaders call this function.
    from mlbench.data.store import source_folder as fetched_folder

    return fetched_folder(name)
