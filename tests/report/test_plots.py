"""The report's figures say what their scales span, and do not pass unjudged languages off
as clean: colour limits, axis limits, hatches and captions read back from the figures."""

from __future__ import annotations

import math

import pytest
from matplotlib.patches import Rectangle

from mlbench.records import MetricValue
from mlbench.report.build import Cell, ReportTable
from mlbench.report.heatmaps import pyplot
from mlbench.report.plots import (
    bar_figure,
    colour_scale,
    heatmap_figure,
    is_share,
    not_judged,
    value_axis,
)


def _table(metric: str, values: dict[str, dict[str, float]], task: str = "truthfulqa_multi") -> ReportTable:
    """model → language → value, with a ±0.02 interval (from 0 where the value is ≥ 0, as a
    bootstrap interval of non-negative data is)."""
    langs = list(dict.fromkeys(lang for row in values.values() for lang in row))
    rows = {
        model: {
            lang: Cell(MetricValue(v, v - 0.02 if v < 0 else max(0.0, v - 0.02), v + 0.02, 0.01), 50, None)
            for lang, v in row.items()
        }
        for model, row in values.items()
    }
    return ReportTable(task, metric, langs[0], langs, rows, True, True)


def _close(fig) -> None:  # type: ignore[no-untyped-def]
    pyplot().close(fig)


@pytest.mark.parametrize(
    ("metric", "share"),
    [
        ("mc1", True),
        ("mc2", True),
        ("refusal@adversarial", True),
        ("wrong_language@direct", True),
        ("marker_apology", True),
        ("bleu_acc", True),
        ("verify_auc@0", True),
        ("correctness_contradictory", True),
        ("overall", True),
        ("bleu_max", False),
        ("lprob_diff", False),
        ("length@0.5", False),
        ("sim_sent@0", False),
    ],
)
def test_which_metrics_are_shares(metric, share):
    assert is_share(metric) is share


def test_a_share_heatmap_has_a_fixed_0_to_1_scale_it_states():
    table = _table("mc1", {"m1": {"en": 0.10, "es": 0.25}, "m2": {"en": 0.18, "es": 0.12}})
    fig = heatmap_figure(table)
    try:
        (image,) = fig.axes[0].images
        assert image.get_clim() == (0.0, 1.0)  # not 0.10–0.25
        assert "fixed colour scale 0–1" in fig.axes[1].get_ylabel()
    finally:
        _close(fig)


def test_another_metric_spans_its_data_and_says_so():
    table = _table("bleu_max", {"m1": {"en": 10.0, "es": 25.0}, "m2": {"en": 18.0, "es": 12.0}})
    fig = heatmap_figure(table)
    try:
        assert fig.axes[0].images[0].get_clim() == (10.0, 25.0)
        assert "range 10–25" in fig.axes[1].get_ylabel()
    finally:
        _close(fig)
    assert colour_scale("bleu_max", [3.0, 3.0]).low < colour_scale("bleu_max", [3.0, 3.0]).high
    assert colour_scale("mc1", [0.2, math.nan]).low == 0.0


@pytest.mark.parametrize(
    ("metric", "values", "expected"),
    [
        ("mc1", {"en": 0.0, "es": 0.0}, (0.0, 1.0)),  # once −0.04…0.04
        ("mc1", {"en": 0.10, "es": 0.25}, (0.0, 1.0)),
        ("length", {"en": 0.0, "es": 0.0}, (0.0, 0.02 * 1.08)),  # non-negative: never below 0
        ("length", {"en": 120.0, "es": 80.0}, (0.0, 120.02 * 1.08)),
    ],
)
def test_bar_axes_start_at_0_and_shares_end_at_1(metric, values, expected):
    fig = bar_figure(_table(metric, {"m": values}))
    try:
        assert fig.axes[0].get_ylim() == pytest.approx(expected)
    finally:
        _close(fig)


