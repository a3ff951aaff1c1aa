"""The report's figures, as PNG bytes: a model × language heatmap and a per-language bar
chart with CI whiskers, for each headline metric.

Colour-blind safe: the Okabe–Ito palette for models, cividis for the heatmap (readable
in greyscale too). Figures widen with the number of languages so that 23 language codes
stay legible. matplotlib comes through ``heatmaps.pyplot()``, only when a figure is drawn.

Scales say what they span. A share or rate (a metric whose descriptor's kind is
``share``: mc1, refusal, wrong_language, accuracy, F1, AUC, …) is drawn on a fixed 0–1
colour scale and a 0–1 value axis, so that 0.10–0.25 looks like the small spread it is
and two figures compare by eye; any other metric's colour scale spans the figure's own
min–max, and its colourbar says so. A value axis never goes below 0 for data that cannot.

Languages whose language the surface check cannot judge (no reliable detector:
``langid.UNRELIABLE``, e.g. bal, hil, pap, rn) have no wrong-language check, so their
``surface_issue`` (and CaLMQA's ``overall``, which multiplies it in: every metric whose
descriptor is ``language_checked``) counts repetition only: their bars and cells are
hatched and captioned "language not judged" instead of passing for clean answers.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mlbench.metrics.catalog import describe
from mlbench.metrics.descriptor import Metric
from mlbench.metrics.langid import UNRELIABLE
from mlbench.report.build import ReportTable
from mlbench.report.cells import digits, stars
from mlbench.report.heatmaps import drawn, pyplot

if TYPE_CHECKING:  # numpy and matplotlib are imported only to draw
    import numpy as np
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure as MplFigure

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
DPI = 110
HATCH = "///"


def _about(metric: str | Metric) -> Metric:
    return describe(metric) if isinstance(metric, str) else metric


def is_share(metric: str | Metric) -> bool:
    """True for a share, rate or probability (``mc1``, ``refusal@adversarial``,
    ``marker_apology``, ``verify_auc@0``): drawn on a fixed 0–1 scale."""
    return _about(metric).is_share


@dataclass(frozen=True)
class Scale:
    low: float
    high: float
    label: str  # what the colourbar or axis says the scale is


def colour_scale(metric: str, values: list[float], about: Metric | None = None) -> Scale:
    """The heatmap's colour limits: 0–1 for a share (widened only if a value falls
    outside, which a share should not), else the data's min–max, stated in the label.
    ``about``: ``metric``'s descriptor (looked up when not given)."""
    finite = [v for v in values if math.isfinite(v)]
    if is_share(about or metric):
        low, high = min([0.0, *finite]), max([1.0, *finite])
        return Scale(low, high, f"{metric} (share; fixed colour scale {low:g}–{high:g})")
    if not finite:
        return Scale(0.0, 1.0, f"{metric} (no values)")
    low, high = min(finite), max(finite)
    if low == high:  # one value: a flat scale would divide by zero
        low, high = low - 0.5, high + 0.5
    return Scale(low, high, f"{metric} (colours span this figure's range {min(finite):.3g}–{max(finite):.3g})")


def value_axis(metric: str | Metric, lows: list[float], highs: list[float]) -> tuple[float, float] | None:
    """The bar chart's y limits from the bars' lower and upper ends (whiskers included):
    0 to max(1, top) for a share; from 0 for other non-negative data (1 when all zero);
    None (matplotlib's choice) for data that go below 0."""
    lows, highs = [v for v in lows if math.isfinite(v)], [v for v in highs if math.isfinite(v)]
    top = max(highs, default=0.0)
    if is_share(metric):
        return 0.0, (top * 1.05 if top > 1.0 else 1.0)
    if min(lows, default=0.0) < 0.0:
        return None
    return 0.0, top * 1.08 if top > 0.0 else 1.0


def not_judged(table: ReportTable) -> list[str]:
    """The table's languages whose answers' language cannot be judged, where the metric
    depends on that check; empty otherwise."""
    if not table.descriptor.language_checked:
        return []
    return [lang for lang in table.langs if lang in UNRELIABLE]


def not_judged_caption(langs: list[str]) -> str:
    return (
        f"Hatched ({', '.join(langs)}): language not judged — no reliable language detector, so "
        "wrong-language answers are not counted there; not evidence of clean answers."
    )


def _title(table: ReportTable) -> str:
    """A figure's ``task · metric``, each ``drawn``: cut where a slice's label from the data
    is long, the metric kept."""
    return f"{drawn(table.task)} · {drawn(table.metric)}"


