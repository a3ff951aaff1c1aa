"""Is a language's score different from the reference language's, and is the gap real?

Compared question by question on the ids both languages answered (paired): the mean
difference with a paired bootstrap interval, and McNemar's test when every value is 0 or
1 (MC1, bleu_acc, judge labels, refusal, surface flags) or Wilcoxon's signed-rank test
otherwise (MC2, BLEU, similarities). When the two languages share too few questions
(CaLMQA's culturally specific ones differ by language), the samples are compared as
independent instead: an unpaired bootstrap, Fisher's exact test or Mann–Whitney U; the
gap says so. Holm's correction then runs over the languages of one model in one table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from mlbench.stats.intervals import DEFAULT_RESAMPLES, bootstrap_mean_difference
from mlbench.stats.multiple import holm
from mlbench.stats.paired import mcnemar
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


def compare(
    lang: str,
    reference: Mapping[str, float],
    values: Mapping[str, float],
    *,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> Gap:
    """The gap of ``values`` (question id → value) against ``reference`` (the same for
    the reference language)."""
    if not reference or not values:
        missing = "the reference language" if not reference else lang
        return Gap(lang, None, None, None, 0, False, "", None, note=f"no per-question values for {missing}")
    shared = sorted(set(reference) & set(values))
    binary = all(v in (0.0, 1.0) for v in (*reference.values(), *values.values()))
    if len(shared) >= 2 and len(shared) >= PAIRED_MIN_SHARE * max(len(reference), len(values)):
        a = [reference[q] for q in shared]
        b = [values[q] for q in shared]
        low, high = bootstrap_mean_difference(a, b, paired=True, seed=seed, resamples=resamples)
        if binary:
            test, p = "mcnemar", mcnemar([x == 1.0 for x in b], [x == 1.0 for x in a]).p
        else:
            test, p = "wilcoxon", wilcoxon(b, a).p
        diff = float(np.mean(b) - np.mean(a))
        return Gap(lang, diff, low, high, len(shared), True, test, p)
    a, b = list(reference.values()), list(values.values())
    low, high = bootstrap_mean_difference(a, b, paired=False, seed=seed, resamples=resamples)
    if binary:
        result = fisher_exact(yes_a=int(sum(b)), n_a=len(b), yes_b=int(sum(a)), n_b=len(a))
    else:
        result = mann_whitney(b, a)
    note = f"unpaired: {len(shared)} shared questions of {len(reference)} and {len(values)}"
    diff = float(np.mean(b) - np.mean(a))
    return Gap(lang, diff, low, high, len(a) + len(b), False, result.name, result.p, note=note)


def with_holm(gaps: list[Gap]) -> list[Gap]:
    """The gaps with Holm-adjusted p-values over the family ``gaps``."""
    adjusted = holm([gap.p for gap in gaps])
    return [replace(gap, p_holm=p) for gap, p in zip(gaps, adjusted)]
