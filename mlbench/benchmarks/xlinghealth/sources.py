"""Where XLingHealth's data lives upstream: three workbooks in the XLingEval repository, and
the authors' code whose prompts mlbench reads (``authors_prompts.py``), at the same commit."""

from __future__ import annotations

from mlbench.data.catalog import PinnedFile, Source, add_sources
from mlbench.data.untrusted.upstream import UpstreamFiles

XLINGHEALTH_FOLDER = "XLingHealth_Dataset"
# The authors' files that hold XLingHealth's prompts (docs/protocols.md#xlinghealth), each
# pinned by its sha256 at the commit of the data.
CODE = {
    "correctness/correctness_get_gpt_answer.py": "5092f300f3597969de2f24c6d8f9f4752fa3f2258749176efcfd7bfdd47eff2c",
    "correctness/correctness_answer_evaluation.py": "091d540abee45deb9044fdccd88863d190c40add4900da8e06d65878e2d33191",
    "correctness/MedAlpaca/correctness_medalpaca_get_answers.py": (
        "6c37a7f4018f55bb18e9aad00940e6f24d5aa72f87750a716e7ad2f3e980e3de"
    ),
    "correctness/MedAlpaca/medalpaca_accuracy_prompt.json": (
        "8d203f0d4335d7e780a672c7b6f2fa777c368ae41f6cedd17a142ef98bd27d82"
    ),
    "consistency/prompts.py": "a480a30f53f114b5423e692345fa9bbbdeda870d06a9e80839bcc11ad2bd3e11",
    "consistency/consistency_get_medalpaca_answer.py": (
        "5be69b229ff8c61b44ee1319d99ea1e520b2e7497e5f5838d1da983496eccc4c"
    ),
    "consistency/Medalpaca/prompt_templates/medalpaca_consistency.json": (
        "13ac57e054039feea341a4dcd5a2289b38a519c05bb73f3308d6b7ac1cafd214"
    ),
    "verifiability/prompts.py": "f4dcb32ae374bc79f0cc209db49466361cd048a328d3ba36537d47f8168daae8",
    "verifiability/verifiability_get_answer.py": "ab3fbcb5f15619d8440458c65cd21f8e2651c652c819193a24e739ca1360c82b",
    "utils/utils_chatgpt.py": "b32b53ca63c5bd8a530d4cf30bd147962b7c59d3a8159ac79845d07dd62e559f",
}

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
# A source of its own (the same repository and commit): a cache of the data fetched before
# mlbench read the code stays whole, and `mlbench data fetch xlinghealth` brings both.
CODE_SOURCE = Source(
    "xlinghealth-code",
    ("xlinghealth",),
    "github",
    SOURCE.repo,
    SOURCE.revision,
    SOURCE.license,
    tuple(PinnedFile(path, sha256) for path, sha256 in CODE.items()),
    notes="the authors' prompts and MedAlpaca templates (Python and JSON, read without running it)",
)
add_sources(SOURCE, CODE_SOURCE)
UPSTREAM = UpstreamFiles("xlinghealth", CODE_SOURCE.name, "xlinghealth", tuple(CODE))
