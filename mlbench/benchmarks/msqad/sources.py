"""Where MSQAD's data lives upstream: one JSON file per topic in its GitHub release, and
the authors' code whose prompts and refusal labels mlbench reads (a repository of its own)."""

from __future__ import annotations

from mlbench.benchmarks.msqad.loader import TOPICS
from mlbench.data.catalog import PinnedFile, Source, add_sources
from mlbench.data.untrusted.upstream import UpstreamFiles

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

# The code beside the data (docs/protocols.md#msqad): the answer prompts and the refusal
# classifier's labels, read from the files, never copied.
CODE = {
    "code/custom_answer_prompts.py": "dc1701f4f7fd6bae9db2f6245588eb3d887d7019e62b67cf30943f000773f0c0",
    "code/predict_sorry_response.py": "6c38571837ea2c0dd21920643469a2545e30e055e67e2a4504d60ebfc496918c",
}
CODE_SOURCE = Source(
    "msqad-code",
    ("msqad",),
    "github",
    "woog2ee/MSQAD",
    "f61806490e216a9adabbddd3684d95ad5573c26e",
    "none stated",
    tuple(PinnedFile(path, sha256) for path, sha256 in CODE.items()),
    notes="the authors' prompts and refusal labels (Python, read without running it)",
)
add_sources(CODE_SOURCE)
UPSTREAM = UpstreamFiles("msqad", CODE_SOURCE.name, "msqad", tuple(CODE))
