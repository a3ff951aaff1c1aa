"""The report in the terminal: per task and model, a row per language and a column per
headline metric, each cell the mean with the stars of a significant gap.

A terminal has room for neither the intervals nor the gaps, nor for one column per
language once a benchmark has 23 of them: languages go down the rows, so any number of
them fits 80 columns; the metrics whose columns do not fit the width are left out, never
cut, and the caption says where the rest is (the report files).

Models compared with each other (``pairs.py``) get a block of their own: a table per task
and pair of models, a row per language, per headline metric (at most three, so that it
fits 80 columns) the difference with its stars and its minimum detectable difference.
"""

from __future__ import annotations

from collections import Counter

from rich import box
from rich.markup import escape as escape_markup
from rich.table import Table

from mlbench.metrics.catalog import column_heading
from mlbench.report.build import ReportTable
from mlbench.report.cells import (
    INTERVAL_LABEL,
    PAIRED_MARK,
    PAIRED_MEANING,
    cell_notes,
    digits,
    is_missing,
    lang_label,
    paired_n,
    shows_paired_n,
    signed,
    stars,
)
from mlbench.report.layout import fits
from mlbench.report.pair_cells import mdd_number, which_pairs
from mlbench.report.pairs import ModelPair, PairTable
from mlbench.report.slices import base_task
from mlbench.report.text import one_line, shortened
from mlbench.results.tables import format_number

# Columns of one table: more headline metrics than this are left to the files.
MAX_METRICS = 5
# The most characters of a table's title: two lines of 80 columns. A label from the data
# can be 100 kB long; the report files keep it whole.
TITLE_MAX = 160


def _plain(text: str) -> str:
    """Text from the runs as rich prints it: one line (no escape sequence reaches the
    terminal) and no markup (``[/b]`` in a label is shown, not read as a closing tag)."""
    return escape_markup(one_line(text))


def _table(*parts: str, width: int) -> Table:
    """An empty table titled ``parts`` (a task, a model), one line of at most ``TITLE_MAX``."""
    title = shortened(" · ".join(parts), TITLE_MAX)
    shown = escape_markup(title)
    return Table(title=shown, title_justify="left", box=box.SIMPLE_HEAD, min_width=min(len(title), width))


def _cell_text(table: ReportTable, model: str, lang: str) -> str:
    cell = table.cell(model, lang)
    if cell is None or is_missing(cell):
        return "n/a" if cell is not None else ""
    gap = cell.gap
    marker = stars(gap.p_holm) if gap else ""
    if gap is not None and marker and not gap.paired:
        marker += "u"
    paired = paired_n(table, cell)  # an aligned gap on fewer questions than the row's n
    return f"{format_number(table.descriptor, cell.value.value)}{marker}" + (f" {paired}" if paired else "")


# Where the rest is: the formats that write every metric with its interval, gap and p.
FORMATS_HINT = "--format md|html|latex|csv|json"


def caption(tables: list[ReportTable], ref_lang: str, width: int = 80, written: bool = False) -> str:
    """Printed once under the tables, a line per thing: what the values and stars are,
    where the intervals, gaps and left-out metrics are (the files this command writes,
    ``written``; else how to write them), and the notes of the cells shown (n/a, †)."""
    shown = [t for t in tables if t.headline]
    notes = list(dict.fromkeys(note for t in shown for note in cell_notes(t)))
    drawn = _shown_per_task(tables, width)
    left_out = len(tables) - len(drawn)
    # Models measured from different references (report --align): each table's title names its own.
    one = len({t.ref_lang for t in tables}) < 2
    vs = _plain(shortened(ref_lang, TITLE_MAX)) if one else "each model's reference (in its table's title)"
    lines = [
        f"Means. * gap vs {vs} significant (McNemar for yes/no outcomes, Wilcoxon signed-rank otherwise; "
        "Holm over languages).",
        "** p<0.01, *** p<0.001; u: unpaired.",
        f"A star can disagree with the gap's {INTERVAL_LABEL}: they measure different things.",
    ]
    if any(shows_paired_n(t) for t in drawn):
        lines.append(f"{PAIRED_MARK}: {PAIRED_MEANING}.")
    where = "the report files written" if written else f"the report files ({FORMATS_HINT})"
    rest = "intervals, gaps and Holm-adjusted p"
    if left_out:
        lines.append(f"{left_out} more {'metric' if left_out == 1 else 'metrics'} and the {rest}: in {where}.")
    else:
        lines.append(f"The {rest}: in {where}.")
    lines += [note.rstrip(".") + "." for note in notes]
    return "\n".join(_plain(line) for line in lines)  # a note may quote a results.json


def _shown_per_task(tables: list[ReportTable], width: int = 80) -> list[ReportTable]:
    """Per task, the first headline metrics (at most MAX_METRICS) whose columns fit ``width``
    in every model's table; at least one."""
    shown: list[ReportTable] = []
    for task in dict.fromkeys(t.task for t in tables):
        mine = [t for t in tables if t.task == task]
        chosen = [t for t in mine if t.headline][:MAX_METRICS]
        models = list(dict.fromkeys(m for t in mine for m in t.rows))
        while len(chosen) > 1 and any(
            not fits(_model_table(task, model, mine, chosen, width), width) for model in models
        ):
            chosen.pop()  # the last metric's column goes to the files
        shown += chosen
    return shown


def _heading(table: ReportTable | PairTable) -> str:
    """A metric's column as the run summary heads it: its label (``truthful & informative``)."""
    return column_heading(table.metric, base_task(table.task), table.descriptor)


