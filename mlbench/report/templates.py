"""How much a language's score, and its gap to the reference language, moves with the
prompt's wording: the report's section for runs asked under several templates (a declared
benchmark's ``-T prompt=all``, samples labelled ``template``).

Each run is cut by template (``slicing.slice_collection``) and reported as any task is, so
each template's gaps are tested and Holm-corrected across the languages within that
template. Per language and metric the section gives the score under each template, their
min, max and standard deviation (n − 1), and whether the gap to the reference language is
significant (Holm p < 0.05) under every template, some, or none, and whether its sign
changes from one template to another.
"""

from __future__ import annotations

import math
import re
import statistics
import textwrap
from dataclasses import dataclass
from html import escape

from mlbench.data.source import TEMPLATE_LABEL
from mlbench.records.jsontypes import JsonValue
from mlbench.report.build import build_tables
from mlbench.report.collect import Collection
from mlbench.report.layout import languages_down
from mlbench.report.markdown import md_table
from mlbench.report.slices import SEPARATOR
from mlbench.report.slicing import available_fields, slice_collection
from mlbench.report.text import md_text, one_line

FIELD = TEMPLATE_LABEL  # the label a declared benchmark's templated samples carry
ALPHA = 0.05


@dataclass(frozen=True)
class TemplateRow:
    model: str
    task: str
    metric: str
    lang: str
    scores: tuple[tuple[str, float], ...]  # (template, mean), in template order
    significant: int | None  # templates under which the gap is significant (None: the reference)
    tested: int  # templates under which the gap was tested
    sign_flips: bool  # the gap is above zero under one template and below under another

    @property
    def spread(self) -> tuple[float, float, float]:
        """(min, max, SD) of the scores over the templates."""
        values = [v for _, v in self.scores]
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return min(values), max(values), sd

    @property
    def robustness(self) -> str:
        """``every``, ``some`` or ``none``: the templates under which the gap is significant."""
        if self.significant is None or not self.tested:
            return ""
        if self.significant == self.tested:
            return "every"
        return "some" if self.significant else "none"


def template_rows(collection: Collection, ref_lang: str, seed: int, resamples: int) -> list[TemplateRow]:
    """A row per (model, task, metric, language) of every run with two or more templates."""
    if FIELD not in available_fields(collection, None):
        return []
    rows: list[TemplateRow] = []
    for run in collection.runs:
        single = Collection([run], [])
        if FIELD not in available_fields(single, None):
            continue
        sliced = slice_collection(single, FIELD, None, seed)
        if len(sliced.runs) < 2:
            continue
        tables = build_tables(sliced, ref_lang=ref_lang, seed=seed, resamples=resamples)
        by_metric: dict[str, dict[str, list[tuple[str, float, float | None, float | None]]]] = {}
        for table in tables:
            template = table.task.partition(f"{SEPARATOR}{FIELD}=")[2]
            for lang in table.langs:
                cell = table.cell(run.model, lang)
                if cell is None or math.isnan(cell.value.value):
                    continue
                gap = cell.gap
                p = gap.p_holm if gap is not None else None
                diff = gap.diff if gap is not None else None
                by_metric.setdefault(table.metric, {}).setdefault(lang, []).append(
                    (template, cell.value.value, p, diff)
                )
        for metric, langs in by_metric.items():
            for lang, found in langs.items():
                is_ref = lang == ref_lang
                tested = [p for _, _, p, _ in found if p is not None]
                diffs = [d for _, _, _, d in found if d is not None]
                rows.append(TemplateRow(
                    run.model, run.task, metric, lang, tuple((t, v) for t, v, _, _ in found),
                    None if is_ref else sum(p < ALPHA for p in tested), len(tested),
                    any(d > 0 for d in diffs) and any(d < 0 for d in diffs),
                ))  # fmt: skip
    return rows


def _gap_cell(row: TemplateRow) -> str:
    if row.significant is None:
        return "reference"
    if not row.tested:
        return "not tested"
    return f"{row.robustness} ({row.significant}/{row.tested})" + (", sign flips" if row.sign_flips else "")


def grid(group: list[TemplateRow]) -> tuple[list[str], list[list[str]]]:
    """One (task, metric, model)'s table as a header and rows: languages across, a row per
    template, then min, max, SD and the gap's robustness; turned (a row per language) past
    ``LANGUAGE_COLUMNS_MAX`` languages, as the report's other tables are."""
    templates = list(dict.fromkeys(t for row in group for t, _ in row.scores))
    labels = [*templates, "min", "max", "SD", GAP_LABEL]
    columns = []
    for row in group:
        scores = dict(row.scores)
        low, high, sd = row.spread
        values = [f"{scores[t]:.3f}" if t in scores else "n/a" for t in templates]
        columns.append([row.lang, *values, f"{low:.3f}", f"{high:.3f}", f"{sd:.3f}", _gap_cell(row)])
    if languages_down(len(group), 1):
        return ["lang", *labels], columns
    header = ["", *(column[0] for column in columns)]
    return header, [[label, *(column[1 + i] for column in columns)] for i, label in enumerate(labels)]


GAP_LABEL = "gap significant under"
INTRO = (
    "Each language's score under each prompt template, their spread, and under how many "
    "templates its gap to the reference language is significant (Holm within template). "
    "In the tables above a question's value is its mean over the templates "
    "(`mlbench report --by template` gives each template's own tables)."
)


def markdown_lines(rows: list[TemplateRow]) -> list[str]:
    if not rows:
        return []
    lines = ["## Prompt templates", "", *textwrap.wrap(INTRO, 80), ""]
    for (model, task, metric), group in _groups(rows):
        header, body = grid(group)
        # Template names come from a results folder, which anyone may have edited.
        lines += [f"### {md_text(f'{task} · {metric} · {model}')}", "", *md_table(header, body), ""]
    return lines


def html_parts(rows: list[TemplateRow]) -> list[str]:
    if not rows:
        return []
    intro = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(INTRO))
    parts = ["<h2>Prompt templates</h2>", f"<p>{intro}</p>"]
    for (model, task, metric), group in _groups(rows):
        header, body = grid(group)
        head = "".join(f"<th>{escape(one_line(h))}</th>" for h in header)
        cells = "".join("<tr>" + "".join(f"<td>{escape(one_line(c))}</td>" for c in row) + "</tr>" for row in body)
        parts += [f"<h3>{escape(one_line(f'{task} · {metric} · {model}'))}</h3>",
                  f'<table class="templates"><tr>{head}</tr>{cells}</table>']  # fmt: skip
    return parts


def json_records(rows: list[TemplateRow]) -> list[JsonValue]:
    records: list[JsonValue] = []
    for row in rows:
        low, high, sd = row.spread
        records.append({
            "model": row.model, "task": row.task, "metric": row.metric, "lang": row.lang,
            "scores": dict(row.scores), "min": low, "max": high, "sd": sd,
            "gap_significant": row.robustness or None, "significant_templates": row.significant,
            "tested_templates": row.tested, "sign_flips": row.sign_flips,
        })  # fmt: skip
    return records


def _groups(rows: list[TemplateRow]) -> list[tuple[tuple[str, str, str], list[TemplateRow]]]:
    groups: dict[tuple[str, str, str], list[TemplateRow]] = {}
    for row in rows:
        groups.setdefault((row.model, row.task, row.metric), []).append(row)
    return list(groups.items())
