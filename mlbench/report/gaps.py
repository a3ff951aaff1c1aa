"""Is a language's score different from the reference language's, and is the gap real?

Compared question by question on the ids both languages answered (paired): the mean
difference with a paired bootstrap interval, and McNemar's test for a metric whose
descriptor says it is 0 or 1 per sample (``binary``: MC1, bleu_acc, judge labels,
refusal, surface flags) or Wilcoxon's signed-rank test otherwise (MC2, BLEU,
similarities). The choice follows the declaration, not the values: a share that happens
to be all 0s and 1s in a small sample (CaLMQA's factuality) is still ranked. A metric
declared binary whose values are not all 0 or 1 (a wrong declaration, a damaged file) is
not forced through McNemar: it is ranked too, and the gap's note says why.

When the two languages share too few questions (CaLMQA's culturally specific ones differ
by language), the samples are compared as independent instead: an unpaired bootstrap,
Fisher's exact test or Mann–Whitney U; the gap says so. Holm's correction then runs
over the languages of one model in one table.

Two models on one language are compared by the same code (``pairs.py``), with
``paired_only``: their questions are the same by design, so only the shared ones count.

The significance marker and the interval are two statistics, reported side by side and
labelled, not one procedure: the star is the test's (Holm-adjusted p < 0.05, the p shown
beside the gap in every format); the interval is a 95% bootstrap CI of the mean
difference, not adjusted for multiplicity. They test different things (McNemar the
discordant questions, Wilcoxon the ranks of the differences, the interval the mean) at
different levels (Holm over a row vs 95% per gap), so they can disagree: a skewed set of
differences can give a significant signed-rank test with an interval that includes 0,
and a gap whose interval excludes 0 can lose its star after Holm. The tests are kept
because they are the standard ones of the literature this tool reproduces and are
checked against scipy and statsmodels; the labels, the note every gap table refers to and
the ``p_holm`` column make the disagreement readable instead of hiding it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from mlbench.report.questions import QuestionValues
from mlbench.stats.intervals import DEFAULT_RESAMPLES, bootstrap_mean_difference
from mlbench.stats.multiple import holm
from mlbench.stats.paired import mcnemar_counts
from mlbench.stats.signed_rank import wilcoxon
from mlbench.stats.unpaired import fisher_exact, mann_whitney

ALPHA = 0.05
# Paired when the shared questions are at least this share of each language's questions.
PAIRED_MIN_SHARE = 0.5

TEST_NAMES = {
    "mcnemar": "McNemar",
    "wilcoxon": "Wilcoxon signed-rank",
    "fisher": "Fisher exact (unpaired)",
    "mann-whitney": "Mann–Whitney U (unpaired)",
}


@dataclass(frozen=True)
class Gap:
    """``lang`` minus the reference language on one metric."""

    lang: str
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    n: int  # questions compared (paired), or both samples together (unpaired)
    paired: bool
    test: str  # a key of TEST_NAMES, or "" when nothing could be tested
    p: float | None
    p_holm: float | None = None
    note: str = ""

    @property
    def significant(self) -> bool:
        return self.p_holm is not None and self.p_holm < ALPHA


def untested(lang: str, note: str) -> Gap:
    return Gap(lang, None, None, None, 0, False, "", None, note=note)


def _zero_one(values: np.ndarray) -> bool:
    return bool(np.all((values == 0.0) | (values == 1.0)))


NOT_ZERO_ONE = "declared 0/1 per sample but has other values: ranked test"


def compare_columns(
    lang: str,
    reference: np.ndarray,
    values: np.ndarray,
    rows: tuple[np.ndarray, np.ndarray],
    *,
    binary: bool,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    paired_only: bool = False,
) -> Gap:
    """The gap of ``values`` against ``reference`` (one metric's column in each language,
    NaN where a question has no value); ``rows`` pairs their rows (``QuestionValues.align``).
    ``binary``: the metric's descriptor says each value is 0 or 1 (McNemar / Fisher).
    ``paired_only``: no unpaired fallback, the shared questions however few (two models
    on one language, whose questions are the same by design)."""
    ref_all = reference[~np.isnan(reference)]
    lang_all = values[~np.isnan(values)]
    if not ref_all.size or not lang_all.size:
        return untested(lang, f"no per-question values for {'the reference language' if not ref_all.size else lang}")
    a, b = paired_values(reference, values, rows)
    mislabelled = binary and not (_zero_one(ref_all) and _zero_one(lang_all))
    binary = binary and not mislabelled
    if paired_only and a.size < 2:  # paired, on n = a.size questions: too few to test
        gap = replace(untested(lang, f"{a.size} question(s) with a value on both sides: too few to pair"),
                      n=int(a.size), paired=True)  # fmt: skip
    elif paired_only:
        gap = _paired(lang, a, b, binary, seed, resamples)
    else:
        gap = _compare(lang, a, b, ref_all, lang_all, binary, seed, resamples)
    if mislabelled:
        return replace(gap, note="; ".join(filter(None, (gap.note, NOT_ZERO_ONE))))
    return gap


def _compare(
    lang: str,
    a: np.ndarray,
    b: np.ndarray,
    ref_all: np.ndarray,
    lang_all: np.ndarray,
    binary: bool,
    seed: int,
    resamples: int,
) -> Gap:
    """Paired when the shared questions ``a``/``b`` are enough, else unpaired on every value."""
    if a.size >= 2 and a.size >= PAIRED_MIN_SHARE * max(ref_all.size, lang_all.size):
        return _paired(lang, a, b, binary, seed, resamples)
    low, high = bootstrap_mean_difference(ref_all, lang_all, paired=False, seed=seed, resamples=resamples)
    if binary:
        yes_lang, yes_ref = int(lang_all.sum()), int(ref_all.sum())
        result = fisher_exact(yes_a=yes_lang, n_a=int(lang_all.size), yes_b=yes_ref, n_b=int(ref_all.size))
    else:
        result = mann_whitney(lang_all.tolist(), ref_all.tolist())
    note = f"unpaired: {a.size} shared questions of {ref_all.size} and {lang_all.size}"
    diff = float(lang_all.mean() - ref_all.mean())
    n = int(ref_all.size + lang_all.size)
    return Gap(lang, diff, low, high, n, False, result.name, result.p, note=note)


def _paired(lang: str, a: np.ndarray, b: np.ndarray, binary: bool, seed: int, resamples: int) -> Gap:
    """``b`` − ``a`` on paired values (the same question at each position): the paired
    bootstrap interval, and McNemar's test (``binary``) or Wilcoxon's signed-rank test."""
    low, high = bootstrap_mean_difference(a, b, paired=True, seed=seed, resamples=resamples)
    if binary:
        yes_yes = int(np.count_nonzero((a == 1.0) & (b == 1.0)))
        only_lang = int(np.count_nonzero((a == 0.0) & (b == 1.0)))
        only_ref = int(np.count_nonzero((a == 1.0) & (b == 0.0)))
        neither = int(a.size) - yes_yes - only_lang - only_ref
        test, p = "mcnemar", mcnemar_counts(both=yes_yes, only_a=only_lang, only_b=only_ref, neither=neither).p
    else:
        test, p = "wilcoxon", wilcoxon(b, a).p
    return Gap(lang, float(b.mean() - a.mean()), low, high, int(a.size), True, test, p)


def paired_values(
    reference: np.ndarray, values: np.ndarray, rows: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The values of the questions both columns have (``rows`` from ``QuestionValues.align``),
    position by position: what the paired tests and their interval are computed on."""
    a, b = reference[rows[0]], values[rows[1]]
    both = ~np.isnan(a) & ~np.isnan(b)
    return a[both], b[both]


def compare(
    lang: str,
    reference: Mapping[str, float],
    values: Mapping[str, float],
    *,
    binary: bool,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> Gap:
    """The gap of ``values`` (question id → value) against ``reference`` (the same for
    the reference language); ``binary`` as in ``compare_columns``."""
    ref = QuestionValues.from_columns(list(reference), {"m": list(reference.values())})
    other = QuestionValues.from_columns(list(values), {"m": list(values.values())})
    columns = ref.columns["m"], other.columns["m"]
    return compare_columns(lang, *columns, ref.align(other), binary=binary, seed=seed, resamples=resamples)


def with_holm(gaps: list[Gap]) -> list[Gap]:
    """The gaps with Holm-adjusted p-values over the family ``gaps``."""
    adjusted = holm([gap.p for gap in gaps])
    return [replace(gap, p_holm=p) for gap, p in zip(gaps, adjusted)]
