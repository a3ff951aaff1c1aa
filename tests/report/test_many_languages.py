"""The report at 32 languages (a benchmark such as Okapi's m_truthfulqa): the terminal fits
its width, the files' tables go a row per language instead of 32 columns across, and the
figures wrap their languages into rows without labels or numbers running into each other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from mlbench.report import make_report, write_report
from mlbench.report.heatmaps import CELL_INCHES, pair_figure, pyplot
from mlbench.report.plots import MAX_WIDTH_INCHES, bar_figure, heatmap_figure
from mlbench.results.figures import Figure, PairHeatmap
from mlbench.results.tables import language_label, metric_table, to_markdown

from .many_languages import LANGS32, MODELS, write_32_languages
from .test_report_formats import TableReader

LABELS = [language_label(lang) for lang in LANGS32]  # † marks the low-resource ones


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_32_languages(tmp_path_factory.mktemp("lang32") / "results")


@pytest.fixture(scope="module")
def report(runs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    built = make_report(runs)
    out = tmp_path_factory.mktemp("lang32-report")
    write_report(built, out, formats=["md", "latex", "html"], plots=False, seed=0, resamples=200)
    return built, out


@pytest.mark.parametrize("columns", [80, 120])
def test_the_terminal_fits_its_width_and_names_every_language_whole(runs, columns):
    result = CliRunner().invoke(app, ["report", str(runs)], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    for model in MODELS:  # a table per model, a row per language, none cut or wrapped
        assert f"m_truthfulqa_like · {model}" in result.stdout
    for lang in LANGS32:  # in each model's table and in the table of the pair of models
        rows = [line for line in lines if re.match(rf"\s*{lang}†?\s+12\s", line)]
        assert len(rows) == len(MODELS) + 1, (lang, rows)


def test_markdown_tables_go_a_row_per_language(report):
    _, out = report
    text = (out / "report.md").read_text()
    tables = [line for line in text.splitlines() if line.startswith("|")]
    # 32 languages across made table lines of over 750 characters.
    assert max(len(line) for line in tables) < 200
    # A column per metric and model: the scores, then the gaps (each cell the gap and its p).
    assert f"| language | mc1 · {MODELS[0]} | mc1 · {MODELS[1]} | mc2 · {MODELS[0]} | mc2 · {MODELS[1]} |" in text
    assert f"| language | mc1 · {MODELS[0]} · McNemar [2] | mc1 · {MODELS[1]} · McNemar [2] |" in text
    gaps = text.split("Gaps vs en", 1)[1]
    assert re.search(r"^\| ar \| [−+]0\.\d{3} \[[−+]0\.\d{3}, [−+]0\.\d{3}\], p [\d.<]+", gaps, re.M)
    assert all(any(line.startswith(f"| {label} |") for line in tables) for label in LABELS)


def test_html_tables_go_a_row_per_language_and_scroll_in_their_own_box(report):
    _, out = report
    text = (out / "report.html").read_text()
    reader = TableReader()
    reader.feed(text)
    values, gaps = reader.tables[0], reader.tables[1]
    assert values[0] == ["language", *MODELS] and [row[0] for row in values[1:]] == LABELS
    # The gaps: a row of models over their gap and p columns; a row per language but en.
    assert gaps[0] == ["language", *MODELS] and gaps[1] == ["gap [95% CI, unadjusted]", "p (Holm)"] * 2
    assert [row[0] for row in gaps[2:]] == LABELS[1:]
    # No table can widen the page: each sits in a box of its own that scrolls sideways.
    assert text.count('<div class="wide"><table') == text.count("<table") > 0


def test_latex_tables_go_a_row_per_language(report):
    _, out = report
    text = (out / "report.tex").read_text()
    specs = re.findall(r"\\begin\{tabular\}\{([lc]+)\}", text)
    # A column per model and row kind (mean, gap, p) instead of 34 columns.
    assert specs and all(len(spec) <= 1 + 3 * len(MODELS) for spec in specs)
    assert all(re.search(rf"^{lang}(\$\^{{\\dagger}}\$)? & ", text, re.M) for lang in LANGS32)


def test_a_runs_table_md_goes_a_row_per_language(runs):
    from mlbench.results import read_run

    run = read_run(next(runs.rglob("results.json")).parent)
    table = metric_table(run, ["mc1", "mc2"])
    assert table.columns == ["language", "n", "mc1", "mc2"] and len(table.rows) == 32
    assert max(len(line) for line in to_markdown([table]).splitlines()) < 120


def _overlaps(boxes: list) -> bool:  # type: ignore[type-arg]
    boxes = sorted(boxes, key=lambda box: box.x0)
    return any(left.x1 > right.x0 for left, right in zip(boxes, boxes[1:]))


def _check_readable(fig) -> None:  # type: ignore[no-untyped-def]
    """No two tick labels of an axis overlap; every number stays inside its cell."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        labels = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        assert not _overlaps(labels), ax.get_title()
        if ax.images:  # a heatmap panel: a cell is one data unit wide
            cell = ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0]
            assert all(t.get_window_extent(renderer).width < cell for t in ax.texts)


def test_report_figures_wrap_their_languages_into_rows(report):
    built, _ = report
    table = next(t for t in built.tables if t.metric == "mc1")
    few = type(table)(**{**vars(table), "langs": table.langs[:8]})
    plt = pyplot()
    for draw in (heatmap_figure, bar_figure):
        wide, narrow = draw(table), draw(few)
        try:
            (width, height), (_, narrow_height) = wide.get_size_inches(), narrow.get_size_inches()
            # Not 22 inches wide, shrunk by the HTML page to two thirds: taller instead.
            assert width <= MAX_WIDTH_INCHES and height > narrow_height
            shown = [t.get_text() for ax in wide.axes for t in ax.get_xticklabels()]
            assert [lang for lang in shown if lang] == LANGS32
            _check_readable(wide)
        finally:
            plt.close(wide)
            plt.close(narrow)


def test_pair_heatmaps_of_32_languages_keep_their_cells_readable():
    pairs = {(a, b): 10.0 ** -(i % 9) for i, (a, b) in enumerate(zip(LANGS32, LANGS32[1:]))}
    panels = tuple(PairHeatmap(topic, tuple(LANGS32), pairs) for topic in ("health", "law", "science"))
    fig = pair_figure(Figure("heatmap_x.png", "x", panels))
    try:
        fig.canvas.draw()  # the constrained layout places the panels when drawn
        panel_axes = [ax for ax in fig.axes if ax.images]
        # One panel to a row (three side by side squeezed each cell to 0.35 inch).
        assert len({round(ax.get_position().x0, 2) for ax in panel_axes}) == 1
        cell = panel_axes[0].get_window_extent().width / 32 / fig.dpi
        assert cell >= 0.8 * CELL_INCHES
        _check_readable(fig)
    finally:
        pyplot().close(fig)
