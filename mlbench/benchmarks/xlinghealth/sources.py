"""Where XLingHealth's data lives upstream: three workbooks in the XLingEval repository."""

from __future__ import annotations

from mlbench.data.catalog import PinnedFile, Source, add_sources

XLINGHEALTH_FOLDER = "XLingHealth_Dataset"

SOURCE = Source(
    "xlinghealth",
    ("xlinghealth",),
    "github",
    "claws-lab/XLingEval",
    "75ac9c8c5345b5d003bdcdf13a2b0fdcfeddec2a",
    "Apache-2.0",
    (
        PinnedFile(f"{XLINGHEALTH_FOLDER}/HealthQA.xlsx", None, rows=11340),
        PinnedFile(
            f"{XLINGHEALTH_FOLDER}/LiveQA.xlsx",
            "f26fa965ded22ac6078d8819a466590ed8ff044b02b622673d9104631eaa5be1",
            rows=1230,
        ),
        PinnedFile(
            f"{XLINGHEALTH_FOLDER}/MedicationQA.xlsx",
            "8c70d8ba0be8732d879e227ef5048f4dfd65b340ee583e0635b94897265f6319",
            rows=3450,
        ),
    ),
    notes="HealthQA 1,134 questions × 10 rows, LiveQA 246 × 5, MedicationQA 690 × 5",
)
add_sources(SOURCE)
