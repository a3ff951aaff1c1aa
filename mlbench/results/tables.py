"""What a run's tables show, decided once: table.md (markdown) and the terminal (rich)
render the same ``TextTable`` objects.

A run has up to three tables: its metrics by language; the surface issues of its
generated answers, one row per language (per language and mode where a task checks an
answer in several modes: MSQAD); and, when its questions fall into groups
(CaLMQA's culturally specific / agnostic), every metric per language × group.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mlbench.languages import LANGUAGES
from mlbench.metrics.catalog import describe, describe_in, task_metrics
from mlbench.metrics.descriptor import Metric, by_name
from mlbench.metrics.names import base_name, expand_order
from mlbench.metrics.surface import SURFACE_DESCRIPTORS, SURFACE_METRICS
from mlbench.records import LanguageResult, MetricValue, RunResult

LOW_RESOURCE_MARK = "†"
# The surface table's headings: each check's label, from its descriptor (one spelling).
SURFACE_COLUMNS = {name: metric.heading for name, metric in by_name(SURFACE_DESCRIPTORS).items()}


# More languages than this go down the rows of a table instead of across (the report's tables
# too: mlbench.report.layout). A language's column of "0.412 [0.380, 0.445]" is 22
# characters: 32 languages across made lines of 750 in table.md.
LANGUAGE_COLUMNS_MAX = 8


@dataclass
class TextTable:
    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def decimals(metric: str | Metric) -> int:
    """The one number format of every table (run tables, surface tables and every
    ``mlbench report`` format), from the metric's descriptor: 2 decimals for metrics on a
    wider scale (BLEU, log-probs, lengths, claim counts), 3 for everything on a 0–1 scale
    (shares, rates, probabilities, similarities, F1, AUC). A name is looked up in the
    catalog; a run's tables pass the descriptors its results.json carries.

    >>> decimals("mc1"), decimals("bleu_acc"), decimals("bleu_max"), decimals("length@0.5")
    (3, 3, 2, 2)
    """
    return (describe(metric) if isinstance(metric, str) else metric).decimals


def describer(run: RunResult) -> Callable[[str], Metric]:
    """The descriptor of each of ``run``'s metrics: its results.json's, else the catalog's."""
    return lambda metric: describe_in(run.descriptors, metric, run.task)


def format_number(metric: str | Metric, value: float) -> str:
    """One value of ``metric`` with ``decimals(metric)``; ``n/a`` for NaN."""
    return "n/a" if math.isnan(value) else f"{value:.{decimals(metric)}f}"


def format_value(metric: str | Metric, value: MetricValue) -> str:
    """``mean [low, high]`` with ``decimals(metric)``; ``n/a`` when the value is NaN."""
    if math.isnan(value.value):
        return "n/a"
    low, high = format_number(metric, value.ci_low), format_number(metric, value.ci_high)
    return f"{format_number(metric, value.value)} [{low}, {high}]"


# Metrics computed together once per setting (temperature) from the same pooled
# predictions (their descriptors' ``computed_with``): where one of them has a setting,
# every one of them was computed there, and one that is missing could not be
# (verifiability.py leaves out an undefined AUC rather than saving a number). Tables show
# such a metric as n/a, with its descriptor's ``missing_reason``, instead of dropping it.
UNDEFINED_REASON = "could not be computed at this setting"


def setting_groups(task: str | None = None) -> dict[str, list[str]]:
    """Group name → the base names computed together (see above), in name order."""
    groups: dict[str, list[str]] = {}
    for metric in task_metrics(task).values():
        if metric.computed_with:
            groups.setdefault(metric.computed_with, []).append(metric.name)
    return {group: sorted(names) for group, names in groups.items()}


def same_group(one: str, other: str) -> bool:
    """Whether two saved metrics are computed together (``setting_groups``)."""
    group = describe(one).computed_with
    return bool(group) and group == describe(other).computed_with


def undefined_reason(metric: str) -> str:
    return describe(metric).missing_reason or UNDEFINED_REASON


