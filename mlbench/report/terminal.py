"""The report in the terminal: per task and model, a row per language and a column per
headline metric, each cell the mean with the stars of a significant gap.

A terminal has room for neither the intervals nor the gaps, nor for one column per
language once a benchmark has 23 of them: languages go down the rows, so any number of
them fits 80 columns, and the caption says where the rest is (the report files).

Models compared with each other (``pairs.py``) get a block of their own: a table per task
and pair of models, a row per language, per headline metric (at most three, so that it
fits 80 columns) the difference with its stars and its minimum detectable difference.
"""

from __future__ import annotations

from rich import box
from rich.markup import escape as escape_markup
from rich.table import Table

from mlbench.report.build import ReportTable
from mlbench.report.cells import INTERVAL_LABEL, cell_notes, digits, is_missing, lang_label, signed, stars
from mlbench.report.pair_cells import mdd_number, which_pairs
from mlbench.report.pairs import ModelPair, PairTable
from mlbench.results.tables import format_number

# Columns of one table: more headline metrics than this are left to the files.
MAX_METRICS = 5


def _cell_text(table: ReportTable, model: str, lang: str) -> str:
    cell = table.cell(model, lang)
    if cell is None or is_missing(cell):
        return "n/a" if cell is not None else ""
    gap = cell.gap
    marker = stars(gap.p_holm) if gap else ""
    if gap is not None and marker and not gap.paired:
        marker += "u"
    return f"{format_number(table.descriptor, cell.value.value)}{marker}"


def caption(tables: list[ReportTable], ref_lang: str) -> str:
    """Printed once under the tables: what the stars are, and where the intervals and gaps are."""
    shown = [t for t in tables if t.headline]
    notes = list(dict.fromkeys(note for t in shown for note in cell_notes(t)))
    left_out = len(tables) - len(_shown_per_task(tables))
    parts = [
        f"Means. *: gap vs {ref_lang} significant (McNemar for yes/no outcomes, Wilcoxon signed-rank "
        "otherwise; Holm over the languages; ** p<0.01, *** p<0.001; u: unpaired).",
        f"These tests do not test the mean difference, so a star can disagree with the gap's {INTERVAL_LABEL}:",
        "--format md|html|latex|csv|json writes every metric with its interval, gap and Holm-adjusted p.",
    ]
    if left_out:
        parts.append(f"{left_out} more metric table(s) there too.")
    return " ".join([*parts, *notes])


def _shown_per_task(tables: list[ReportTable]) -> list[ReportTable]:
    shown: list[ReportTable] = []
    for task in dict.fromkeys(t.task for t in tables):
        shown += [t for t in tables if t.task == task and t.headline][:MAX_METRICS]
    return shown


def render(tables: list[ReportTable]) -> list[Table]:
    """One table per task and model; ``caption`` is what goes under all of them."""
    rendered = []
    shown_all = _shown_per_task(tables)
    for task in dict.fromkeys(t.task for t in tables):
        mine = [t for t in tables if t.task == task]
        shown = [t for t in shown_all if t.task == task]
        langs = list(dict.fromkeys(lang for t in mine for lang in t.langs))
        for model in dict.fromkeys(m for t in mine for m in t.rows):
            title = f"{task} · {model}"
            out = Table(
                title=escape_markup(title), title_justify="left", box=box.SIMPLE_HEAD, min_width=min(len(title), 80)
            )
            out.add_column("lang", no_wrap=True)
            out.add_column("n", justify="right", no_wrap=True)
            for table in shown:
                out.add_column(table.metric, justify="right", no_wrap=True)
            ns = {lang: cell.n for t in shown if model in t.rows for lang, cell in t.rows[model].items()}
            for lang in langs:
                texts = [_cell_text(t, model, lang) if model in t.rows and lang in t.langs else "" for t in shown]
                if any(texts):
                    out.add_row(lang_label(lang), str(ns.get(lang, "")), *texts)
            rendered.append(out)
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


def _shown_pairs(pairs: list[PairTable]) -> dict[str, tuple[list[PairTable], list[str]]]:
    """Per task, the metrics and the pairs (by label) the terminal has room for."""
    shown = {}
    for task in dict.fromkeys(t.task for t in pairs):
        mine = [t for t in pairs if t.task == task][:MAX_PAIR_METRICS]
        shown[task] = (mine, list(dict.fromkeys(pair.label for t in mine for pair in t.pairs))[:MAX_PAIRS])
    return shown


def render_pairs(pairs: list[PairTable]) -> list[Table]:
    """One table per task and pair of models: a row per language; per headline metric its
    difference (second − first, starred) and its MDD."""
    rendered = []
    for task, (mine, labels) in _shown_pairs(pairs).items():
        for label in labels:
            shown = [(t, pair) for t in mine for pair in t.pairs if pair.label == label]
            title = f"{task} · {label}"
            out = Table(
                title=escape_markup(title), title_justify="left", box=box.SIMPLE_HEAD, min_width=min(len(title), 80)
            )
            out.add_column("lang", no_wrap=True)
            out.add_column("n", justify="right", no_wrap=True)
            for table, _ in shown:
                out.add_column(table.metric, justify="right", no_wrap=True)
                out.add_column("mdd", justify="right", no_wrap=True)
            for lang in dict.fromkeys(lang for t, _ in shown for lang in t.langs):
                ns = [pair.cells[lang].gap.n for _, pair in shown if lang in pair.cells]
                if ns:
                    texts = [text for table, pair in shown for text in _pair_text(table, pair, lang)]
                    out.add_row(lang_label(lang), str(max(ns)), *texts)
            rendered.append(out)
    return rendered


def pairs_caption(pairs: list[PairTable], ref_model: str | None) -> str:
    """Printed once under the model-against-model tables: what they show, and what the
    files hold that they have no room for."""
    shown = _shown_pairs(pairs)
    metrics = sum(sum(1 for t in pairs if t.task == task) - len(mine) for task, (mine, _) in shown.items())
    labels = {task: {pair.label for t in pairs if t.task == task for pair in t.pairs} for task in shown}
    more_pairs = sum(len(labels[task]) - len(shown_labels) for task, (_, shown_labels) in shown.items())
    parts = [
        f"Model against model, {which_pairs(ref_model)}: the difference on the questions both answered",
        "(n: the most of any metric); *: Holm-adjusted p < 0.05 over the languages of the pair (McNemar for",
        "yes/no outcomes, Wilcoxon signed-rank otherwise; ** p<0.01, *** p<0.001). mdd: the smallest",
        "difference those questions detect with 80% power (alpha 0.05, two-sided); a difference without a",
        "star is inconclusive below its mdd, not evidence of none. Intervals and p-values: --format.",
    ]
    if metrics:
        parts.append(f"{metrics} more metric(s) there too.")
    if more_pairs:
        parts.append(f"{more_pairs} more pair(s) of models there too (or choose one with --ref-model).")
    return " ".join(parts)
