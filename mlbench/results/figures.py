"""The figures a task asks for, as data: language × language panels of p-values (MSQAD's
McNemar and PERMANOVA). A task builds them from its statistics; ``mlbench.report.heatmaps``
draws them next to results.json."""

from __future__ import annotations

from dataclasses import dataclass


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


def figures_from_rows(rows: list[dict], *, test: str, langs: tuple[str, ...], split: str | None = None) -> list[Figure]:
    """Figures from cross-language rows with ``topic``, ``pair`` ("a–b"), ``p`` and
    ``reject``: one figure per value of ``split`` (e.g. the mode), a panel per topic."""
    figures = []
    for key in dict.fromkeys(row.get(split) if split else None for row in rows):
        mine = [row for row in rows if (row.get(split) if split else None) == key]
        panels = []
        for topic in dict.fromkeys(row["topic"] for row in mine):
            cells = [row for row in mine if row["topic"] == topic]
            pairs = {tuple(row["pair"].split("–")): row["p"] for row in cells}
            rejected = frozenset(tuple(row["pair"].split("–")) for row in cells if row["reject"])
            present = tuple(lang for lang in langs if any(lang in pair for pair in pairs))
            panels.append(PairHeatmap(topic or "all", present, pairs, rejected))  # type: ignore[arg-type]
        suffix = f"_{key}" if key else ""
        title = f"{test} p-values by language pair" + (f" ({split} {key})" if key else "")
        figures.append(Figure(f"heatmap_{test.lower()}{suffix}.png", title, tuple(panels)))
    return figures
