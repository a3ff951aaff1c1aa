"""How the report writes model-against-model comparisons, the same in every format: the
difference with its interval and the Holm-adjusted p as the gaps write theirs
(``cells.gap_text``, ``cells.p_cell``), the minimum detectable difference with its n, and
the notes saying what each is.

Prose here is plain ASCII apart from the minus sign, which ``latex.text`` rewrites: the
LaTeX file is compiled with pdflatex's default fonts, which lack Greek letters and the
root sign.
"""

from __future__ import annotations

from mlbench.metrics.descriptor import Metric
from mlbench.report.cells import INTERVAL_LABEL, digits
from mlbench.report.gaps import TEST_NAMES
from mlbench.report.pairs import PairCell, PairTable

SECTION = "Model against model"
DIFF_ROW = "difference [95% CI, unadjusted]"
MDD_ROW = "MDD (80% power), n"

# How each test's MDD is computed (stats/power.py), for the note under a pair table.
MDD_BASIS = {
    "mcnemar": (
        "for McNemar from the observed share of discordant questions, by Connor's (1987) sample size for "
        "paired proportions solved for the difference"
    ),
    "wilcoxon": (
        "for Wilcoxon from the observed SD of the paired differences, (z(0.975) + z(0.8)) * sd / sqrt(n), "
        "the normal approximation of the paired t-test"
    ),
}


def which_pairs(ref_model: str | None) -> str:
    """Which models are compared, and which way the difference goes."""
    if ref_model:
        return f"each model against {ref_model} (model − {ref_model})"
    return "every pair of models of a task (the second of the pair − the first)"


def section_intro(ref_model: str | None) -> str:
    """The paragraph under the section's heading: which pairs, and the family of Holm's correction."""
    return (
        f"Models that answered the same questions, compared on each headline metric: {which_pairs(ref_model)}, "
        "per language, on the questions both answered there (paired by id; n). Each difference has its "
        f"{INTERVAL_LABEL}, the p of the test the metric's descriptor chooses (McNemar for yes/no outcomes, "
        "Wilcoxon signed-rank otherwise), Holm-adjusted over the languages of one pair on one metric, and its "
        "minimum detectable difference (MDD): the smallest true difference those n questions would find "
        "with 80% power at alpha = 0.05, two-sided. A difference without a star says nothing about "
        "differences smaller than its MDD."
    )


def heading(table: PairTable) -> str:
    """``truthfulqa_multi · mc1 (McNemar)``."""
    used = [TEST_NAMES[test] for test in table.tests()]
    return table.title + (f" ({', '.join(used)})" if used else "")


def note(table: PairTable) -> str:
    """The note under every pair table: the difference, the p, the MDD and how it was computed."""
    basis = "; ".join(MDD_BASIS[test] for test in table.tests() if test in MDD_BASIS) or "no test could be run"
    return (
        f"Difference: the second model − the first, with its {INTERVAL_LABEL}. "
        "p (Holm): the test's p, Holm-adjusted over the languages of one pair of models "
        "(* p<0.05, ** p<0.01, *** p<0.001). "
        f"MDD: the smallest difference n paired questions detect with 80% power at alpha = 0.05, two-sided ({basis}); "
        "a difference without a star is inconclusive below its MDD, not evidence of no difference."
    )


def mdd_number(metric: str | Metric, cell: PairCell | None) -> str:
    """``0.094``; ``n/a`` where there is none (no discordant question, too few questions)."""
    if cell is None or cell.mdd is None:
        return "n/a"
    return f"{cell.mdd:.{digits(metric)}f}"


def mdd_text(metric: str | Metric, cell: PairCell | None) -> str:
    """``0.094 (n=200)``: the MDD with the paired questions it is for."""
    if cell is None:
        return "n/a"
    return f"{mdd_number(metric, cell)} (n={cell.gap.n})"
