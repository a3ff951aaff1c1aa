"""Where VeritasQA's data lives upstream (the hub; the revision is locked at first fetch)."""

from __future__ import annotations

from mlbench.data.catalog import Source, add_sources

SOURCE = Source(
    "veritasqa",
    ("veritasqa",),
    "hub",
    "projecte-aina/veritasQA",
    "main",
    "Apache-2.0",
    rows=4 * 353,
    notes="parquet, one split per language; may be gated: set HF_TOKEN",
)
add_sources(SOURCE)
