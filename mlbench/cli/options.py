"""Every CLI option, defined once and reused by each command that takes it.

`run --help` lists some fifty options in under 100 lines at 80 columns (tests/test_cli_help.py).
Each panel holds one concern (the model, the data, prompts, judges, output, an engine's) so
that a reader finds an option by what it is about; help texts are one line where they can
be, a short metavar (N, TEXT, DIR) stands where typer would print the type, and ranges are
checked by ``at_least`` rather than typer's min/max, which would print ``[x>=1]`` beside it.
A benchmark's own options are not here: they are ``-T key=value`` (``mlbench tasks NAME``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional

import typer

from mlbench.errors import clipped
from mlbench.records.options import SEED_MAX, decimal_number, digits_hint, whole_number

MODEL = "Model"
DATA = "Data"
GENERATION = "Prompts and generation"
JUDGE = "Judges"
RUN = "Output and run control"
OUT = RUN
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


def at_least(
    least: float, kind: type = int, most: float | None = None, *, above: bool = False
) -> Callable[[object], float]:
    """A typer parser for a finite number in [least, most] (``above``: more than ``least``):
    checked like typer's min/max, without the ``[x>=1]`` it would print beside each metavar
    (80 columns have no room for it). Infinity and NaN are refused: no bound means the flag
    left out, and an infinite one overflows the arithmetic that reads it."""
    what = "a whole number" if kind is int else "a number"

    def parse(value: object) -> float:  # an int where ``kind`` is int
        # The digits 0-9 only, as -M/-T/-J read them: int() and float() also read ١٢ and 1_000.
        text = str(value)
        number = whole_number(text) if kind is int else decimal_number(text)
        if number is None:
            raise ValueError(f"{clipped(repr(value))} is not {what}{digits_hint(text)}")
        if isinstance(number, float) and not math.isfinite(number):  # an int is finite (and may exceed floats)
            raise ValueError(f"{clipped(str(value))} is not a finite number (leave the flag out for no bound)")
        if number < least or (above and number == least) or (most is not None and number > most):
            bounds = f"more than {least:g}" if above else f"at least {least}"
            bounds = f"between {least} and {most}" if most is not None else bounds
            raise ValueError(f"{clipped(str(value))} must be {bounds}")  # cli.errors.bad_value_line: "--limit: ..."
        return number

    parse.__name__ = what.split()[-1]
    return parse


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
    typer.Option("--model", "-m", metavar="NAME", help="Hub id, folder or .gguf file.", rich_help_panel=MODEL),
]
BackendOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="auto | hf | vllm | openai (auto: vllm with a GPU, else hf).",
        rich_help_panel=MODEL,
        show_default=False,
    ),
]
ModelOptionOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--model-option",
        "-M",
        metavar="K=V",
        help="A backend's own option, repeatable (`mlbench backends NAME`).",
        rich_help_panel=MODEL,
        show_default=False,
    ),
]
DtypeOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        help="auto | float32 | bfloat16 | float16 (auto: float32 on CPU).",
        rich_help_panel=MODEL,
        show_default=False,
    ),
]

# The switches of a setting whose "off" is the default or rarely typed: only the "on" name
# is listed (a second column of --no-… names would take a third of an 80-column panel);
# the --no-… name still works (NoChatTemplateOpt, NoJudgeChatOpt, hidden).
ChatTemplateOpt = Annotated[
    bool,
    typer.Option(
        "--chat-template", metavar=FLAG, help="Prompt with the model's chat template.", rich_help_panel=GENERATION
    ),
]
NoChatTemplateOpt = Annotated[bool, typer.Option("--no-chat-template", hidden=True)]
MaxNewTokensOpt = Annotated[
    Optional[int],
    typer.Option(
        parser=at_least(1),
        metavar="N",
        help="Tokens per answer (default: the benchmark's).",
        rich_help_panel=GENERATION,
        show_default=False,
    ),
]
SystemPromptOpt = Annotated[
    Optional[str],
    typer.Option(metavar="TEXT", help="System message, or text before the prompt.", rich_help_panel=GENERATION),
]
FewshotOpt = Annotated[
    Optional[int],
    typer.Option(
        parser=at_least(0), metavar="N", help="Primer pairs (default: the benchmark's).", rich_help_panel=GENERATION
    ),
]


TaskOpt = Annotated[
    str,
    typer.Option("--task", "-t", metavar="LIST", help="Benchmarks (`mlbench tasks`).", rich_help_panel=DATA),
]
LangOpt = Annotated[
    str,
    typer.Option(
        "--lang",
        "-l",
        metavar="LIST",
        help="Languages, comma-separated (default: all).",
        rich_help_panel=DATA,
        show_default=False,
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        metavar="NAME", help="One of the benchmark's modes (default: all).", rich_help_panel=DATA, show_default=False
    ),
]
TaskOptionOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--task-option",
        "-T",
        metavar="K=V",
        help="A benchmark's own option, repeatable (`mlbench tasks NAME`).",
        rich_help_panel=DATA,
        show_default=False,
    ),
]
DataDirOpt = Annotated[
    Optional[Path], typer.Option(metavar="DIR", help="A local copy of the datasets.", rich_help_panel=DATA)
]
IncludeOpt = Annotated[
    Optional[list[Path]],
    typer.Option(
        "--include",
        metavar="PATH",
        help="Your own benchmarks: .py, .toml, or a folder (repeatable).",
        rich_help_panel=DATA,
    ),
]
SampleOpt = Annotated[
    bool,
    typer.Option("--sample", metavar=FLAG, help="The small embedded sample set (smoke tests).", rich_help_panel=DATA),
]
DataFileOpt = Annotated[
    Optional[Path],
    typer.Option(metavar="FILE", help="Your own questions as JSONL (docs/data.md).", rich_help_panel=DATA),
]
LimitOpt = Annotated[
    Optional[int],
    typer.Option(
        parser=at_least(1),
        metavar="N",
        help="A seeded subset of N question ids, the same in every language (of a translation of TruthfulQA: N of its rows).",
        rich_help_panel=DATA,
    ),
]
# --seed means something else to each command: each says what it seeds.
SeedOpt = Annotated[
    int,
    typer.Option(
        # Checked here, so that a bad seed (flag or run file) stops before a model loads.
        parser=at_least(0, most=SEED_MAX),
        metavar="N",
        help="Seed of the --limit subset, sampling, statistics.",
        rich_help_panel=DATA,
        show_default=False,
    ),
]
BootstrapSeedOpt = Annotated[
    int, typer.Option(parser=at_least(0, most=SEED_MAX), metavar="N", help="Seed of the bootstrap intervals.")
]

OutputOpt = Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="Results folder.", rich_help_panel=RUN)]
ResumeOpt = Annotated[
    bool,
    typer.Option("--resume", metavar=FLAG, help="Keep an interrupted run's samples; do the rest.", rich_help_panel=RUN),
]
OverwriteOpt = Annotated[
    bool,
    typer.Option("--overwrite", metavar=FLAG, help="Replace results already in OUTPUT.", rich_help_panel=RUN),
]
QuietOpt = Annotated[
    bool,
    typer.Option("--quiet", "-q", metavar=FLAG, help="Only errors, warnings and the last line.", rich_help_panel=RUN),
]
YesOpt = Annotated[
    bool, typer.Option("--yes", metavar=FLAG, help="Go ahead with over 10,000 generations.", rich_help_panel=RUN)
]
CacheDirOpt = Annotated[
    Optional[Path],
    typer.Option(
        metavar="DIR", help="Request cache (default: $MLBENCH_CACHE_DIR or ~/.cache/mlbench).", rich_help_panel=RUN
    ),
]
NoCacheOpt = Annotated[
    bool, typer.Option("--no-cache", metavar=FLAG, help="Do not use the request cache.", rich_help_panel=RUN)
]
ChunkSizeOpt = Annotated[
    Optional[int],
    typer.Option(
        parser=at_least(1),
        hidden=True,
        help="Samples written per step (tests use small values).",
    ),
]
# Budgets of API runs (engine/budget.py): reached, the run stops like Ctrl-C, exit 3.
MaxCostOpt = Annotated[
    Optional[float],
    typer.Option(
        parser=at_least(0.0, float, above=True),
        metavar="USD",
        help="Stop at this API cost (-M prices).",
        rich_help_panel=RUN,
    ),
]
MaxTokensOpt = Annotated[
    Optional[int],
    typer.Option(parser=at_least(1), metavar="N", help="Stop after this many API tokens.", rich_help_panel=RUN),
]
