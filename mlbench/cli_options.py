"""Every CLI option, defined once and reused by each command that takes it.

`run --help` lists some sixty options. Each panel holds one concern (the model, the data,
prompts, judges, output, one benchmark's settings, an engine's) so that a reader finds an
option by what it is about, and a short metavar (N, TEXT, DIR) stands where typer would
print the type, so that each panel reads at 80 columns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

MODEL = "Model"
DATA = "Data"
GENERATION = "Prompts and generation"
JUDGE = "Judges"
RUN = "Output and run control"
OUT = RUN
CALMQA = "CaLMQA"
XLING = "XLingHealth"
MSQAD = "MSQAD"
ENGINE = "Engine (vLLM)"
SERVER = "Server (--backend openai)"
FLAG = ""  # a switch takes no value: no metavar


def package_version() -> str:
    """The installed version, from the package metadata pip wrote (what a bug report needs);
    the source's own number when mlbench runs from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mlbench")
    except PackageNotFoundError:
        from mlbench import __version__

        return __version__


def _print_version(value: bool) -> None:
    if value:
        print(f"mlbench {package_version()}")
        raise typer.Exit()


VersionOpt = Annotated[
    bool,
    typer.Option("--version", metavar=FLAG, callback=_print_version, is_eager=True, help="Print the version and exit."),
]
ModelArg = Annotated[
    str,
    typer.Option(
        "--model",
        "-m",
        metavar="NAME",
        help="HF hub id, local folder or GGUF file of a causal LM.",
        rich_help_panel=MODEL,
    ),
]
BackendOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="auto | hf | vllm | openai. auto: vllm when it imports and a GPU is visible, else hf "
        "(openai when --base-url is given).",
        rich_help_panel=MODEL,
    ),
]
DtypeOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="auto | float32 | bfloat16 | float16 (auto: float32 on CPU, the checkpoint's dtype on GPU).",
        rich_help_panel=MODEL,
    ),
]
DeviceOpt = Annotated[str, typer.Option(metavar="NAME", help="auto | cpu | cuda.", rich_help_panel=MODEL)]
BatchSizeOpt = Annotated[
    str,
    typer.Option(
        metavar="N", help="auto | N: options (MC) or prompts (generation) per forward pass.", rich_help_panel=MODEL
    ),
]
TrustRemoteCodeOpt = Annotated[
    bool,
    typer.Option("--trust-remote-code", metavar=FLAG, help="Allow model code from the hub.", rich_help_panel=MODEL),
]
TokenizerOpt = Annotated[
    Optional[str],
    typer.Option(
        metavar="NAME",
        help="Tokenizer (hub id or path) instead of the model's own: a GGUF's, or a server's for MC scoring "
        "(default: --model).",
        rich_help_panel=MODEL,
    ),
]

# The switches of a setting whose "off" is the default or rarely typed: only the "on" name
# is listed (a second column of --no-… names would take a third of an 80-column panel);
# the --no-… name still works (NoChatTemplateOpt, NoJudgeChatOpt, hidden).
ChatTemplateOpt = Annotated[
    bool,
    typer.Option(
        "--chat-template",
        metavar=FLAG,
        help="Render prompts with the model's chat template (few-shot pairs become turns).",
        rich_help_panel=GENERATION,
    ),
]
NoChatTemplateOpt = Annotated[bool, typer.Option("--no-chat-template", hidden=True)]
MaxNewTokensOpt = Annotated[
    Optional[int],
    typer.Option(
        min=1,
        metavar="N",
        help="Generated tokens per answer (default: the benchmark's own: 256 TruthfulQA-Multi, 50 VeritasQA, "
        "2048 CaLMQA).",
        rich_help_panel=GENERATION,
        show_default=False,
    ),
]
SystemPromptOpt = Annotated[
    Optional[str],
    typer.Option(metavar="TEXT", help="System message (chat) or text before the prompt.", rich_help_panel=GENERATION),
]
FewshotOpt = Annotated[
    Optional[int],
    typer.Option(
        min=0,
        metavar="N",
        help="Few-shot primer pairs (default: the benchmark's own, 6 for TruthfulQA-Multi, 0 for VeritasQA).",
        rich_help_panel=GENERATION,
    ),
]
QuestionKindOpt = Annotated[
    str,
    typer.Option("--kind", metavar="NAME", help="Which questions: specific | agnostic | all.", rich_help_panel=CALMQA),
]

