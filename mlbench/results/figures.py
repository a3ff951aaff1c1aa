"""The figures a task asks for, as data: language × language panels of p-values (MSQAD's
McNemar and PERMANOVA). A task builds them from its statistics; ``mlbench.report.heatmaps``
draws them next to results.json."""

from __future__ import annotations

from dataclasses import dataclass

from mlbench.records.jsontypes import TableRow


@dataclass(frozen=True)
class PairHeatmap:
    """One panel: p-values of language pairs; ``rejected`` pairs are starred."""

    title: str
    langs: tuple[str, ...]
    p: dict[tuple[str, str], float | None]
    rejected: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Figure:
    filename: str
    title: str
    panels: tuple[PairHeatmap, ...]


def _pair(row: TableRow) -> tuple[str, str]:
    """A row's language pair, written "a–b" by the statistics that made the row."""
    first, second = str(row["pair"]).split("–")
    return first, second


def _p(row: TableRow) -> float | None:
    value = row["p"]
    return None if value is None else float(value)


def figures_from_rows(
    rows: list[TableRow], *, test: str, langs: tuple[str, ...], split: str | None = None
) -> list[Figure]:
    """Figures from cross-language rows with ``topic``, ``pair`` ("a–b"), ``p`` and
    ``reject``: one figure per value of ``split`` (e.g. the mode), a panel per topic."""
    figures = []
    for key in dict.fromkeys(row.get(split) if split else None for row in rows):
        mine = [row for row in rows if (row.get(split) if split else None) == key]
        panels = []
        for topic in dict.fromkeys(row["topic"] for row in mine):
            cells = [row for row in mine if row["topic"] == topic]
            pairs = {_pair(row): _p(row) for row in cells}
            rejected = frozenset(_pair(row) for row in cells if row["reject"])
            present = tuple(lang for lang in langs if any(lang in pair for pair in pairs))
            panels.append(PairHeatmap(str(topic or "all"), present, pairs, rejected))
        suffix = f"_{key}" if key else ""
        title = f"{test} p-values by language pair" + (f" ({split} {key})" if key else "")
        figures.append(Figure(f"heatmap_{test.lower()}{suffix}.png", title, tuple(panels)))
    return figures