def undefined_metrics(present: Iterable[str]) -> dict[str, str]:
    """Metric → why it is missing, for each metric of a setting group absent from
    ``present`` (one language's metrics) at a setting where one of its group is there.

    >>> sorted(undefined_metrics(["verify_precision@0", "verify_recall@0", "verify_f1@0",
    ...     "verify_accuracy@0", "mc1"]))
    ['verify_auc@0']
    """
    present = set(present)
    missing: dict[str, str] = {}
    for group in setting_groups().values():
        settings = {m.partition("@")[2] for m in present if "@" in m and base_name(m) in group}
        for setting in sorted(settings, key=_setting_key):
            for name in group:
                metric = f"{name}@{setting}"
                if metric not in present:
                    missing[metric] = undefined_reason(name)
    return missing


def _setting_key(setting: str) -> tuple[float, str]:
    try:
        return (float(setting), setting)
    except ValueError:
        return (math.inf, setting)


def undefined_notes(metrics: Iterable[str]) -> list[str]:
    """One ``n/a: …`` note per reason, naming the metrics shown as n/a for it."""
    by_reason: dict[str, list[str]] = {}
    for metric in metrics:
        reason = undefined_reason(metric)
        by_reason.setdefault(reason, []).append(metric)
    return [f"n/a ({', '.join(names)}): {reason}." for reason, names in by_reason.items()]


def shown_metrics(run: RunResult, metric_order: list[str]) -> list[str]:
    """The metrics of ``metric_order`` that some language has (judge metrics appear once
    judged) or could not compute (``undefined_metrics``: shown as n/a rather than
    dropped), each ``name@setting`` after its base name."""
    present = {m for result in run.languages.values() for m in result.metrics}
    undefined = {m for result in run.languages.values() for m in undefined_metrics(result.metrics)}
    return expand_order(metric_order, present | undefined)


def _undefined_shown(results: Iterable[LanguageResult], metrics: list[str]) -> list[str]:
    """The metrics of ``metrics`` that one of ``results`` (a table's cells) could not compute."""
    undefined = {m for result in results for m in undefined_metrics(result.metrics)}
    return [m for m in metrics if m in undefined]


def count_names(run: RunResult) -> list[str]:
    """The counts any language has (failed samples, judge errors, unparsed verdicts), sorted."""
    return sorted({name for result in run.languages.values() for name in result.counts})


def language_label(lang: str) -> str:
    """``eu†``: a low-resource language marked; a language of one benchmark among several
    (``eu (truthfulqa_multi)``, a report aligned across benchmarks) marked the same."""
    code, found, rest = lang.partition(" (")
    low = code in LANGUAGES and LANGUAGES[code].resource == "low"
    return f"{code}{LOW_RESOURCE_MARK if low else ''}{found}{rest}"


def low_resource_note(langs: Iterable[str]) -> list[str]:
    """The table note that explains the † of ``language_label``, when a language has it."""
    if any(language_label(lang) != lang for lang in langs):
        return [f"{LOW_RESOURCE_MARK} low-resource language"]
    return []


def metric_table(run: RunResult, metric_order: list[str]) -> TextTable:
    """Metrics as rows, languages as columns (surface issues have their own table); past
    ``LANGUAGE_COLUMNS_MAX`` languages, turned: a row per language, a column per metric."""
    langs = list(run.languages)
    table = TextTable(
        f"{run.model} — {run.task}",
        ["metric", *(language_label(lang) for lang in langs)],
        notes=["Mean with 95% bootstrap interval over questions.", *templates_note(run)],
    )
    table.rows.append(["n", *(str(run.languages[lang].n) for lang in langs)])
    metrics = [m for m in shown_metrics(run, metric_order) if base_name(m) not in SURFACE_METRICS]
    about = describer(run)
    for metric in metrics:
        table.rows.append([metric, *(_cell(metric, about(metric), run.languages[lang]) for lang in langs)])
    undefined = _undefined_shown(run.languages.values(), metrics)
    table.notes += [
        *undefined_notes(undefined),
        *low_resource_note(langs),
        *mode_settings_notes(run),
        *left_out_note(run),
    ]
    for name in count_names(run):
        table.rows.append([name, *(str(run.languages[lang].counts.get(name, 0)) for lang in langs)])
    return languages_down(table) if len(langs) > LANGUAGE_COLUMNS_MAX else table