def _model_table(task: str, model: str, mine: list[ReportTable], shown: list[ReportTable], width: int) -> Table:
    """``model``'s table of ``task``: a row per language, a column per metric of ``shown``."""
    out = _table(task, model, width=width)
    out.add_column("lang", no_wrap=True)
    out.add_column("n", justify="right", no_wrap=True)
    for table in shown:
        out.add_column(_plain(_heading(table)), justify="right", no_wrap=True)
    for lang in dict.fromkeys(lang for t in mine for lang in t.langs):
        texts = [_cell_text(t, model, lang) if model in t.rows and lang in t.langs else "" for t in shown]
        # The n most of the row's metrics are over (one may be over fewer: a question the
        # reference could not score for it).
        ns = Counter(t.rows[model][lang].n for t in shown if model in t.rows and lang in t.rows[model])
        if any(texts):
            out.add_row(_plain(lang_label(lang)), str(ns.most_common(1)[0][0]) if ns else "", *texts)
    return out


def render(tables: list[ReportTable], width: int = 80) -> list[Table]:
    """One table per task and model, each fitting ``width`` (the metrics that do not fit
    are counted in the caption); ``caption`` is what goes under all of them."""
    rendered = []
    shown_all = _shown_per_task(tables, width)
    for task in dict.fromkeys(t.task for t in tables):
        mine = [t for t in tables if t.task == task]
        shown = [t for t in shown_all if t.task == task]
        for model in dict.fromkeys(m for t in mine for m in t.rows):
            rendered.append(_model_table(task, model, mine, shown, width))
    return rendered


# Metrics of one model-against-model table, each taking two columns (difference, MDD), so
# that it fits 80 columns; and pairs per task: n models make n(n-1)/2 of them.
MAX_PAIR_METRICS = 3
MAX_PAIRS = 6


def _pair_text(table: PairTable, pair: ModelPair, lang: str) -> tuple[str, str]:
    """The difference with the stars of its Holm-adjusted p, and its MDD."""
    cell = pair.cell(lang)
    if cell is None:
        return "", ""
    gap = cell.gap
    if gap.diff is None:
        return "n/a", ""
    return f"{signed(gap.diff, digits(table.descriptor))}{stars(gap.p_holm)}", mdd_number(table.descriptor, cell)


def _shown_pairs(pairs: list[PairTable], width: int = 80) -> dict[str, tuple[list[PairTable], list[str]]]:
    """Per task, the metrics (those whose columns fit ``width``, at least one) and the pairs
    (by label) the terminal has room for."""
    shown = {}
    for task in dict.fromkeys(t.task for t in pairs):
        mine = [t for t in pairs if t.task == task][:MAX_PAIR_METRICS]
        labels = list(dict.fromkeys(pair.label for t in mine for pair in t.pairs))[:MAX_PAIRS]
        while len(mine) > 1 and any(not fits(_pair_table(task, label, mine, width), width) for label in labels):
            mine.pop()
        shown[task] = (mine, labels)
    return shown


def _pair_table(task: str, label: str, mine: list[PairTable], width: int) -> Table:
    shown = [(t, pair) for t in mine for pair in t.pairs if pair.label == label]
    out = _table(task, label, width=width)
    out.add_column("lang", no_wrap=True)
    out.add_column("n", justify="right", no_wrap=True)
    for table, _ in shown:
        out.add_column(_plain(_heading(table)), justify="right", no_wrap=True)
        out.add_column("mdd", justify="right", no_wrap=True)
    for lang in dict.fromkeys(lang for t, _ in shown for lang in t.langs):
        ns = [pair.cells[lang].gap.n for _, pair in shown if lang in pair.cells]
        if ns:
            texts = [text for table, pair in shown for text in _pair_text(table, pair, lang)]
            out.add_row(_plain(lang_label(lang)), str(max(ns)), *texts)
    return out


def render_pairs(pairs: list[PairTable], width: int = 80) -> list[Table]:
    """One table per task and pair of models: a row per language; per headline metric its
    difference (second − first, starred) and its MDD."""
    return [
        _pair_table(task, label, mine, width)
        for task, (mine, labels) in _shown_pairs(pairs, width).items()
        for label in labels
    ]


def pairs_caption(pairs: list[PairTable], ref_model: str | None, width: int = 80, written: bool = False) -> str:
    """Printed once under the model-against-model tables, a line per thing: what they
    show, and what the files (``written`` by this command, else how to write them) hold
    that they have no room for."""
    shown = _shown_pairs(pairs, width)
    metrics = sum(sum(1 for t in pairs if t.task == task) - len(mine) for task, (mine, _) in shown.items())
    labels = {task: {pair.label for t in pairs if t.task == task for pair in t.pairs} for task in shown}
    more_pairs = sum(len(labels[task]) - len(shown_labels) for task, (_, shown_labels) in shown.items())
    lines = [
        f"Model against model, {which_pairs(ref_model)}: the difference on the questions both answered "
        "(n: the most of any metric).",
        "* Holm-adjusted p < 0.05 over the languages of the pair (McNemar for yes/no, Wilcoxon otherwise); "
        "** p<0.01, *** p<0.001.",
        "mdd: the smallest difference those questions detect with 80% power (alpha 0.05, two-sided); "
        "a difference without a star is inconclusive below its mdd, not evidence of none.",
    ]
    where = "the report files written" if written else f"the report files ({FORMATS_HINT})"
    if metrics:
        lines.append(f"{metrics} more {'metric' if metrics == 1 else 'metrics'} and the intervals and p: in {where}.")
    else:
        lines.append(f"The intervals and p: in {where}.")
    if more_pairs:
        lines.append(f"{more_pairs} more pair(s) of models there too (or choose one with --ref-model).")
    return "\n".join(_plain(line) for line in lines)  # a note may quote a results.json
