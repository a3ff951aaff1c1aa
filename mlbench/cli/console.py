"""Rich output for the CLI: progress bars while scoring, one short summary per task when done.

The terminal shows what a person reads at a glance: a line per finished stage and, at the
end, one table per task with its headline metrics per language, sized to 80 columns. The
full tables (intervals, every metric, surface issues, groups, statistics) are in each run's
table.md and results.json, and in ``mlbench report``.

Every text from a file or a flag (a task's, a language's, a template's or a model's name,
a warning's values) is shown through ``errors.terminal_text``/``terminal_line``: its
control characters as escapes, cut to a bounded length, and never read as rich markup.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from mlbench.cli.layout import Column, Listing
from mlbench.engine.pipeline import RunObserver
from mlbench.errors import terminal_line, terminal_text
from mlbench.metrics.catalog import column_heading, headline_metrics
from mlbench.metrics.descriptor import Metric
from mlbench.metrics.names import base_name, expand_order
from mlbench.metrics.surface import SURFACE_METRICS
from mlbench.records import MetricValue, RunResult
from mlbench.report.layout import fits
from mlbench.results import model_slug
from mlbench.results.tables import LOW_RESOURCE_MARK, TextTable, decimals, describer, language_label
from mlbench.results.usage import usage_line
from mlbench.stats.agreement import Agreement

# What a summary may take: a standard terminal. Wider consoles (a log file is drawn 200
# wide) still get this width, so that the summary reads the same everywhere.
SUMMARY_WIDTH = 80
# The most characters of a task's or a language's name a progress bar shows.
LABEL_CHARS = 60
# Metrics that appear without a headline (a run whose headline metrics were not scored:
# XLingHealth's correctness before its judge, say) show at most this many.
FALLBACK_METRICS = 4


def text_table_listing(table: TextTable) -> Listing:
    """A TextTable for the terminal: a table where every cell fits whole, on one line, at the
    console's width (a value and its interval are read together), else one block per row
    (its first cell, then ``column: value`` lines)."""
    columns = [Column(name, no_wrap=True, justify="right" if i else "left") for i, name in enumerate(table.columns)]
    listing = Listing(table.title or "", columns)
    for row in table.rows:
        listing.add(*row)
    return listing


def duration(seconds: float) -> str:
    """A run's wall time as a person reads it: ``17.9 s``, ``4 min 05 s``, ``2 h 03 min``.

    >>> duration(17.94), duration(245), duration(7380)
    ('17.9 s', '4 min 05 s', '2 h 03 min')
    """
    if round(seconds, 1) < 60:  # 59.96 s is "1 min 00 s", not "60.0 s"
        return f"{seconds:.1f} s"
    whole = int(round(seconds))
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def written_tables(where: Path, runs: Iterable[tuple[str, str]]) -> list[Path]:
    """The table.md of each (model, task) run under ``where``: an --output folder (``run``), or
    for ``judge`` also a model's folder or a run's own."""
    found = []
    for model, task in runs:
        for folder in (where / model_slug(model) / task, where / task, where):
            if (folder / "table.md").is_file():
                found.append(folder / "table.md")
                break
    return found


def final_line(where: Path, seconds: float, tables: Sequence[Path] = ()) -> str:
    """The last line of ``run`` and ``judge``: the table a person opens first (each task's,
    when there are several), else the folder; and how long it took."""
    took = duration(seconds)
    if len(tables) == 1:
        return f"mlbench: table in {tables[0]} — {took}"
    parents = {table.parent.parent for table in tables}
    if len(parents) == 1:  # one model, several tasks: a path the shell expands to them all
        tasks = ",".join(table.parent.name for table in tables)
        return f"mlbench: tables in {parents.pop()}/{{{tasks}}}/table.md — {took}"
    if tables:
        return f"mlbench: tables in {where}/: {', '.join(str(t.relative_to(where)) for t in tables)} — {took}"
    return f"mlbench: results in {str(where).rstrip('/')}/ — {took}"


def _header(metric: str) -> str:
    """A column's metric as every table heads it: its descriptor's label (else its name)."""
    return column_heading(metric)


def _cell(text: str) -> str:
    """Text from the run in a rich table cell: ``terminal_text``, its markup escaped."""
    return escape(terminal_text(text))


def _value(metric: Metric, value: MetricValue | None) -> str:
    if value is None or math.isnan(value.value):
        return "n/a"
    return f"{value.value:.{decimals(metric)}f}"


def summary_metrics(run: RunResult, metric_order: list[str], headline: tuple[str, ...]) -> list[str]:
    """The metrics a summary shows: the task's headline metrics that were scored (every
    setting of each: ``sim_sent@0``, ``sim_sent@0.5``, ...), else the first few of the run's."""
    present = {m for result in run.languages.values() for m in result.metrics}
    chosen = expand_order(headline, present)
    if chosen:
        return chosen
    own = [m for m in expand_order(metric_order, present) if base_name(m) not in SURFACE_METRICS]
    return own[:FALLBACK_METRICS]