TensorParallelOpt = Annotated[
    int,
    typer.Option(min=1, metavar="N", help="GPUs one model is split over (within a node).", rich_help_panel=ENGINE),
]
DataParallelOpt = Annotated[
    int,
    typer.Option(
        min=1,
        metavar="N",
        help="Model replicas, each in its own process on its own GPU(s); requests are split.",
        rich_help_panel=ENGINE,
    ),
]
GpuMemoryOpt = Annotated[
    Optional[float],
    typer.Option(
        min=0.01,
        max=1.0,
        metavar="X",
        help="Share of each GPU's memory vLLM may take (vLLM's default: 0.9).",
        rich_help_panel=ENGINE,
    ),
]
MaxModelLenOpt = Annotated[
    Optional[int],
    typer.Option(
        min=1,
        metavar="N",
        help="Context length; longer prompts are recorded as failed samples.",
        rich_help_panel=ENGINE,
    ),
]
EnforceEagerOpt = Annotated[
    bool,
    typer.Option(
        "--enforce-eager", metavar=FLAG, help="No CUDA graphs (faster start, slower run).", rich_help_panel=ENGINE
    ),
]
QuantizationOpt = Annotated[
    Optional[str],
    typer.Option(metavar="NAME", help="vLLM quantization method (awq, gptq, fp8, ...).", rich_help_panel=ENGINE),
]
ModelArgOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--model-arg",
        metavar="K=V",
        help="Passed to vllm.LLM as is (V read as JSON when it parses: 4, true, {...}); repeatable. "
        "gguf_file=NAME (any backend): the model is the GGUF file NAME in the --model folder.",
        rich_help_panel=ENGINE,
    ),
]
BaseUrlOpt = Annotated[
    Optional[str],
    typer.Option(metavar="URL", help="Server URL, e.g. http://127.0.0.1:8000/v1.", rich_help_panel=SERVER),
]
ApiKeyEnvOpt = Annotated[
    Optional[str],
    typer.Option(
        metavar="VAR",
        help="Environment variable holding the API key (default: OPENAI_API_KEY if set).",
        rich_help_panel=SERVER,
    ),
]
MaxConcurrencyOpt = Annotated[
    int, typer.Option(min=1, metavar="N", help="Requests in flight at once.", rich_help_panel=SERVER)
]
RequestTimeoutOpt = Annotated[
    float,
    typer.Option(
        min=0.001,
        metavar="SECONDS",
        help="Give up on a server request after this long (then retry it, up to 5 times).",
        rich_help_panel=SERVER,
    ),
]

TaskOpt = Annotated[
    str,
    typer.Option(
        "--task",
        "-t",
        metavar="LIST",
        help="Benchmark name(s), comma-separated; see `mlbench tasks`.",
        rich_help_panel=DATA,
    ),
]
LangOpt = Annotated[
    str,
    typer.Option(
        "--lang", "-l", metavar="LIST", help="Language codes, comma-separated, or 'all'.", rich_help_panel=DATA
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="all, or one of the benchmark's modes: mc | gen; XLingHealth: correctness | consistency | "
        "verifiability; MSQAD: direct | adversarial.",
        rich_help_panel=DATA,
    ),
]
DataDirOpt = Annotated[
    Optional[Path],
    typer.Option(metavar="DIR", help="Read a local copy of the datasets instead of the hub.", rich_help_panel=DATA),
]
SampleOpt = Annotated[
    bool,
    typer.Option(
        "--sample",
        metavar=FLAG,
        help="Use the small embedded sample set (for demos and smoke tests).",
        rich_help_panel=DATA,
    ),
]
DataFileOpt = Annotated[
    Optional[Path],
    typer.Option(
        metavar="FILE",
        help="Your own questions as JSONL (id, lang, question, best_answer, correct_answers, incorrect_answers).",
        rich_help_panel=DATA,
    ),
]
LimitOpt = Annotated[
    Optional[int],
    typer.Option(
        min=1,
        metavar="N",
        help="Seeded random subset of N question ids, the same in every language.",
        rich_help_panel=DATA,
    ),
]
# --seed means something else to each command: each says what it seeds.
SeedOpt = Annotated[
    int,
    typer.Option(
        metavar="N",
        help="Seed of the --limit subset, sampled answers, bootstrap intervals and permutation tests.",
        rich_help_panel=DATA,
    ),
]
JudgeSeedOpt = Annotated[
    int, typer.Option(metavar="N", help="Seed of the judge model's sampling.", rich_help_panel=MODEL)
]
BootstrapSeedOpt = Annotated[int, typer.Option(metavar="N", help="Seed of the bootstrap intervals.")]

OutputOpt = Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="Results folder.", rich_help_panel=RUN)]
ResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume",
        metavar=FLAG,
        help="Keep the finished samples of an interrupted run and do the rest.",
        rich_help_panel=RUN,
    ),
]
OverwriteOpt = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        metavar=FLAG,
        help="Replace the results already in OUTPUT for these tasks and languages (a rerun without "
        "--resume or --overwrite is refused).",
        rich_help_panel=RUN,
    ),
]
QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        metavar=FLAG,
        help="No progress bars or tables: only errors, warnings and the last line.",
        rich_help_panel=RUN,
    ),
]
YesOpt = Annotated[
    bool,
    typer.Option(
        "--yes", metavar=FLAG, help="Go ahead with a run of more than 10,000 generations.", rich_help_panel=RUN
    ),
]
CacheDirOpt = Annotated[
    Optional[Path],
    typer.Option(
        metavar="DIR",
        help="Request cache folder (default: $MLBENCH_CACHE_DIR or ~/.cache/mlbench).",
        rich_help_panel=RUN,
    ),
]
NoCacheOpt = Annotated[
    bool,
    typer.Option("--no-cache", metavar=FLAG, help="Do not read or write the request cache.", rich_help_panel=RUN),
]
ChunkSizeOpt = Annotated[
    int, typer.Option(min=1, hidden=True, help="Samples written per step (tests use small values).")
]
