"""The `mlbench ...` command lines shown in README.md and docs/*.md, as the tests read them:
every fenced shell block (```bash, ```sh, ```shell, ```console, or no language), `\\`
continuations joined, a leading `$ ` and `VAR=value` prefixes dropped, output lines and
other programs skipped, and `$(mlbench ...)` substitutions inside other commands kept."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHELL_BLOCKS = {"", "bash", "sh", "shell", "console"}
FENCE = re.compile(r"^\s*```\s*([\w-]*)")
ENV_PREFIX = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
SUBSTITUTION = re.compile(r"\$\(mlbench ([^)]*)\)")
# A value the docs leave to the reader: MODEL, DIR, T1, <model>, FILE.jsonl, … .
PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z0-9_]*(?:\.\w+)?|<[^>]+>|.*(?:…|\.\.\.).*)$")


@dataclass(frozen=True)
class DocCommand:
    """One command line of the docs: where it is, and its arguments after `mlbench`."""

    path: Path
    line: int
    text: str
    args: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def is_placeholder(value: str) -> bool:
    """Whether ``value`` (or each item of a comma list) is one the reader fills in."""
    return all(PLACEHOLDER.match(part.strip()) for part in value.split(","))


def shell_lines(text: str) -> list[tuple[int, str, str]]:
    """(line number, logical line, block language) of every line in a shell block of the
    markdown ``text``, with continuations joined; the number is the line where the command starts."""
    found: list[tuple[int, str, str]] = []
    language: str | None = None
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            language = None if language is not None else fence.group(1).lower()
            pending = None
            continue
        if language not in SHELL_BLOCKS:
            continue
        start, text = pending if pending else (number, "")
        text += line.strip()
        if text.endswith("\\"):
            pending = (start, text[:-1] + " ")
            continue
        pending = None
        found.append((start, text, language))
    return found


def command_args(text: str, language: str) -> list[list[str]]:
    """The mlbench commands in one logical line: the line itself when it runs mlbench, and
    each `$(mlbench ...)` inside it."""
    commands = [shlex.split(inner, comments=True) for inner in SUBSTITUTION.findall(text)]
    if language == "console":
        if not text.startswith("$ "):
            return commands  # output
        text = text[2:]
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return commands  # not a command line (output with a stray quote)
    while words and ENV_PREFIX.match(words[0]):
        words = words[1:]
    if words[:1] == ["mlbench"]:
        own = words[1:]
        if "|" in own:  # piped into another program
            own = own[: own.index("|")]
        # Redirections (`> file`, `2>&1`, `>> log`) belong to the shell, not to mlbench.
        redirect = next((i for i, word in enumerate(own) if re.match(r"^\d?>", word)), None)
        own = own[:redirect]
        commands.insert(0, own)
    return commands


def doc_commands() -> list[DocCommand]:
    return [
        DocCommand(path, number, text, tuple(args))
        for path in doc_files()
        for number, text, language in shell_lines(path.read_text(encoding="utf-8"))
        for args in command_args(text, language)
    ]


def synopsis_variants(args: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A synopsis line (`[--mode direct|adversarial|all]`) as the commands it stands for:
    brackets dropped, and the k-th command taking the k-th alternative of every `a|b|c`
    value (the first where a value has fewer), so each alternative is checked once."""
    words = [word.strip("[]") for word in args if word.strip("[]") not in ("", "…", "...")]
    choices = []
    for word in words:
        key, equals, value = word.rpartition("=") if "=" in word else ("", "", word)
        choices.append([f"{key}{equals}{alternative}" for alternative in value.split("|")])
    count = max((len(alternatives) for alternatives in choices), default=1)
    return [tuple(alts[k] if k < len(alts) else alts[0] for alts in choices) for k in range(count)]


def section(path: Path, heading: str) -> str:
    """The text of the section under ``heading`` (a `## ` line) up to the next `## ` heading."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]