def _png(fig: MplFigure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    pyplot().close(fig)
    return buffer.getvalue()


# The widest a figure is drawn, in inches: 1,760 pixels at DPI, the HTML report's widest
# page, which shrinks a wider image (and its labels) to fit. Languages that do not fit go on
# to another row of the figure, as text wraps: 32 languages make two rows of 16.
MAX_WIDTH_INCHES = 16.0
# A bar chart's inches per language and model, and a heatmap's per language; and what
# either needs besides (axis labels, legend, colourbar).
BAR_INCHES, BAR_MARGIN = 0.28, 2.0
CELL_INCHES, HEATMAP_MARGIN = 0.62, 3.0


def language_rows(langs: list[str], per_lang: float, margin: float) -> list[list[str]]:
    """``langs`` in rows of a figure, each at most ``MAX_WIDTH_INCHES`` wide where a
    language takes ``per_lang`` inches and the row ``margin`` more; rows as even as can be.

    >>> [len(row) for row in language_rows([str(i) for i in range(32)], 0.62, 3.0)]
    [16, 16]
    >>> [len(row) for row in language_rows(["en", "es", "ca"], 0.62, 3.0)]
    [3]
    """
    fit = max(1, int((MAX_WIDTH_INCHES - margin) // per_lang))
    count = max(1, math.ceil(len(langs) / fit))
    size = math.ceil(len(langs) / count)
    return [langs[i : i + size] for i in range(0, len(langs), size)] or [[]]


def bar_chart(table: ReportTable) -> bytes:
    """One group of bars per language, one bar per model, whiskers from the 95% CI; a
    star over a bar whose gap to the reference language is significant."""
    return _png(bar_figure(table))


def bar_figure(table: ReportTable) -> MplFigure:
    """``bar_chart``'s matplotlib figure (the tests read its axes): a row of bars per
    ``language_rows``, on one value axis."""
    plt = pyplot()
    models = list(table.rows)
    per_lang = BAR_INCHES * max(1, len(models))
    rows = language_rows(table.langs, per_lang, BAR_MARGIN)
    columns = max(len(row) for row in rows)
    width = max(6.0, per_lang * columns + BAR_MARGIN)
    fig, axes = plt.subplots(len(rows), 1, figsize=(width, 4.2 + 3.4 * (len(rows) - 1)), sharey=True, squeeze=False)
    ends_low: list[float] = []
    ends_high: list[float] = []
    for ax, langs in zip(axes[:, 0], rows):
        low, high = _bar_row(ax, table, models, langs)
        ends_low += low
        ends_high += high
        # The same width per language in every row: a short last row keeps its bars' size.
        ax.set_xlim(-0.6, columns - 0.4)
        ax.spines[["top", "right"]].set_visible(False)
        metric = drawn(table.metric)
        ax.set_ylabel(f"{metric} (share, 0–1)" if is_share(table.descriptor) else metric)
    limits = value_axis(table.descriptor, ends_low, ends_high)
    if limits is not None:
        axes[0, 0].set_ylim(*limits)
    unjudged = not_judged(table)
    for ax, langs in zip(axes[:, 0], rows):
        for i, lang in enumerate(langs):
            if lang in unjudged:  # above the axis' floor, where a bar of 0 would look like a clean answer
                ax.text(i, ax.get_ylim()[1] * 0.98, "not judged", rotation=90, ha="center", va="top", fontsize=7)
    top = axes[0, 0]
    top.set_title(f"{_title(table)} by language (95% CI; * gap vs {table.ref_lang} after Holm)", fontsize=10)
    if len(models) > 1:
        top.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if unjudged:
        fig.text(0.01, -0.02, not_judged_caption(unjudged), fontsize=8, va="top", wrap=True)
    return fig


Ends = tuple[list[float], list[float]]


def _bar_row(ax: Axes, table: ReportTable, models: list[str], langs: list[str]) -> Ends:
    """One row of ``bar_figure``: ``langs``' bars of every model; the bars' lower and
    upper ends (whiskers included), for the value axis."""
    unjudged = set(not_judged(table))
    width = 0.8 / max(1, len(models))
    ends_low, ends_high = [], []
    for m, model in enumerate(models):
        xs, heights, low, high, marks, hatches = [], [], [], [], [], []
        for i, lang in enumerate(langs):
            cell = table.rows[model].get(lang)
            if cell is None or math.isnan(cell.value.value):
                continue
            v = cell.value
            xs.append(i - 0.4 + width * (m + 0.5))
            heights.append(v.value)
            low.append(max(0.0, v.value - v.ci_low))
            high.append(max(0.0, v.ci_high - v.value))
            marks.append(stars(cell.gap.p_holm) if cell.gap else "")
            hatches.append(HATCH if lang in unjudged else "")
        ends_low += [h - d for h, d in zip(heights, low)] + heights
        ends_high += [h + u for h, u in zip(heights, high)] + heights
        colour = OKABE_ITO[m % len(OKABE_ITO)]
        bars = ax.bar(
            xs, heights, width * 0.95, yerr=[low, high], capsize=2, color=colour, label=drawn(model), ecolor="#333333"
        )
        for bar, hatch in zip(bars, hatches):
            if hatch:
                bar.set_hatch(hatch)
                bar.set_edgecolor("#333333")
        for x, h, up, mark in zip(xs, heights, high, marks):
            if mark:
                ax.text(x, h + up, mark, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(langs)), [drawn(lang) for lang in langs], fontsize=9)
    return ends_low, ends_high


def heatmap(table: ReportTable) -> bytes:
    """Models × languages, each cell the value (and the gap's stars)."""
    return _png(heatmap_figure(table))


def heatmap_figure(table: ReportTable) -> MplFigure:
    """``heatmap``'s matplotlib figure (the tests read its image and colourbar): a panel
    per ``language_rows``, on one colour scale, the colourbar last of its axes."""
    import numpy as np

    plt = pyplot()
    models = list(table.rows)
    grid = np.full((len(models), len(table.langs)), np.nan)
    for i, model in enumerate(models):
        for j, lang in enumerate(table.langs):
            cell = table.rows[model].get(lang)
            if cell is not None:
                grid[i, j] = cell.value.value
    # The metric's name only labels the colourbar here: the descriptor says what it is.
    scale = colour_scale(drawn(table.metric), grid[np.isfinite(grid)].tolist(), table.descriptor)
    rows = language_rows(table.langs, CELL_INCHES, HEATMAP_MARGIN)
    columns = max(len(row) for row in rows)
    height = 0.45 * len(models) + 0.9
    figsize = (CELL_INCHES * columns + HEATMAP_MARGIN, height * len(rows) + 0.7)
    fig, axes = plt.subplots(len(rows), 1, figsize=figsize, squeeze=False)
    start = 0
    for ax, langs in zip(axes[:, 0], rows):
        part = grid[:, start : start + len(langs)]
        image = ax.imshow(part, cmap="cividis", aspect="auto", vmin=scale.low, vmax=scale.high)
        _heatmap_cells(ax, table, langs, part, scale)
        # The same width per language in every panel: a short last one ends early.
        ax.set_xlim(-0.5, columns - 0.5)
        ax.spines[:].set_visible(False)
        start += len(langs)
    fig.colorbar(image, ax=axes[:, 0].tolist(), label=scale.label, shrink=0.9)
    axes[0, 0].set_title(f"{_title(table)}: model × language", fontsize=10)
    unjudged = not_judged(table)
    if unjudged:
        fig.text(0.01, -0.02, not_judged_caption(unjudged), fontsize=8, va="top", wrap=True)
    return fig


def _heatmap_cells(ax: Axes, table: ReportTable, langs: list[str], grid: np.ndarray, scale: Scale) -> None:
    """The labels and texts of one panel of ``heatmap_figure``: ``grid`` its values."""
    from matplotlib.patches import Rectangle

    models = list(table.rows)
    ax.set_xticks(range(len(langs)), [drawn(lang) for lang in langs], fontsize=9)
    ax.set_yticks(range(len(models)), [drawn(model) for model in models], fontsize=9)
    middle = (scale.low + scale.high) / 2  # cividis is dark below the middle of its scale
    d = min(digits(table.descriptor), 2)
    unjudged = not_judged(table)
    for i, model in enumerate(models):
        for j, lang in enumerate(langs):
            if lang in unjudged:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch=HATCH, edgecolor="#bbbbbb", lw=0))
            value = grid[i, j]
            if math.isfinite(value):
                cell = table.rows[model][lang]
                mark = stars(cell.gap.p_holm) if cell.gap else ""
                colour = "white" if value < middle else "black"
                ax.text(j, i, f"{value:.{d}f}{mark}", ha="center", va="center", fontsize=7, color=colour)
            elif lang in table.rows[model]:  # a value that could not be computed: say so, not blank
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=7, color="#555555")
