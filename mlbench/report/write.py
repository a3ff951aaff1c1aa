"""Writes the report files into ``--out``: report.{md,csv,tex,html,json} and, with
``--plots``, the PNG figures under ``plots/`` (the HTML file embeds them either way)."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.report.build import ReportTable
from mlbench.report.collect import Collection
from mlbench.report.make import Report
from mlbench.report.pairs import PairTable
from mlbench.report.templates import TemplateRow
from mlbench.report.translations import TranslationRow
from mlbench.results.files import check_output_file

FORMATS = {
    "md": "report.md",
    "csv": "report.csv",
    "latex": "report.tex",
    "html": "report.html",
    "json": "report.json",
    "explore": "explorer.html",  # mlbench explore's page, which report.html's gaps link to
}


# The most characters of a figure's file name taken from a task or a metric: a file name
# has at most 255 bytes, and a slice's label from the data can be 100 kB long.
NAME_PART_MAX = 100


def _name_part(text: str, keep: str) -> str:
    """``text`` with every run of characters outside ``keep`` one ``-``; past
    ``NAME_PART_MAX``, its start and a hash of the whole, so that two long labels that
    begin alike still name two files."""
    part = re.sub(rf"[^{keep}]+", "-", text)
    if len(part) <= NAME_PART_MAX:
        return part
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{part[: NAME_PART_MAX - 13]}-{digest}"


def figure_name(table: ReportTable, kind: str) -> str:
    """``truthfulqa_multi__mc2__bars.png``; settings such as ``@0.5`` become ``-0.5``."""
    metric = _name_part(table.metric, "A-Za-z0-9._-")
    task = _name_part(table.task, "A-Za-z0-9._=-")  # a slice's label may hold "/" or spaces
    return f"{task}__{metric}__{kind}.png"


def draw_figures(tables: list[ReportTable]) -> dict[str, dict[str, bytes]]:
    """Table title → file name → PNG, for the headline tables."""
    from mlbench.report.plots import bar_chart, heatmap

    return {
        t.title: {figure_name(t, "heatmap"): heatmap(t), figure_name(t, "bars"): bar_chart(t)}
        for t in tables
        if t.headline and _has_values(t)
    }


def _has_values(table: ReportTable) -> bool:
    """Some cell has a value: a table of n/a cells only (an AUC that no language could
    compute) has nothing to draw."""
    return any(not math.isnan(cell.value.value) for cells in table.rows.values() for cell in cells.values())


def write_report(
    report: Report, out: Path, *, formats: list[str], plots: bool, seed: int, resamples: int
) -> list[Path]:
    """Every requested file; returns their paths. ``seed`` and ``resamples`` are the
    bootstrap's, recorded in the JSON file."""
    tables, collection, ref_lang = report.tables, report.collection, report.ref_lang
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MlbenchError(f"cannot write the report to {out}: {error.strerror or error}") from None
    for fmt in formats:  # every file's path is checked before any is written
        check_output_file(out / FORMATS[fmt])
    figures = draw_figures(tables) if plots or "html" in formats else {}
    written: list[Path] = []
    links: dict[str, list[str]] = {}
    if plots:
        (out / "plots").mkdir(exist_ok=True)
        for title, files in figures.items():
            for name, png in files.items():
                path = out / "plots" / name
                check_output_file(path)
                path.write_bytes(png)
                written.append(path)
                links.setdefault(title, []).append(f"plots/{name}")
    if "explore" in formats and report.root is not None:
        from mlbench.report.explore_data import explorer_data
        from mlbench.report.explore_page import explorer_page

        path = out / FORMATS["explore"]
        check_output_file(path)
        path.write_text(explorer_page(explorer_data([report.root])), encoding="utf-8")
        written.append(path)
    # The gaps of report.html link to the explorer beside it, written now or before.
    explorer = FORMATS["explore"] if (out / FORMATS["explore"]).exists() else None
    compared = report.pairs, report.ref_model
    for fmt in (f for f in formats if f != "explore"):
        path = out / FORMATS[fmt]
        check_output_file(path)
        text = _render(
            fmt, tables, collection, ref_lang, seed, resamples, figures, links, *compared, explorer,
            report.per_template, report.per_translation, report.ref_langs,
        )  # fmt: skip
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _render(
    fmt: str,
    tables: list[ReportTable],
    collection: Collection,
    ref_lang: str,
    seed: int,
    resamples: int,
    figures: dict[str, dict[str, bytes]],
    links: dict[str, list[str]],
    pairs: Sequence[PairTable] = (),
    ref_model: str | None = None,
    explorer: str | None = None,
    robustness: Sequence[TemplateRow] = (),
    translated: Sequence[TranslationRow] = (),
    ref_langs: Mapping[str, str] | None = None,
) -> str:
    """One file's text; ``pairs``: the models compared (none in a report of one model);
    ``explorer``: the explorer page beside it, which report.html's gaps link to;
    ``robustness``: each language's score per prompt template (runs under several);
    ``translated``: each language's score per translation (run under several);
    ``ref_langs``: each model's reference (``Report.ref_langs``)."""
    from mlbench.report import templates, translation_tables

    robustness, translated = list(robustness), list(translated)
    if fmt == "md":
        from mlbench.report.markdown import to_markdown
        from mlbench.report.usage import usage_table

        usage = usage_table(collection)
        text = to_markdown(tables, collection.notes, ref_lang, links, pairs, ref_model, usage, ref_langs)
        sections = [*templates.markdown_lines(robustness), *translation_tables.markdown_lines(translated)]
        return text + ("\n" + "\n".join(sections) if sections else "")
    if fmt == "latex":
        from mlbench.report.latex import to_latex

        return to_latex(tables, pairs, ref_model)
    if fmt == "csv":
        from mlbench.report.machine import to_csv

        return to_csv(tables, pairs)
    if fmt == "json":
        from mlbench.report.machine import to_json

        payload = to_json(
            tables, collection, ref_lang=ref_lang, seed=seed, resamples=resamples, pairs=pairs, ref_model=ref_model,
            ref_langs=ref_langs,
        )  # fmt: skip
        if robustness:
            payload["prompt_templates"] = templates.json_records(robustness)
        if translated:
            payload["translations"] = translation_tables.json_records(translated)
        return json.dumps(payload, indent=2, ensure_ascii=False, default=str, allow_nan=False) + "\n"
    from mlbench.report.html import to_html

    images = {title: list(files.values()) for title, files in figures.items()}
    return to_html(
        tables, collection, ref_lang=ref_lang, figures=images, pairs=pairs, ref_model=ref_model, explorer=explorer,
        sections=[*templates.html_parts(robustness), *translation_tables.html_parts(translated)], ref_langs=ref_langs,
    )  # fmt: skip