def templates_note(run: RunResult) -> list[str]:
    """The note of a run asked under several prompt templates: what n and the values are."""
    counts = {len(result.templates) for result in run.languages.values() if result.templates}
    if not counts:
        return []
    many = "/".join(str(c) for c in sorted(counts))
    samples = "; failed, empty and not-judged counts are of samples" if count_names(run) else ""
    return [
        f"Asked under {many} prompt templates: n counts questions, and a question's value is its mean over the "
        f"templates (each template's own: By language and prompt template){samples}."
    ]


def left_out_note(run: RunResult) -> list[str]:
    """What the left-out counts are, where a language has one."""
    names = sorted(name for name in count_names(run) if name.startswith("left_out"))
    if not names:
        return []
    return [
        f"{', '.join(names)}: questions of the whole data (whatever --limit picked) the benchmark's reference "
        "cannot score: left_out ones are in no metric and not in n, left_out_of_<metric> ones are in n but not "
        "in that metric; results.json names them (config.data_left_out)."
    ]


def languages_down(table: TextTable) -> TextTable:
    """``table`` (a row per metric, its first column their names, a column per language)
    turned: a row per language, a column per metric.

    >>> languages_down(TextTable("t", ["metric", "en", "es"], [["n", "5", "4"], ["mc1", "0.1", "0.2"]])).rows
    [['en', '5', '0.1'], ['es', '4', '0.2']]
    """
    columns = ["language", *(row[0] for row in table.rows)]
    rows = [[lang, *(row[j] for row in table.rows)] for j, lang in enumerate(table.columns[1:], start=1)]
    return TextTable(table.title, columns, rows, table.notes)


def mode_settings_notes(run: RunResult) -> list[str]:
    """One line per mode whose samples depend on settings of their own (how TruthfulQA-Multi
    scores its answers), so that a table never hides which variant it shows."""
    per_mode = run.config.get("mode_settings")
    if not isinstance(per_mode, dict):
        return []
    return [
        f"{mode}: " + ", ".join(f"{key}={value}" for key, value in sorted(settings.items()))
        for mode, settings in sorted(per_mode.items())
        if isinstance(settings, dict)
    ]


def _cell(metric: str, about: Metric, result: LanguageResult) -> str:
    return format_value(about, result.metrics[metric]) if metric in result.metrics else "n/a"


def surface_table(run: RunResult) -> TextTable | None:
    """Share of generated answers with each surface issue and marker, per language; and
    per mode where a task checks an answer of each (MSQAD's ``wrong_language@direct``)."""
    present = {m for result in run.languages.values() for m in result.metrics}
    shown = [m for m in SURFACE_METRICS if any(base_name(p) == m for p in present)]
    if not shown:
        return None
    modes = _surface_modes(run, present)
    langs = list(run.languages)
    table = TextTable(
        "Surface issues of the generated answers (share of answers, 95% interval)",
        ["language", *(["mode"] if modes else []), "n", "language not judged", *(SURFACE_COLUMNS[m] for m in shown)],
        notes=[
            "Any issue = wrong language or repetition; the markers are reported beside it. "
            "Wrong language leaves out the answers whose language was not judged "
            "(unreliable detector for the language, too short, or code only).",
            *low_resource_note(langs),
        ],
    )
    about = describer(run)
    for lang in langs:
        result = run.languages[lang]
        for mode in modes or [""]:
            setting = f"@{mode}" if mode else ""  # a mode's metrics are saved as name@mode
            values = [result.metrics.get(m + setting) for m in shown]
            cells = [format_value(about(m), value) if value is not None else "n/a" for m, value in zip(shown, values)]
            not_judged = str(result.counts.get("language_not_judged" + setting, 0))
            table.rows.append([language_label(lang), *([mode] if mode else []), str(result.n), not_judged, *cells])
    return table


