"""The report's Translations section (``translations.py`` computes it) in Markdown, HTML
and JSON: per model and metric, a table of each language's translations (score, gap to the
reference language, spread, and under how many translations the gap is significant), and
a table of the translations compared pair by pair."""

from __future__ import annotations

import re
import textwrap
from html import escape

from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.report.cells import gap_text, lang_label, p_cell, p_text, test_label
from mlbench.report.gaps import Gap
from mlbench.report.markdown import md_table
from mlbench.report.text import md_text, one_line
from mlbench.report.translations import TranslationRow

TITLE = "Translations"
INTRO = (
    "Each language run under two or more translations of TruthfulQA, on the questions every "
    "translation of it answered (paired by TruthfulQA's row, `tqa_index`): each translation's "
    "score, their spread, its gap to the model's reference (paired on the questions both "
    "answered, gap n of them; Holm over the model's gaps in this section) and under how many "
    "translations that gap is significant. Then each pair of translations, question by "
    "question on the n questions every translation of the language answered (McNemar for a 0/1 "
    "metric, else Wilcoxon signed-rank; Holm over the language's pairs), with the TruthfulQA-Multi "
    "authors' own test beside it for a 0/1 metric, on the same n: a chi-square of one "
    "translation's yes/no counts against the expected side's, named in its column's head (the "
    "benchmark of a --ref-lang column named in full, else the human translation, else the "
    "reference's benchmark; no chi-square for a pair without it), unpaired and unadjusted, as "
    "they ran it."
)
SCORES_HEADER = ["lang", "translation", "n", "score", "gap [95% CI]", "gap n", "p (Holm)"]
PAIRS_HEADER = ["lang", "translations", "n", "difference [95% CI]", "test", "p (Holm)"]
CHI_HEADER = "authors' χ² p"


def _robustness(row: TranslationRow) -> str:
    if not row.tested:
        return "gap not tested"
    significant = sum(gap.significant for gap in row.tested)
    text = f"gap significant under {row.robustness} ({significant}/{len(row.tested)})"
    return text + (", sign flips" if row.sign_flips else "")


def scores_grid(rows: list[TranslationRow]) -> list[list[str]]:
    """A row per (language, translation: its benchmark and, where its run says, how it
    was translated), then each language's spread."""
    grid = []
    for row in rows:
        gaps, kinds = dict(row.gaps), dict(row.kinds)
        for task, score in row.scores:
            gap = gaps.get(task)
            reference = f"{row.lang} ({task})" == row.reference
            gap_cell = "reference" if reference else gap_text(row.metric, gap) if gap is not None else "n/a"
            gap_n = "" if gap is None else str(gap.n)
            named = f"{task} ({kinds[task]})" if kinds.get(task) else task
            grid.append([lang_label(row.lang), named, str(row.n), f"{score:.3f}", gap_cell, gap_n, p_cell(gap)])
        low, high, sd = row.spread
        spread = f"{low:.3f}–{high:.3f}, SD {sd:.3f}"
        grid.append([lang_label(row.lang), "spread", "", spread, _robustness(row), "", ""])
    return grid


def _expected(rows: list[TranslationRow]) -> list[str]:
    """The expected sides of the rows' chi-squares, in order of first use."""
    return list(dict.fromkeys(pair.expected for row in rows for pair in row.pairs if pair.expected))


def pairs_header(rows: list[TranslationRow]) -> list[str]:
    """``PAIRS_HEADER`` and the chi-square's column, which names its expected side
    (``authors' χ² p (expected: truthfulqa_multi)``; per cell where the languages differ)."""
    expected = _expected(rows)
    return [*PAIRS_HEADER, f"{CHI_HEADER} (expected: {expected[0]})" if len(expected) == 1 else CHI_HEADER]


def pairs_grid(rows: list[TranslationRow]) -> list[list[str]]:
    several = len(_expected(rows)) > 1
    grid = []
    for row in rows:
        for pair in row.pairs:
            chi = pair.chi_square
            chi_cell = "—" if chi is None else p_text(chi.p) if chi.p is not None else f"n/a ({chi.note})"
            if several and chi is not None and chi.p is not None:
                chi_cell += f" (expected: {pair.expected})"
            grid.append([
                lang_label(row.lang), f"{pair.second} − {pair.first}", str(pair.gap.n),
                gap_text(row.metric, pair.gap), test_label(pair.gap), p_cell(pair.gap), chi_cell,
            ])  # fmt: skip
    return grid


