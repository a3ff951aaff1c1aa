"""Text from files and flags in the console: a task's, a language's, a
template's and a model's name, a label file's groups and columns, warnings and notes are
shown with their control characters as escapes, cut short, and never read as rich markup;
in a real terminal, tests/hostile/test_terminal_text.py."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from mlbench.cli.console import LABEL_CHARS, RichObserver, agreement_table, progress_label
from mlbench.errors import LINE_CHARS
from mlbench.records import LanguageResult, MetricValue, RunResult
from mlbench.stats.agreement import Agreement

# A screen clear, a window title, a bell, rich markup and a right-to-left override.
HOSTILE = "x\x1b[2J\x1b]0;title\x07[bold red]y\u202e"
RAW = ("\x1b[2J", "\x1b]0;", "\x07", "\u202e")
VISIBLE = "x\\x1b[2J\\x1b]0;title\\x07[bold red]y\\u202e"


def _terminal() -> Console:
    """A console that writes what a colour terminal gets (escape sequences of its own)."""
    return Console(width=200, force_terminal=True, color_system="truecolor", file=io.StringIO())


def _shown(console: Console) -> str:
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert not [raw for raw in RAW if raw in text], repr(text)
    return text


def _run(model: str) -> RunResult:
    value = MetricValue(0.5, 0.4, 0.6, 0.05)
    templates = {HOSTILE: LanguageResult("en", 3, {"mc1": value})}
    return RunResult(model, "veritasqa", {}, {"en": LanguageResult("en", 3, {"mc1": value}, templates=templates)})


def test_a_progress_label_is_escaped_cut_and_no_markup():
    label = Text.from_markup(progress_label(HOSTILE, "de" + "z" * 500)).plain  # rich reads it as markup
    assert label.startswith(f"{VISIBLE} dezzz") and label.endswith("… (502 characters)")
    assert len(label) < 2 * LABEL_CHARS + len(" (502 characters)")
    console = _terminal()
    observer = RichObserver(console)
    advance = observer.start(HOSTILE, HOSTILE, 4, 0)
    advance(2)
    observer.generated(HOSTILE, HOSTILE, 100, 1.0)
    observer.close()
    shown = _shown(console)
    assert VISIBLE in shown


def test_stage_lines_and_the_summary_show_names_as_written():
    console = _terminal()
    observer = RichObserver(console)
    observer.start(HOSTILE, HOSTILE, 1, 0)(1)
    observer.finish(_run(f"/models/{HOSTILE}"), ["mc1"])
    observer.print_summaries()
    shown = _shown(console)
    assert f"mlbench: {VISIBLE}: {VISIBLE} done in" in shown  # the stage line
    assert f"/models/{VISIBLE}" in shown and f"  {VISIBLE}" in shown  # the title, the template's row


def test_warnings_and_notes_are_one_bounded_line(capsys: pytest.CaptureFixture[str]):
    console = _terminal()
    observer = RichObserver(console)
    observer.warn(f"{HOSTILE}\nsecond line " + "w" * 5000 + " the end")
    observer.note(f"{HOSTILE} " + "n" * 5000 + " the end")
    warned = capsys.readouterr().err
    assert warned.count("\n") == 1 and VISIBLE in warned and warned.rstrip().endswith("the end")
    assert len(warned) < LINE_CHARS + 100 and not [raw for raw in RAW if raw in warned]
    shown = _shown(console)
    assert VISIBLE in shown and "characters left out" in shown and shown.rstrip().endswith("the end")


def test_an_agreement_table_shows_a_label_files_names_as_written():
    console = _terminal()
    console.print(agreement_table([Agreement(HOSTILE, 3, 0, 0, 1.0, 1.0, 1.0, 1.0)], HOSTILE, "judge"))
    assert _shown(console).count(VISIBLE) >= 3  # the title, a column and the group
