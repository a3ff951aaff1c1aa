"""Is a language's gap the model's or the translation's? The report's section for a
language run under two or more translations of TruthfulQA (TruthfulQA-Multi's human and
machine translations, TruthfulQA-X, ...), as the Prompt templates section is for prompts.

Questions are paired across benchmarks by TruthfulQA's row (``alignment.py``). Per model,
metric and language, on the questions every translation of the language answered:

- each translation's score, their spread (min, max, SD with n − 1);
- each translation's gap to the model's reference column (``alignment.references``;
  paired on the questions both answered, its own n; Holm over every gap of the model and
  metric), and whether it is significant under every translation, some or none, and
  whether its sign changes;
- each pair of translations compared, question by question: McNemar's test for a metric
  that is 0 or 1 per sample (MC1, a judge's yes/no), Wilcoxon's signed-rank test
  otherwise (Holm over the language's pairs); beside it, for a 0/1 metric, the
  TruthfulQA-Multi authors' own test, a chi-square of one translation's yes/no counts
  against the other's (``stats/goodness_of_fit.py``), named as theirs.

The authors' test is not symmetric: one side's counts are the expected ones (theirs: the
human translation's). The expected side is named, and chosen in this order: the benchmark
of the column ``--ref-lang`` named in full; the human translation, where a language's
runs mark exactly one (results.json's ``translation``, from ``Alignment.translation``);
the benchmark of the model's reference column, then of the report's. A pair that holds
none of them gets no chi-square, and its note says why; never the first by name.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from mlbench.metrics.descriptor import Metric
from mlbench.metrics.names import base_name
from mlbench.report.alignment import column_name, parse_column, shared_reference, translation_of
from mlbench.report.build import described, saved_descriptors
from mlbench.report.collect import Collection, ModelTask
from mlbench.report.gaps import Gap, compare_columns, with_holm
from mlbench.report.questions import QuestionValues
from mlbench.stats.goodness_of_fit import ChiSquare, authors_chi_square
from mlbench.stats.intervals import DEFAULT_RESAMPLES


@dataclass(frozen=True)
class TranslationPair:
    """``second`` − ``first`` on the shared questions; ``chi_square`` the authors' test
    (``second``'s counts observed, ``first``'s expected, ``first`` being then ``expected``,
    the reference benchmark; none, with its note, where neither is), for a 0/1 metric only."""

    first: str
    second: str
    gap: Gap
    chi_square: ChiSquare | None
    expected: str = ""  # the benchmark whose counts are the expected ones; "" where neither is


@dataclass(frozen=True)
class TranslationRow:
    model: str
    metric: str
    lang: str
    n: int  # the questions every translation answered, with a value in each
    scores: tuple[tuple[str, float], ...]  # (benchmark, mean on those questions), by benchmark name
    gaps: tuple[tuple[str, Gap | None], ...]  # (benchmark, gap to the reference); None: it is the reference
    pairs: tuple[TranslationPair, ...]
    reference: str  # the reference column (``en (truthfulqa_multi)``), "" when no run has it
    # (benchmark, how it was translated: human, machine, "" where its run does not say)
    kinds: tuple[tuple[str, str], ...] = ()

    @property
    def spread(self) -> tuple[float, float, float]:
        """(min, max, SD) of the scores over the translations."""
        values = [v for _, v in self.scores]
        return min(values), max(values), statistics.stdev(values) if len(values) > 1 else 0.0

    @property
    def tested(self) -> list[Gap]:
        return [gap for _, gap in self.gaps if gap is not None and gap.p_holm is not None]

    @property
    def robustness(self) -> str:
        """``every``, ``some`` or ``none``: the translations under which the gap is significant."""
        tested = self.tested
        if not tested:
            return ""
        significant = sum(gap.significant for gap in tested)
        return "every" if significant == len(tested) else "some" if significant else "none"

    @property
    def sign_flips(self) -> bool:
        diffs = [gap.diff for gap in self.tested if gap.diff is not None]
        return any(d > 0 for d in diffs) and any(d < 0 for d in diffs)


@dataclass
class Translations:
    rows: list[TranslationRow]
    notes: list[str]  # the languages with no question in common, for the report's notes


def translation_rows(
    aligned: Collection,
    chosen: Mapping[str, str | None],
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    metrics: Iterable[str] = (),
    named: str = "",
) -> Translations:
    """A row per (model, metric, language) run under two or more benchmarks of ``aligned``
    (``alignment.aligned_runs``; only ``metrics``, by name or base name, when given).
    ``chosen``: each model's reference column (``alignment.references``); ``named``: the
    column ``--ref-lang`` named in full, "" where it gave a language."""
    shared = shared_reference(chosen) or ""
    wanted = set(metrics)
    rows: list[TranslationRow] = []
    notes: list[str] = []
    for run in aligned.runs:
        reference = chosen.get(run.model) or ""
        groups = _groups(run)
        for metric in _metrics(run, groups):
            if wanted and not {metric, base_name(metric)} & wanted:
                continue
            about = described(saved_descriptors([run]), metric, run.task)
            found = []
            for lang, tasks in groups.items():
                if not all(metric in run.languages[column_name(lang, task)].values for task in tasks):
                    continue  # a metric one of its translations did not measure
                expected = _expected_sides(run, lang, tasks, named, (reference, shared))
                row = _row(run, metric, about, lang, tasks, (reference, expected), seed, resamples)
                if row is None:
                    notes.append(f"{run.model} · {metric} · {lang}: no question has a value in every translation")
                else:
                    found.append(row)
            rows += _holm_over_gaps(found)
    return Translations(rows, notes)


def _expected_sides(run: ModelTask, lang: str, tasks: list[str], named: str, references: tuple[str, str]) -> list[str]:
    """The benchmarks that may be the authors' expected side of ``lang``'s pairs, in order:
    that of the column ``--ref-lang`` named in full; the one of ``tasks`` whose run says it
    is a human translation, where one is; then that of the model's reference column and of
    the report's (``references``)."""
    humans = [task for task in tasks if translation_of(run, column_name(lang, task)) == "human"]
    columns = [parse_column(name) for name in (named, *references) if name]
    benchmarks = [column.task for column in columns if column is not None]
    return list(dict.fromkeys([*benchmarks[: 1 if named else 0], *(humans if len(humans) == 1 else []), *benchmarks]))


