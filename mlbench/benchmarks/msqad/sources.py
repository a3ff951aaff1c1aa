"""Where MSQAD's data lives upstream: one JSON file per topic in its GitHub release."""

from __future__ import annotations

from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.data.catalog import PinnedFile, Source, add_sources

# The four topics public when these hashes were taken; the other thirteen get theirs at fetch.
_KNOWN = {
    "Crisis and Conflict": ("63e158b10fb199131999e2a6d4d1dfce8dd307d942cb5b0e15f71536dca5d246", 364),
    "Disability Rights": ("a39afb11e413e3db42019719197a209914d6ad7a84bfba17fe1b56d95d2d2935", 775),
    "Environment and Human Rights": ("8b1b29d2c0cc42d7e2c040c1f5e6927f16e4225086b7134e1742f88a65cac91f", 678),
    "Rights of Older People": ("dd112456a49e93437a8ea490baea53314d62033cd094d16d8bedcd6f31f9d00b", 136),
}
MSQAD_FOLDER = "MSQAD/gpt-3.5-turbo-0125"

SOURCE = Source(
    "msqad",
    ("msqad",),
    "github",
    "seungukyu/MSQAD",
    "main",
    "none stated",
    tuple(PinnedFile(f"{MSQAD_FOLDER}/{topic}.json", *_KNOWN.get(topic, (None, None))) for topic in TOPICS),
    notes="17 Human Rights Watch topics, UTF-8 with BOM",
)
add_sources(SOURCE)