def _summary_table(headers: list[str], rows: list[list[str]]) -> Table:
    """Light rules only (a header line, no box): a few lines that read in a log file too."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for i, header in enumerate(headers):
        table.add_column(_cell(header), justify="left" if i == 0 else "right", no_wrap=True)
    for row in rows:
        table.add_row(*map(_cell, row))
    return table


def _by_priority(metrics: list[str]) -> list[str]:
    """``metrics`` in the order they earn a column: the first setting of every metric, then
    the second of each, ...; so that a narrow terminal shows each headline metric at least
    once (XLingHealth: sim_sent and verify_f1 at the lowest temperature, not sim_sent at five).

    >>> _by_priority(["c", "s@0", "s@0.5", "v@0", "v@0.5"])
    ['c', 's@0', 'v@0', 's@0.5', 'v@0.5']
    """
    groups: dict[str, list[str]] = {}
    for metric in metrics:
        groups.setdefault(base_name(metric), []).append(metric)
    rounds = max((len(group) for group in groups.values()), default=0)
    return [group[i] for i in range(rounds) for group in groups.values() if i < len(group)]


def progress_label(task: str, lang: str) -> str:
    """A progress bar's ``task lang``: each cut to ``LABEL_CHARS`` (``terminal_text``), as
    rich markup that shows it as written."""
    return escape(f"{terminal_text(task, LABEL_CHARS)} {terminal_text(lang, LABEL_CHARS)}")


def summary(
    run: RunResult, metric_order: list[str], headline: tuple[str, ...], console: Console, width: int = SUMMARY_WIDTH
) -> list[RenderableType]:
    """A task's results in a few lines: languages as rows, n, failed samples (when any) and
    the headline metrics as columns, means only. Columns that would push the table past
    ``width`` are left out (the later settings of a metric first) and counted in the note
    under it, so that no cell wraps."""
    width = min(width, console.width)
    langs = list(run.languages)
    # A row per language; under a language asked under several prompt templates, a row per
    # template with its own means (the language's row: each question's mean over them).
    shown = [
        (label, result)
        for lang in langs
        for label, result in [
            (language_label(lang), run.languages[lang]),
            *((f"  {name}", one) for name, one in run.languages[lang].templates.items()),
        ]
    ]
    headers = ["lang", "n"]
    rows = [[label, str(result.n)] for label, result in shown]
    failed = [result.counts.get("failed", 0) for _, result in shown]
    if any(failed):
        headers.append("failed")
        rows = [[*row, str(count)] for row, count in zip(rows, failed)]
    metrics = summary_metrics(run, metric_order, headline)
    about = describer(run)
    columns = {m: [_value(about(m), result.metrics.get(m)) for _, result in shown] for m in metrics}

    def table(chosen: list[str]) -> Table:
        shown = [m for m in metrics if m in chosen]  # in the run's own order
        cells = [[*row, *(columns[m][i] for m in shown)] for i, row in enumerate(rows)]
        return _summary_table([*headers, *map(_header, shown)], cells)

    chosen: list[str] = []
    for metric in _by_priority(metrics):
        if not fits(table([*chosen, metric]), width):
            break  # the later ones would not fit either: they are counted in the note
        chosen.append(metric)
    notes = ["Means; 95% intervals and every metric in table.md."]
    if len(shown) > len(langs):
        notes.append("n: questions; a language's value is each question's mean over the templates under it.")
    if len(chosen) < len(metrics):
        notes.append(f"{len(metrics) - len(chosen)} more headline column(s) there too.")
    if any(language_label(lang) != lang for lang in langs):
        notes.append(f"{LOW_RESOURCE_MARK} low-resource language.")
    # A long model path wraps (folded where it has no space); a name is cut only past TERMINAL_CHARS.
    title = Text(f"{terminal_text(run.task)} — {terminal_text(run.model)}", style="bold", overflow="fold")
    spent = usage_line(run.config)  # API tokens and cost, when any were counted (results/usage.py)
    return [title, table(chosen), Text("\n".join(_pack(notes, width)), style="dim"), *([Text(spent)] if spent else [])]


def _pack(notes: list[str], width: int) -> list[str]:
    """Notes joined into as few lines as fit in ``width``."""
    lines: list[str] = []
    for note in notes:
        if lines and len(lines[-1]) + 1 + len(note) <= width:
            lines[-1] += " " + note
        else:
            lines.append(note)
    return lines


class _Elapsed(TimeElapsedColumn):
    """Elapsed time, blank for a language finished before this run (a resume)."""

    def render(self, task: Task) -> Text:
        return Text("") if task.fields.get("before") else super().render(task)


class _Remaining(TimeRemainingColumn):
    """Time left; a language finished before this run says so instead of an ETA."""

    def render(self, task: Task) -> Text:
        if task.fields.get("before"):
            return Text("done before", style="progress.remaining")
        return super().render(task)


@dataclass
class _Bar:
    stage: str
    lang: str
    total: int
    completed: int
    before: bool  # every sample was finished by an earlier run
    started: float = field(default_factory=time.perf_counter)
    ended: float | None = None
    shown: TaskID | None = None  # its bar on the screen, if drawn
    tokens: int = 0  # generated so far, in ``generating`` seconds of generation calls
    generating: float = 0.0


def tokens_per_second(tokens: int, seconds: float) -> str:
    """Generated tokens per second of generation calls, as bars and stage lines say it."""
    return f"{tokens / seconds:,.0f} tokens/s" if tokens and seconds > 0 else ""


class RichObserver(RunObserver):
    """Progress bars while a stage works; when a task is done, one line per stage (its
    languages and time) in place of its bars; ``print_summaries`` at the end. ``quiet``:
    no bars, no notes, no tables (warnings still go to stderr)."""

    def __init__(self, console: Console, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet
        self.progress: Progress | None = None
        self.bars: list[_Bar] = []
        # The latest result of each model and task (a judge rebuilds it), in the order done.
        self.results: dict[tuple[str, str], tuple[RunResult, list[str]]] = {}

    def _columns(self) -> list[ProgressColumn]:
        return [
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _Elapsed(),
            _Remaining(),
        ]

    def start(self, task: str, lang: str, total: int, done: int) -> Callable[[int], None]:
        bar = _Bar(task, lang, total, done, before=total > 0 and done >= total)
        if bar.before:
            bar.ended = bar.started
        self.bars.append(bar)
        # Bars only where they redraw: in a log file (not a terminal) rich would print each
        # bar's last state and a blank line, which the stage lines say better.
        if self.quiet or not self.console.is_terminal:
            return lambda n: self._count(bar, n)
        if self.progress is None:
            # Transient: when a task is done its bars give way to one line per stage.
            self.progress = Progress(*self._columns(), console=self.console, transient=True)
            self.progress.start()
        progress = self.progress
        shown = progress.add_task(progress_label(task, lang), total=total, completed=done, before=bar.before)
        bar.shown = shown

        def advance(n: int) -> None:
            self._count(bar, n)
            progress.advance(shown, n)

        return advance

    def generated(self, task: str, lang: str, tokens: int, seconds: float) -> None:
        bar = next((b for b in reversed(self.bars) if b.stage == task and b.lang == lang), None)
        if bar is None:
            return
        bar.tokens += tokens
        bar.generating += seconds
        if self.progress is not None and bar.shown is not None:
            rate = tokens_per_second(bar.tokens, bar.generating)
            self.progress.update(bar.shown, description=f"{progress_label(task, lang)} · {rate}")

    @staticmethod
    def _count(bar: _Bar, n: int) -> None:
        bar.completed += n
        if bar.completed >= bar.total and bar.ended is None:
            bar.ended = time.perf_counter()

    def finish(self, run: RunResult, metric_order: list[str], group_name: str = "group") -> None:
        self.close()
        self.results[(run.model, run.task)] = (run, metric_order)
        if not self.quiet:
            for line in self.stage_lines():
                self.console.print(line, markup=False, highlight=False)
        self.bars = []

    def stage_lines(self) -> list[str]:
        """One line per stage of the bars since the last task finished, in the order begun."""
        stages: dict[str, list[_Bar]] = {}
        for bar in self.bars:
            stages.setdefault(bar.stage, []).append(bar)
        lines = []
        now = time.perf_counter()
        for stage, bars in stages.items():
            ran = [terminal_text(b.lang, LABEL_CHARS) for b in bars if not b.before]
            before = [terminal_text(b.lang, LABEL_CHARS) for b in bars if b.before]
            seconds = sum((b.ended or now) - b.started for b in bars if not b.before)
            stage = terminal_text(stage, LABEL_CHARS)
            text = f"mlbench: {stage}: {', '.join(ran)} done in {duration(seconds)}" if ran else f"mlbench: {stage}:"
            if before:
                text += f"{'; ' if ran else ' '}{', '.join(before)} done before"
            rate = tokens_per_second(sum(b.tokens for b in bars), sum(b.generating for b in bars))
            if rate:
                text += f" · {rate} generated"
            lines.append(text)
        return lines

    def print_summaries(self) -> None:
        """One compact table per task run or judged (nothing when quiet)."""
        if self.quiet:
            return
        for i, (run, order) in enumerate(self.results.values()):
            if i:
                self.console.print()
            self.console.print(Group(*summary(run, order, headline_metrics(run.task), self.console)))

    def warn(self, message: str) -> None:
        print(f"mlbench: warning: {terminal_line(message)}", file=sys.stderr)

    def note(self, message: str) -> None:
        if not self.quiet:
            self.console.print(f"mlbench: {terminal_line(message)}", markup=False, highlight=False)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def agreement_table(lines: list[Agreement], a: str, b: str) -> Table:
    """One row per group: items compared, missing labels, agreement and κ [95% CI]."""
    a, b = _cell(a), _cell(b)  # the names of a label file's columns
    table = Table(title=f"agreement: {a} vs {b} (Cohen's κ, 95% bootstrap CI)", title_justify="left")
    for column in ("group", "n", f"missing {a}", f"missing {b}", "agreement", "κ [95% CI]"):
        table.add_column(column, justify="left" if column == "group" else "right")
    for line in lines:
        kappa = "n/a" if math.isnan(line.kappa) else f"{line.kappa:.3f}"
        interval = "" if math.isnan(line.ci_low) else f" [{line.ci_low:.3f}, {line.ci_high:.3f}]"
        share = "n/a" if math.isnan(line.agreement) else f"{100 * line.agreement:.1f}%"
        table.add_row(_cell(line.group), str(line.n), str(line.missing_a), str(line.missing_b), share, kappa + interval)
    return table
