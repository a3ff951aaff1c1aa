"""Which way a report table runs, the same in Markdown, HTML and LaTeX.

A table is built languages across (a column per language, a row per model or pair of
models and the kind of its row: gap, p, MDD), which reads best for a few languages. A
language's column of values or gaps is about 20 characters wide (``0.412 [0.380, 0.445]``),
so past ``LANGUAGE_COLUMNS_MAX`` languages a table no longer fits a screen or a page across
(an HTML table of 32 languages was 6,500 pixels wide): it is then turned, a row per
language, as the terminal always shows it, and a column per model and row kind.

>>> paths, grid = transposed([["m1", "gap", "+0.1", "+0.2"], ["", "p", "0.03", "0.9"]], labels=2)
>>> paths, grid
([('m1', 'gap'), ('m1', 'p')], [['+0.1', '0.03'], ['+0.2', '0.9']])
>>> groups(paths)
[('m1', 2)]
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, RenderableType

# More languages than this go down the rows (see above), as in a run's table.md; five to
# eight is what the benchmarks shown languages across have (TruthfulQA-Multi, MSQAD, XLingHealth).
from mlbench.results.tables import LANGUAGE_COLUMNS_MAX

__all__ = ["LANGUAGE_COLUMNS_MAX", "fits", "groups", "joined", "languages_down", "transposed"]


def languages_down(langs: int, row_groups: int) -> bool:
    """Whether a table of ``langs`` languages and ``row_groups`` models (or pairs of
    models) is shown a row per language: many languages, and more of them than models,
    whose columns would otherwise be the ones to run off the page."""
    return langs > LANGUAGE_COLUMNS_MAX and langs > row_groups


def transposed(rows: Sequence[Sequence[str]], labels: int) -> tuple[list[tuple[str, ...]], list[list[str]]]:
    """``rows`` as built languages across (each row: ``labels`` label cells, then a cell
    per language) turned round: per original row its labels, a blank one taking the
    label above it (the model of a model's second row); and a row per language, a cell
    per original row."""
    paths: list[tuple[str, ...]] = []
    above: list[str] = [""] * labels
    for row in rows:
        above = [cell or above[i] for i, cell in enumerate(row[:labels])]
        paths.append(tuple(above))
    width = max((len(row) - labels for row in rows), default=0)
    grid = [[row[labels + j] if labels + j < len(row) else "" for row in rows] for j in range(width)]
    return paths, grid


def groups(paths: Sequence[tuple[str, ...]]) -> list[tuple[str, int]]:
    """The first labels of ``paths`` with how many columns in a row each spans: a header
    row with a model over its gap and p columns."""
    spans: list[tuple[str, int]] = []
    for path in paths:
        first = path[0] if path else ""
        if spans and spans[-1][0] == first:
            spans[-1] = (first, spans[-1][1] + 1)
        else:
            spans.append((first, 1))
    return spans


def joined(path: tuple[str, ...]) -> str:
    """One header cell from a column's labels (Markdown has one header row)."""
    return " · ".join(label for label in path if label)


def fits(renderable: RenderableType, width: int, texts: Sequence[str] = ()) -> bool:
    """Whether ``renderable`` drawn ``width`` columns wide keeps every cell whole: no line
    wider than the width, and no ellipsis (rich's cut of a cell that does not fit) that
    ``texts``, what the cells hold, do not hold themselves. The one width check of every
    terminal table: the listings, the report's tables, a run's summary."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None, legacy_windows=False)
    console.print(renderable)
    drawn = console.export_text()
    if any(len(line) > width for line in drawn.splitlines()):
        return False
    return "…" not in drawn or any("…" in text for text in texts)
