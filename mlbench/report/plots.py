"""The report's figures, as PNG bytes: a model × language heatmap and a per-language bar
chart with CI whiskers, for each headline metric.

Colour-blind safe: the Okabe–Ito palette for models, cividis for the heatmap (readable
in greyscale too). Figures widen with the number of languages so that 23 language codes
stay legible. matplotlib comes through ``heatmaps.pyplot()``, only when a figure is drawn.
"""

from __future__ import annotations

import io
import math

from mlbench.heatmaps import pyplot
from mlbench.report.build import ReportTable
from mlbench.report.cells import digits, stars

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
DPI = 110


def _png(fig) -> bytes:  # type: ignore[no-untyped-def]
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    pyplot().close(fig)
    return buffer.getvalue()


def bar_chart(table: ReportTable) -> bytes:
    """One group of bars per language, one bar per model, whiskers from the 95% CI; a
    star over a bar whose gap to the reference language is significant."""
    plt = pyplot()
    models = list(table.rows)
    langs = table.langs
    width = 0.8 / max(1, len(models))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.28 * len(langs) * max(1, len(models)) + 2.0), 4.2))
    for m, model in enumerate(models):
        xs, heights, low, high, marks = [], [], [], [], []
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
        colour = OKABE_ITO[m % len(OKABE_ITO)]
        ax.bar(xs, heights, width * 0.95, yerr=[low, high], capsize=2, color=colour, label=model, ecolor="#333333")
        for x, h, up, mark in zip(xs, heights, high, marks):
            if mark:
                ax.text(x, h + up, mark, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(langs)), langs, fontsize=9)
    ax.set_xlim(-0.6, len(langs) - 0.4)
    ax.set_ylabel(table.metric)
    ax.set_title(f"{table.title} by language (95% CI; * gap vs {table.ref_lang} after Holm)", fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    if len(models) > 1:
        ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _png(fig)


def heatmap(table: ReportTable) -> bytes:
    """Models × languages, each cell the value (and the gap's stars)."""
    import numpy as np

    plt = pyplot()
    models = list(table.rows)
    grid = np.full((len(models), len(table.langs)), np.nan)
    for i, model in enumerate(models):
        for j, lang in enumerate(table.langs):
            cell = table.rows[model].get(lang)
            if cell is not None:
                grid[i, j] = cell.value.value
    fig, ax = plt.subplots(figsize=(0.62 * len(table.langs) + 3.0, 0.45 * len(models) + 1.6))
    image = ax.imshow(grid, cmap="cividis", aspect="auto")
    ax.set_xticks(range(len(table.langs)), table.langs, fontsize=9)
    ax.set_yticks(range(len(models)), models, fontsize=9)
    finite = grid[np.isfinite(grid)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    d = min(digits(table.metric), 2)
    for i, model in enumerate(models):
        for j, lang in enumerate(table.langs):
            if np.isfinite(grid[i, j]):
                cell = table.rows[model][lang]
                mark = stars(cell.gap.p_holm) if cell.gap else ""
                colour = "white" if grid[i, j] < middle else "black"
                ax.text(j, i, f"{grid[i, j]:.{d}f}{mark}", ha="center", va="center", fontsize=7, color=colour)
    fig.colorbar(image, ax=ax, label=table.metric, shrink=0.9)
    ax.set_title(f"{table.title}: model × language", fontsize=10)
    return _png(fig)