def _surface_modes(run: RunResult, metrics: set[str]) -> list[str]:
    """The modes the surface metrics are saved under (none: one answer per sample), in
    the run's mode order."""
    found = {m.partition("@")[2] for m in metrics if base_name(m) in SURFACE_METRICS and "@" in m}
    modes = run.config.get("modes")
    order = {str(mode): i for i, mode in enumerate(modes if isinstance(modes, list) else [])}
    return sorted(found, key=lambda mode: (order.get(mode, len(order)), mode))


def group_table(run: RunResult, metric_order: list[str], group_name: str = "group") -> TextTable | None:
    """Every metric per language × question group, with n."""
    note = "Mean with 95% bootstrap interval over the questions of each group."
    return _breakdown(run, metric_order, f"By language and {group_name}", group_name, note, lambda r: r.groups)


def template_table(run: RunResult, metric_order: list[str]) -> TextTable | None:
    """Every metric per language × prompt template, with n: each template's own scores, for
    a run asked under several (the run's main table gives each question's mean over them)."""
    note = "Each template's own mean with its 95% bootstrap interval over the questions."
    return _breakdown(run, metric_order, "By language and prompt template", "template", note, lambda r: r.templates)


def _breakdown(
    run: RunResult,
    metric_order: list[str],
    title: str,
    column: str,
    note: str,
    parts: Callable[[LanguageResult], dict[str, LanguageResult]],
) -> TextTable | None:
    """A row per language and part (a question group, a template), every metric as a column."""
    if not any(parts(result) for result in run.languages.values()):
        return None
    metrics = [m for m in shown_metrics(run, metric_order) if not m.startswith("marker_")]
    langs = list(run.languages)
    cells = [one for result in run.languages.values() for one in parts(result).values()]
    table = TextTable(
        title,
        ["language", column, "n", *metrics],
        notes=[note, *undefined_notes(_undefined_shown(cells, metrics)), *low_resource_note(langs)],
    )
    about = describer(run)
    for lang in langs:
        for name, part in parts(run.languages[lang]).items():
            table.rows.append([language_label(lang), name, str(part.n), *(_cell(m, about(m), part) for m in metrics)])
    return table


CROSS_LANGUAGE_TABLES = {
    "anova": ("One-way ANOVA across languages", "Per question group, metric and temperature."),
    "tukey": (
        "Tukey HSD for every pair of languages",
        "mean_diff = mean(second) − mean(first), with its 95% family-wise interval and adjusted p.",
    ),
    "t_tests": ("Unpaired t-tests for every pair of languages", "Student's t, two-sided; reject at p < 0.05."),
}


def format_statistic(column: str, value: object) -> str:
    """p-values in scientific notation when small; other numbers to 4 significant digits."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if column.startswith("p") and value < 1e-3:
            return f"{value:.1e}"
        return f"{value:.4g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.2e}"
    return str(value)


def cross_language_tables(run: RunResult) -> list[TextTable]:
    """The task's statistics comparing languages, one table per kind of test."""
    tables = []
    for name, rows in run.cross_language.items():
        if not rows:
            continue
        title, note = CROSS_LANGUAGE_TABLES.get(name, (name, ""))
        columns = list(rows[0])
        table = TextTable(title, columns, notes=[note] if note else [])
        table.rows = [[format_statistic(c, row.get(c)) for c in columns] for row in rows]
        tables.append(table)
    return tables


def run_tables(run: RunResult, metric_order: list[str], group_name: str = "group") -> list[TextTable]:
    tables = [
        metric_table(run, metric_order),
        template_table(run, metric_order),
        surface_table(run),
        group_table(run, metric_order, group_name),
    ]
    return [t for t in tables if t is not None] + cross_language_tables(run)


def to_markdown(tables: list[TextTable]) -> str:
    blocks = []
    for level, table in enumerate(tables):
        lines = [("# " if level == 0 else "## ") + table.title, ""]
        lines += [note for note in table.notes[:1]] + ([""] if table.notes else [])
        lines.append("| " + " | ".join(table.columns) + " |")
        lines.append("|" + "---|" * len(table.columns))
        lines += ["| " + " | ".join(row) + " |" for row in table.rows]
        if len(table.notes) > 1:
            lines += ["", *table.notes[1:]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