def test_bar_axis_of_other_data():
    fig = bar_figure(_table("bleu_max", {"m": {"en": 20.0, "es": 40.0}}))
    try:
        low, high = fig.axes[0].get_ylim()
        assert low == 0.0 and high >= 40.02
    finally:
        _close(fig)
    # Data below 0 (a log-probability difference) keep matplotlib's own limits.
    assert value_axis("lprob_diff", [-2.0, 0.5], [0.1, 1.0]) is None
    fig = bar_figure(_table("lprob_diff", {"m": {"en": -2.0, "es": 0.5}}))
    try:
        assert fig.axes[0].get_ylim()[0] < -2.0
    finally:
        _close(fig)


CALMQA = {"en": 0.20, "bal": 0.0, "fo": 0.05, "hil": 0.0}


def test_calmqa_languages_that_cannot_be_judged_are_hatched_not_clean():
    table = _table("surface_issue", {"m": CALMQA}, task="calmqa")
    assert not_judged(table) == ["bal", "hil"]
    fig = bar_figure(table)
    try:
        ax = fig.axes[0]
        hatched = {round(p.get_x() + p.get_width() / 2) for p in ax.patches if p.get_hatch()}
        assert hatched == {table.langs.index("bal"), table.langs.index("hil")}
        texts = [t.get_text() for t in fig.texts]
        assert any("bal, hil" in t and "language not judged" in t for t in texts)
        assert sum(t.get_text() == "not judged" for t in ax.texts) == 2
    finally:
        _close(fig)
    fig = heatmap_figure(table)
    try:
        cells = [p for p in fig.axes[0].patches if isinstance(p, Rectangle) and p.get_hatch()]
        assert sorted(round(p.get_x() + 0.5) for p in cells) == [table.langs.index("bal"), table.langs.index("hil")]
        assert any("bal, hil" in t.get_text() for t in fig.texts)
    finally:
        _close(fig)


def test_metrics_without_the_language_check_are_not_hatched():
    for metric in ("repetition", "marker_apology", "relevant"):
        table = _table(metric, {"m": CALMQA}, task="calmqa")
        assert not_judged(table) == []
        fig = bar_figure(table)
        try:
            assert not any(p.get_hatch() for p in fig.axes[0].patches) and not fig.texts
        finally:
            _close(fig)
    # overall multiplies the surface check in: hatched too.
    assert not_judged(_table("overall", {"m": CALMQA}, task="calmqa")) == ["bal", "hil"]


def test_the_report_marks_them_from_saved_runs(tmp_path):
    from mlbench.report.build import build_tables
    from mlbench.report.collect import collect
    from mlbench.report.write import draw_figures

    from .synthetic_runs import write_run

    ids = [f"q{i}" for i in range(20)]
    values = {
        lang: {"surface_issue": {q: float(i % 5 == 0 and lang == "en") for i, q in enumerate(ids)}} for lang in CALMQA
    }
    write_run(tmp_path / "runs", "m", "calmqa", values)
    (table,) = [t for t in build_tables(collect(tmp_path / "runs"), ref_lang="en") if t.metric == "surface_issue"]
    assert set(not_judged(table)) == {"bal", "hil"}
    fig = bar_figure(table)
    try:
        assert sum(bool(p.get_hatch()) for p in fig.axes[0].patches) == 2
        assert fig.axes[0].get_ylim() == pytest.approx((0.0, 1.0))
    finally:
        _close(fig)
    assert all(png.startswith(b"\x89PNG") for files in draw_figures([table]).values() for png in files.values())


def test_a_value_that_could_not_be_computed_is_n_a_in_the_heatmap():
    table = _table("verify_auc@0", {"m": {"en": 0.7, "es": math.nan}}, task="xlinghealth")
    fig = heatmap_figure(table)
    try:
        assert [t.get_text() for t in fig.axes[0].texts] == ["0.70", "n/a"]
        assert fig.axes[0].images[0].get_clim() == (0.0, 1.0)
    finally:
        _close(fig)
    fig = bar_figure(table)
    try:
        assert len([p for p in fig.axes[0].patches if p.get_height() > 0]) == 1
    finally:
        _close(fig)
