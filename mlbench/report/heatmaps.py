"""Language × language heatmaps of p-values (MSQAD's McNemar and PERMANOVA), as PNG files
next to results.json. One file per test (and mode), one panel per topic. The colour
scale is fixed at 0–1 (p-values), as its colourbar says.

matplotlib is imported only through ``pyplot()``, only when a figure is drawn, with its
file-only backend (also for ``mlbench report``'s figures).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from mlbench.report.text import shortened
from mlbench.results.figures import Figure, PairHeatmap

if TYPE_CHECKING:  # matplotlib is imported only to draw (``pyplot``)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure as MplFigure
    from matplotlib.image import AxesImage

CELL_INCHES = 0.55
# A panel's inches besides its cells (language labels, title); the widest a figure's row of
# panels is drawn (a panel of 32 languages is 19 inches: one to a row, not three side by
# side at a third of the size, where the numbers ran into each other).
PANEL_MARGIN = 0.9
MAX_WIDTH_INCHES = 24.0
MAX_COLUMNS = 3
# p-values are drawn on a fixed 0–1 colour scale, never stretched to the data's range, so
# that panels and figures compare by eye; the colourbar says so.
P_VALUE_LABEL = "p-value (fixed colour scale 0–1; * rejects at 5%; blank: not tested)"


def pyplot() -> ModuleType:
    """matplotlib's pyplot on the Agg backend: PNG files, no display needed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def drawn(text: str) -> str:
    """Text from the runs or the data as a figure draws it: ``text.shortened`` (matplotlib
    took minutes to lay out a title holding a 100 kB label), each ``$`` escaped (matplotlib
    reads what lies between two as mathtext, and fails on what it cannot parse)."""
    return shortened(text).replace("$", r"\$")


def write_figures(run_dir: Path, figures: list[Figure]) -> list[Path]:
    """Draw every figure into ``run_dir``; returns the files written."""
    if not figures:
        return []
    plt = pyplot()

    written = []
    for figure in figures:
        fig = pair_figure(figure)
        path = run_dir / figure.filename
        # Written aside and renamed: cluster jobs of other languages may redraw it at once.
        partial = path.with_name(f".{path.stem}.{os.getpid()}.png")
        fig.savefig(partial, dpi=110)
        plt.close(fig)
        os.replace(partial, path)
        written.append(path)
    return written


def panel_columns(langs: int, panels: int) -> int:
    """Panels side by side: at most ``MAX_COLUMNS``, and as many as fit ``MAX_WIDTH_INCHES``.

    >>> panel_columns(6, 3), panel_columns(16, 3), panel_columns(32, 3)
    (3, 2, 1)
    """
    fit = int(MAX_WIDTH_INCHES // (langs * CELL_INCHES + PANEL_MARGIN))
    return max(1, min(MAX_COLUMNS, panels, fit))


def pair_figure(figure: Figure) -> MplFigure:
    """``figure`` drawn: its panels in rows of ``panel_columns``, each cell ``CELL_INCHES``
    square whatever the number of languages, one colourbar."""
    plt = pyplot()
    langs = max(len(p.langs) for p in figure.panels)
    columns = panel_columns(langs, len(figure.panels))
    rows = math.ceil(len(figure.panels) / columns)
    size = langs * CELL_INCHES + PANEL_MARGIN
    # Constrained: the panels take the room the figure has for them; with the default
    # margins, panels of 32 languages came out at 0.35 inch a cell.
    fig, axes = plt.subplots(
        rows, columns, figsize=(columns * size + 1.4, rows * size + 0.7), squeeze=False, layout="constrained"
    )
    for ax in axes.flat[len(figure.panels) :]:
        ax.axis("off")
    image = None
    for ax, panel in zip(axes.flat, figure.panels):
        image = _draw_panel(ax, panel)
    if image is not None:
        # As long as one row of panels: over all of them, it was as wide as a column of cells.
        fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8 / rows, label=P_VALUE_LABEL)
    fig.suptitle(drawn(figure.title))
    return fig


def p_label(p: float) -> str:
    """A cell's p-value in at most six characters, so that it stays inside its cell (``.2g``
    wrote ``1.5e-09``, wider than the cell).

    >>> p_label(0.6), p_label(0.046), p_label(0.0046), p_label(1.5e-09)
    ('0.60', '0.046', '0.005', '<0.001')
    """
    if p < 0.001:
        return "<0.001"
    return f"{p:.2f}" if p >= 0.1 else f"{p:.3f}"


def _draw_panel(ax: Axes, panel: PairHeatmap) -> AxesImage:
    import numpy as np

    size = len(panel.langs)
    grid = np.full((size, size), np.nan)
    for (a, b), p in panel.p.items():
        if p is not None and a in panel.langs and b in panel.langs:
            i, j = panel.langs.index(a), panel.langs.index(b)
            grid[i, j] = grid[j, i] = p
    # cividis: readable for every kind of colour vision, and in greyscale; fixed 0–1.
    image = ax.imshow(grid, cmap="cividis", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(size), [drawn(lang) for lang in panel.langs])
    ax.set_yticks(range(size), [drawn(lang) for lang in panel.langs])
    ax.set_title(drawn(panel.title), fontsize=10)  # a panel's title may be a topic from the data
    for i in range(size):
        for j in range(size):
            if not np.isnan(grid[i, j]):
                pair = (panel.langs[i], panel.langs[j])
                star = "*" if pair in panel.rejected or pair[::-1] in panel.rejected else ""
                colour = "white" if grid[i, j] < 0.5 else "black"
                ax.text(j, i, p_label(grid[i, j]) + star, ha="center", va="center", fontsize=7, color=colour)
    return image
