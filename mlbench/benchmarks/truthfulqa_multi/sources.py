"""Where TruthfulQA-Multi's data lives upstream, pinned (the professional translations on
GitHub, the machine translations on the hub)."""

from __future__ import annotations

from mlbench.data.catalog import PinnedFile, Source, add_sources
from mlbench.data.untrusted.upstream import UpstreamFiles


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


HUMAN = Source(
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
)
MACHINE = Source(
    "truthfulqa-multi-MT",
    ("truthfulqa_multi_mt",),
    "hub",
    "HiTZ/truthfulqa-multi-MT",
    "main",
    "Apache-2.0",
    notes="config = language; machine-translated twin of truthfulqa-multi",
)
# The authors' judge script (docs/judges.md#truthfulqa-multis-judge-protocols), read for
# -J protocol=authors, never run: a source of its own at the data's commit, so a data cache
# fetched before mlbench read it stays whole.
JUDGE_SCRIPT = "judge/run_experiments/llm_evaluate.py"
JUDGE_CODE = Source(
    "truthfulqa-multi-code",
    ("truthfulqa_multi", "truthfulqa_multi_mt"),
    "github",
    HUMAN.repo,
    HUMAN.revision,
    HUMAN.license,
    (PinnedFile(JUDGE_SCRIPT, "ea2714807045bb78462d89aa3cb3a2c54e66f83d9a0cc3d69f4336d7951c4db2"),),
    notes="the authors' judge script (Python, read without running it)",
)
add_sources(HUMAN, MACHINE, JUDGE_CODE)
JUDGE_UPSTREAM = UpstreamFiles(
    "truthfulqa_multi",
    JUDGE_CODE.name,
    "truthfulqa-multi",
    (JUDGE_SCRIPT,),
    instead="-J protocol=trained",
    reads="-J protocol=authors's judge",
)
# The authors' split of TruthfulQA into universal and local questions (read by
# benchmarks/scope_map.py for every aligned benchmark): the 288 rows VeritasQA kept, each
# with its VeritasQA id. Added after the data's commit, so pinned at the commit that holds it.
SCOPE = Source(
    "truthfulqa-multi-scope",
    ("truthfulqa_multi", "truthfulqa_multi_mt", "veritasqa"),
    "github",
    HUMAN.repo,
    "11fe747386ff73f332c16fb7e05a924283212c0d",
    HUMAN.license,
    (
        PinnedFile(
            "analysis/cultural_nuances/veritasqa.csv",
            "0145d87f15a8e3583349f0325405cc7d0368061368e950011899dad5f7c02475",
            rows=288,
        ),
    ),
    notes="the authors' map of TruthfulQA's universal questions to VeritasQA's (labels.scope)",
)
add_sources(SCOPE)
