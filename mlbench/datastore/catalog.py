"""Where each benchmark's data lives upstream, pinned: repository, revision, files, hashes.

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

from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.errors import MlbenchError

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


def _tqa_files() -> tuple[PinnedFile, ...]:
    # sha256 of the files at the pinned commit (the same bytes as HF HiTZ/truthfulqa-multi).
    sums = {
        "ca": ("7d1a2c9929a0eb4d622dfeab08e0baf78e87ccaf186f251c7a67e3d000f652a0",
               "7c4daba2a2b69770779bd6b97c0840d57b61e22a8b021bd749dd6066b31bf9eb"),
        "en": ("e1106f790da49f7e962962cd6246d52a3e5c49c9fdfa980485414c6ca3a9c714",
               "7feae44809acaca86b254a7ab6c188f4f62eb40b620b61140add87ca684a5452"),
        "es": ("b8cde85ac3b44efe24ec80daa1c585607ea924f10c85293b9eae026c9bf3107a",
               "61e0cc5dc3d2ed2ef88d873550a0f193229b7a636dbdf76134f17f652edd258a"),
        "eu": ("30d21d98340ba5e695836ade232d21f3c2bfb521e1cbfec2751113cdafa62e63",
               "003f0b288593825209675bd2dffb2e899db116b84a3c5800f9cdb780bfc520d0"),
        "gl": ("ddaefc0fde4d4127a32acfed634ed6013d23b786df3dbe52f1348c790cf36cb9",
               "c23208b96b062cfcda2d9c00cbbc1021a11d4f80082a9492b4eb64889adbdebd"),
    }  # fmt: skip
    files = []
    for lang, (train, validation) in sums.items():
        files.append(PinnedFile(f"data/{lang}/train.json", train, rows=6))
        files.append(PinnedFile(f"data/{lang}/validation.json", validation, rows=817))
    return tuple(files)


# The four topics public when these hashes were taken; the other thirteen get theirs at fetch.
_MSQAD_KNOWN = {
    "Crisis and Conflict": ("63e158b10fb199131999e2a6d4d1dfce8dd307d942cb5b0e15f71536dca5d246", 364),
    "Disability Rights": ("a39afb11e413e3db42019719197a209914d6ad7a84bfba17fe1b56d95d2d2935", 775),
    "Environment and Human Rights": ("8b1b29d2c0cc42d7e2c040c1f5e6927f16e4225086b7134e1742f88a65cac91f", 678),
    "Rights of Older People": ("dd112456a49e93437a8ea490baea53314d62033cd094d16d8bedcd6f31f9d00b", 136),
}
MSQAD_FOLDER = "MSQAD/gpt-3.5-turbo-0125"
XLINGHEALTH_FOLDER = "XLingHealth_Dataset"

SOURCES: dict[str, Source] = {
    source.name: source
    for source in (
        Source(
            "truthfulqa-multi",
            ("truthfulqa_multi",),
            "github",
            "hitz-zentroa/truthfulqa-multi",
            "0cb1bbccf828d1f777405be8c5adac53f014bb7d",
            "Apache-2.0",
            _tqa_files(),
            rows=5 * 823,
            size_mb=9.6,
            notes="the data of HF HiTZ/truthfulqa-multi; train = the 6-pair primer",
        ),
        Source(
            "truthfulqa-multi-MT",
            ("truthfulqa_multi_mt",),
            "hub",
            "HiTZ/truthfulqa-multi-MT",
            "main",
            "Apache-2.0",
            notes="config = language; machine-translated twin of truthfulqa-multi",
        ),
        Source(
            "veritasqa",
            ("veritasqa",),
            "hub",
            "projecte-aina/veritasQA",
            "main",
            "Apache-2.0",
            rows=4 * 353,
            notes="parquet, one split per language; may be gated: set HF_TOKEN",
        ),
        Source(
            "calmqa",
            ("calmqa",),
            "hub",
            "shanearora/CaLMQA",
            "main",
            "MIT",
            rows=1967,
            notes="one train split; language and question_type are ClassLabels",
        ),
        Source(
            "msqad",
            ("msqad",),
            "github",
            "seungukyu/MSQAD",
            "main",
            "none stated",
            tuple(
                PinnedFile(f"{MSQAD_FOLDER}/{topic}.json", *_MSQAD_KNOWN.get(topic, (None, None))) for topic in TOPICS
            ),
            notes="17 Human Rights Watch topics, UTF-8 with BOM",
        ),
        Source(
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
        ),
    )
}


def get_source(name: str) -> Source:
    if name in SOURCES:
        return SOURCES[name]
    by_task = [s for s in SOURCES.values() if name in s.tasks]
    if by_task:
        return by_task[0]
    raise MlbenchError(f"unknown data source {name!r}; known: {', '.join(SOURCES)}")


def sources_of(names: list[str]) -> list[Source]:
    """Sources by name or task name, in the order given; none given = every source."""
    if not names:
        return list(SOURCES.values())
    chosen: list[Source] = []
    for name in names:
        source = get_source(name)
        if source not in chosen:
            chosen.append(source)
    return chosen