def _groups(run: ModelTask) -> dict[str, list[str]]:
    """Language → its benchmarks, where it has two or more, by name (the order of the
    scores; the pairs put the expected side first, ``_pairs``)."""
    groups: dict[str, list[str]] = {}
    for name in run.languages:
        column = parse_column(name)
        if column is not None:
            groups.setdefault(column.lang, []).append(column.task)
    return {lang: sorted(tasks) for lang, tasks in sorted(groups.items()) if len(tasks) > 1}


def _metrics(run: ModelTask, groups: dict[str, list[str]]) -> list[str]:
    """The metrics with per-question values in every benchmark of some language, in the runs' order."""
    names: dict[str, None] = {}
    for lang, tasks in groups.items():
        entries = [run.languages[column_name(lang, task)] for task in tasks]
        names.update(dict.fromkeys(m for m in entries[0].values.columns if all(m in e.values for e in entries[1:])))
    return list(names)


def _row(
    run: ModelTask,
    metric: str,
    about: Metric,
    lang: str,
    tasks: list[str],
    references: tuple[str, list[str]],
    seed: int,
    resamples: int,
) -> TranslationRow | None:
    """``references``: the model's reference column, and the benchmarks that may be the
    authors' expected side (``_expected_sides``)."""
    reference, expected = references
    columns = [run.languages[column_name(lang, task)].values for task in tasks]
    shared = _shared(columns, metric)
    if len(shared.ids) < 1:
        return None
    values = {task: shared.columns[str(i)] for i, task in enumerate(tasks)}
    scores = tuple((task, float(values[task].mean())) for task in tasks)
    ref_entry = run.languages.get(reference)
    gaps: list[tuple[str, Gap | None]] = []
    for task in tasks:
        name = column_name(lang, task)
        if name == reference or ref_entry is None or metric not in ref_entry.values:
            gaps.append((task, None))
            continue
        own = QuestionValues(shared.ids, {metric: values[task]})
        rows = ref_entry.values.align(own)
        gap = compare_columns(
            name, ref_entry.values.columns[metric], own.columns[metric], rows, binary=about.binary,
            seed=seed, resamples=resamples, paired_only=True,
        )  # fmt: skip
        gaps.append((task, gap))
    pairs = _pairs(tasks, values, shared.ids, about.binary, expected, seed, resamples)
    kinds = tuple((task, translation_of(run, column_name(lang, task))) for task in tasks)
    return TranslationRow(run.model, metric, lang, len(shared.ids), scores, tuple(gaps), pairs, reference, kinds)


