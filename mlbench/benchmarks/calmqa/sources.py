"""Where CaLMQA's data lives upstream (the hub; the revision is locked at first fetch)."""

from __future__ import annotations

from mlbench.data.catalog import Source, add_sources

SOURCE = Source(
    "calmqa",
    ("calmqa",),
    "hub",
    "shanearora/CaLMQA",
    "main",
    "MIT",
    rows=1967,
    notes="one train split; language and question_type are ClassLabels",
)
add_sources(SOURCE)