def translations_line(rows: list[TranslationRow], written: bool) -> str:
    """The console's pointer to the section: which languages were run under several
    translations, and where their comparison is."""
    langs = sorted({f"{row.lang} in {len(row.scores)}" for row in rows})
    where = "in the report files" if written else "with --format md, html or json"
    return f"Translations: {', '.join(langs)} under several translations of TruthfulQA; compared {where}."


def _groups(rows: list[TranslationRow]) -> list[tuple[tuple[str, str], list[TranslationRow]]]:
    groups: dict[tuple[str, str], list[TranslationRow]] = {}
    for row in rows:
        groups.setdefault((row.metric, row.model), []).append(row)
    return list(groups.items())


def _heading(metric: str, model: str, rows: list[TranslationRow]) -> str:
    reference = rows[0].reference or "none (no aligned run of this model has the reference language)"
    return f"{metric} · {model} · gaps to {reference}"


def markdown_lines(rows: list[TranslationRow]) -> list[str]:
    if not rows:
        return []
    lines = [f"## {TITLE}", "", *textwrap.wrap(INTRO, 80), ""]
    for (metric, model), group in _groups(rows):
        lines += [
            f"### {md_text(_heading(metric, model, group))}",
            "",
            *md_table(SCORES_HEADER, scores_grid(group)),
            "",
        ]
        lines += [*md_table(pairs_header(group), pairs_grid(group)), ""]
    return lines


def _html_table(header: list[str], grid: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(one_line(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(one_line(c))}</td>" for c in row) + "</tr>" for row in grid)
    return f'<table class="translations"><tr>{head}</tr>{body}</table>'


def html_parts(rows: list[TranslationRow]) -> list[str]:
    if not rows:
        return []
    intro = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(INTRO))
    parts = [f"<h2>{TITLE}</h2>", f"<p>{intro}</p>"]
    for (metric, model), group in _groups(rows):
        parts += [
            f"<h3>{escape(one_line(_heading(metric, model, group)))}</h3>",
            _html_table(SCORES_HEADER, scores_grid(group)),
            _html_table(pairs_header(group), pairs_grid(group)),
        ]
    return parts


def _gap_json(gap: Gap | None) -> JsonValue:
    if gap is None:
        return None
    return {
        "diff": gap.diff, "ci95_low": gap.ci_low, "ci95_high": gap.ci_high, "n": gap.n, "test": gap.test or None,
        "p": gap.p, "p_holm": gap.p_holm, "note": gap.note or None,
    }  # fmt: skip


def json_records(rows: list[TranslationRow]) -> list[JsonValue]:
    records: list[JsonValue] = []
    for row in rows:
        low, high, sd = row.spread
        pairs: list[JsonValue] = []
        for pair in row.pairs:
            chi = pair.chi_square
            pairs.append({
                "first": pair.first, "second": pair.second, **_pair_gap(pair.gap),
                "authors_chi_square": None if chi is None else {
                    "expected": pair.expected or None, "observed": pair.second if pair.expected else None,
                    "n": chi.n or None, "statistic": chi.statistic, "p": chi.p, "note": chi.note or None,
                },
            })  # fmt: skip
        records.append({
            "model": row.model, "metric": row.metric, "lang": row.lang, "n": row.n,
            "reference": row.reference or None, "scores": dict(row.scores),
            "translations": {task: kind or None for task, kind in row.kinds}, "min": low, "max": high, "sd": sd,
            "gaps": {task: _gap_json(gap) for task, gap in row.gaps},
            "gap_significant": row.robustness or None, "sign_flips": row.sign_flips, "pairs": pairs,
        })  # fmt: skip
    return records


def _pair_gap(gap: Gap) -> JsonObject:
    found = _gap_json(gap)
    assert isinstance(found, dict)
    return found
