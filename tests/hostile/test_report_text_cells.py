"""Issue 50, findings 15-17: text the report did not write itself (a benchmark's ``[labels]``
values, kept with each sample and shown by ``report --by LABEL``; the template names of a
results folder a user may have edited) is text to escape in every format. One line per
cell and heading in report.md, ``|`` escaped in every table, no HTML tag, no raw control
character in the terminal or in any text file, and the figures' titles cut short, so that a
100 kB label is drawn in seconds."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import mlbench.benchmarks  # noqa: F401  (fills the metric catalog)
from mlbench.records import RunResult, SampleRecord
from mlbench.results import merge_run, model_slug, write_language
from mlbench.results.aggregation import aggregate
from tests.cli.test_cli import run_cli

# A line break that forges a heading, an HTML tag, a terminal's colour codes, a carriage
# return and a bell: what a label value from someone else's data file may hold.
HOSTILE = "a|b\n# Forged <img src=x onerror=alert(1)>\x1b[31mred\x1b[0m\r\x07 end"
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # every control character but the newline
N = 40


def _sliced(root: Path, label: str) -> Path:
    """A run of truthfulqa_multi, en and es, whose odd questions' category is ``label``."""
    return _write(root, "truthfulqa_multi", ("en", "es"), lambda i: {"category": label if i % 2 else "plain"})


def _write(root: Path, task: str, langs: tuple[str, ...], labels: Callable[[int], dict[str, str]]) -> Path:
    """A run of ``task`` (mc1, mc2) whose question ``i`` carries ``labels(i)``, written as a run
    writes it (the labels go into results.json's per-question block)."""
    run_dir = root / model_slug("org/m") / task
    run_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(50)
    for lang in langs:
        records = []
        for i in range(N):
            metrics = {"mc1": float(rng.random() < 0.6), "mc2": float(rng.random())}
            record = SampleRecord(f"{lang}-{i:03d}", lang, metrics=metrics)
            record.labels = labels(i)
            record.config_hash = "hostile"
            records.append(record)
        config = {"seed": 0, "timings_s": {lang: 0.5}, "fewshot": 0}
        write_language(run_dir, aggregate(lang, records, ["mc1", "mc2"], 0), config, "hostile", [r.id for r in records])
    merge_run(run_dir, RunResult("org/m", task, {"seed": 0}, {}), "hostile", ["mc1", "mc2"], langs)
    return root


def _pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def _assert_clean_markdown(md: str) -> None:
    """One line per heading and cell: nothing forged at a line's start, no tag a renderer
    would run, no control character, and every table's rows as wide as its header."""
    lines = md.splitlines()
    assert not [line for line in lines if line.startswith("# Forged")]
    assert not CONTROL.search(md), repr(CONTROL.search(md))
    assert not re.search(r"(?<!\\)<(img|script)", md)
    tables: list[list[str]] = []
    for previous, line in zip(["", *lines], lines):
        if line.startswith("|"):
            if not previous.startswith("|"):
                tables.append([])
            tables[-1].append(line)
    assert tables
    for table in tables:
        assert {_pipes(line) for line in table} == {_pipes(table[0])}, table


def test_15_a_label_with_a_line_break_a_tag_and_escapes_stays_one_cell(tmp_path):
    root = _sliced(tmp_path / "runs", HOSTILE)
    out = tmp_path / "report"
    done = run_cli("report", root, "--by", "category", "--format", "md,csv,latex", "--out", out)
    assert done.exit_code == 0, done.output

    # The terminal: no escape sequence or carriage return; the table's title on one line.
    assert not CONTROL.search(done.output), repr(CONTROL.search(done.output))
    assert any("category=a|b" in line and "Forged" in line for line in done.output.splitlines())

    md = (out / "report.md").read_text(encoding="utf-8")
    _assert_clean_markdown(md)
    heading = [line for line in md.splitlines() if line.startswith("## truthfulqa_multi · category=a")]
    assert len(heading) == 1 and "Forged" in heading[0] and "red" in heading[0]

    text = (out / "report.csv").read_text(encoding="utf-8")
    assert not CONTROL.search(text)
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == len(text.splitlines())  # no cell runs over two lines
    assert {len(row) for row in rows} == {len(rows[0])}

    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert not CONTROL.search(tex)
    assert "<img" not in tex  # pdflatex's text fonts print < as an inverted exclamation mark
    caption = [line for line in tex.splitlines() if line.startswith(r"\caption{truthfulqa\_multi · category=a")]
    assert caption and "Forged" in caption[0]


def test_16_a_100_kB_label_is_drawn_in_seconds_with_a_short_title(tmp_path, monkeypatch):
    from mlbench.report import plots

    drawn: list[str] = []
    original = plots._png

    def recording(fig):  # type: ignore[no-untyped-def]
        for ax in fig.axes:
            drawn.append(ax.get_title())
            drawn.extend(t.get_text() for t in (*ax.get_xticklabels(), *ax.get_yticklabels()))
            drawn.extend([ax.get_ylabel(), ax.get_xlabel()])
            legend = ax.get_legend()
            if legend is not None:
                drawn.extend(t.get_text() for t in legend.get_texts())
        return original(fig)

    monkeypatch.setattr(plots, "_png", recording)
    huge = "A" * 100_000
    root = _sliced(tmp_path / "runs", huge)
    out = tmp_path / "report"
    start = time.monotonic()
    done = run_cli("report", root, "--by", "category", "--format", "md,html", "--plots", "--out", out)
    elapsed = time.monotonic() - start
    assert done.exit_code == 0, done.output
    assert drawn and max(len(text) for text in drawn) <= 200, max(len(text) for text in drawn)
    assert any("…" in text for text in drawn)  # cut, and shown to be
    assert elapsed < 20, f"{elapsed:.0f} s"
    assert len(done.output) < 10_000  # the terminal's titles are cut too, not wrapped over 1,000 lines
    assert all(len(path.name.encode()) <= 255 for path in (out / "plots").iterdir())
    # The files that are text keep the whole label, escaped.
    assert huge in (out / "report.md").read_text(encoding="utf-8")


@pytest.fixture
def edited_templates(tmp_path) -> Path:
    """A run under three templates whose names were edited in its results folder."""
    names = ("p|0", "<script>alert(1)</script>", "x\n# Forged heading\x1b[2J")
    return _write(
        tmp_path / "runs", "nortruthfulqa", ("nb", "nn"),
        lambda i: {"template": names[i % 3], "question_id": f"q{i // 3:03d}"},
    )  # fmt: skip


def test_17_edited_template_names_keep_the_prompt_templates_table_whole(edited_templates, tmp_path):
    out = tmp_path / "report"
    done = run_cli("report", edited_templates, "--ref-lang", "nb", "--format", "md", "--out", out)
    assert done.exit_code == 0, done.output
    md = (out / "report.md").read_text(encoding="utf-8")
    section = md[md.index("## Prompt templates") :]
    _assert_clean_markdown(section)
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert any(line.startswith(r"| p\|0 |") for line in rows)
    assert any("x\\n# Forged heading" in line for line in rows)
    assert not CONTROL.search(done.output)