def _shared(columns: list[QuestionValues], metric: str) -> QuestionValues:
    """The questions each of ``columns`` has a value of ``metric`` for; a column per
    position (named by its index's benchmark later), in id order."""
    common = set(columns[0].ids)
    for column in columns[1:]:
        common &= set(column.ids)
    ids = sorted(common)
    arrays = []
    for column in columns:
        position = {q: i for i, q in enumerate(column.ids)}
        arrays.append(column.columns[metric][[position[q] for q in ids]] if ids else np.zeros(0))
    keep = np.all([~np.isnan(a) for a in arrays], axis=0) if ids else np.zeros(0, dtype=bool)
    return QuestionValues([q for q, k in zip(ids, keep) if k], {str(i): a[keep] for i, a in enumerate(arrays)})


def _pairs(
    tasks: list[str],
    values: dict[str, np.ndarray],
    ids: list[str],
    binary: bool,
    candidates: list[str],
    seed: int,
    resamples: int,
) -> tuple[TranslationPair, ...]:
    """Every pair of translations, tested on the shared questions; Holm over the pairs.
    The expected side (the first of ``candidates`` the language has) first in each of its
    pairs, the others by name; a pair without it has no chi-square."""
    expected = next((task for task in candidates if task in tasks), "")
    order = [task for task in tasks if task == expected] + [task for task in tasks if task != expected]
    found = []
    rows = np.arange(len(ids)), np.arange(len(ids))
    for first, second in itertools.combinations(order, 2):
        a, b = values[first], values[second]
        gap = compare_columns(second, a, b, rows, binary=binary, seed=seed, resamples=resamples, paired_only=True)
        chi = None
        if binary and gap.test == "mcnemar":  # a 0/1 column after all: counts to compare
            chi = _chi_square(a, b) if first == expected else ChiSquare(None, None, _no_expected(candidates))
        found.append(TranslationPair(first, second, gap, chi, expected if first == expected else ""))
    adjusted = with_holm([pair.gap for pair in found])
    return tuple(replace(pair, gap=gap) for pair, gap in zip(found, adjusted))


def _no_expected(candidates: list[str]) -> str:
    if not candidates:
        return "no expected side: no model has the reference language and no translation is marked human"
    held = ", ".join(candidates)
    return f"no expected side: the pair holds neither the human translation nor the reference's benchmark ({held})"


def _chi_square(expected: np.ndarray, observed: np.ndarray) -> ChiSquare:
    """The authors' test: ``observed``'s [yes, no] counts against ``expected``'s."""
    yes_expected, yes_observed = int(expected.sum()), int(observed.sum())
    return authors_chi_square(
        observed=(yes_observed, int(observed.size) - yes_observed),
        expected=(yes_expected, int(expected.size) - yes_expected),
    )


def _holm_over_gaps(rows: list[TranslationRow]) -> list[TranslationRow]:
    """The rows with every gap's p Holm-adjusted over all the gaps of one model and metric."""
    tested = [(r, t, gap) for r, row in enumerate(rows) for t, (_, gap) in enumerate(row.gaps) if gap is not None]
    adjusted = with_holm([gap for _, _, gap in tested])
    gaps = [list(row.gaps) for row in rows]
    for (r, t, _), gap in zip(tested, adjusted):
        gaps[r][t] = (gaps[r][t][0], gap)
    return [replace(row, gaps=tuple(g)) for row, g in zip(rows, gaps)]
