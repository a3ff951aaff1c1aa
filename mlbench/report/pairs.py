"""Model against model: when two or more models answered the same questions, the paired
difference between them per language, for every headline metric of a task.

Built as the language gaps are (``gaps.py``): the questions are paired by id (only those
both models answered in that language, with a value on both sides), the difference is
the mean of the paired differences with its paired bootstrap 95% CI (``--seed``,
``--resamples``), and the test is the one the metric's descriptor chooses: McNemar for a
0/1 metric, Wilcoxon's signed-rank test otherwise. There is no unpaired fallback: two
models on one language have the same questions by design, so only the shared ones count.

Which pairs: with ``--ref-model`` each other model against it (model − ref); without,
every pair of models of the task, the second of the table's order minus the first. Holm's
correction runs over the languages of one pair on one metric, as the gaps' runs over the
languages of one model; pairs and metrics are separate families, as the gaps' models and
metrics are.

Each difference also gets its minimum detectable difference (``stats/power.py``): the
smallest true difference its n questions would find with 80% power at α = 0.05, two-sided,
so that a difference without a star reads as "smaller than what this test could see",
not as "no difference".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.metrics.descriptor import Metric
from mlbench.report.build import ReportTable
from mlbench.report.collect import Collection, LanguageEntry, ModelTask, model_label
from mlbench.report.gaps import Gap, compare_columns, paired_values, untested, with_holm
from mlbench.stats.intervals import DEFAULT_RESAMPLES
from mlbench.stats.power import mdd_mcnemar, mdd_mean_difference


@dataclass(frozen=True)
class PairCell:
    """One language of a pair: ``gap`` is the second model minus the first (its ``n`` the
    paired questions, ``p_holm`` over the pair's languages)."""

    gap: Gap
    mdd: float | None = None  # minimum detectable difference, 80% power, α = 0.05 two-sided
    # What the MDD is computed from: the paired differences' SD (Wilcoxon) or the share of
    # discordant questions (McNemar).
    sd_diff: float | None = None
    discordant: float | None = None
    mdd_note: str = ""  # why there is no MDD


@dataclass
class ModelPair:
    first: str  # the reference of the pair: --ref-model, or the earlier model
    second: str
    cells: dict[str, PairCell] = field(default_factory=dict)  # language → cell

    @property
    def label(self) -> str:
        return f"{self.second} − {self.first}"

    def cell(self, lang: str) -> PairCell | None:
        return self.cells.get(lang)


@dataclass
class PairTable:
    """The pairs of models of one task on one headline metric."""

    task: str
    metric: str
    descriptor: Metric
    langs: list[str]
    pairs: list[ModelPair]

    @property
    def title(self) -> str:
        return f"{self.task} · {self.metric}"

    def tests(self) -> list[str]:
        """The tests its differences used, in order of first use."""
        used = (cell.gap.test for pair in self.pairs for cell in pair.cells.values() if cell.gap.test)
        return list(dict.fromkeys(used))


def resolve_ref_model(collection: Collection, name: str) -> str:
    """The label of the model ``name`` names: a label as the report shows it, or the model
    as its runs record it (hub id or path, or the path's last part)."""
    labels = sorted({run.model for run in collection.runs})
    if name in labels:
        return name
    named = {run.model for run in collection.runs if name in (run.recorded, model_label(run.recorded))}
    if len(named) == 1:
        return named.pop()
    if named:
        given = clipped(name)
        raise MlbenchError(f"--ref-model {given} names {len(named)} models; give one of {', '.join(sorted(named))}")
    hint = did_you_mean(name, labels)
    raise MlbenchError(f"--ref-model {clipped(name)}: no such model in the runs{hint}; models: {', '.join(labels)}")


def build_pairs(
    collection: Collection,
    tables: list[ReportTable],
    *,
    ref_model: str | None = None,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> list[PairTable]:
    """A ``PairTable`` per headline table with per-question values whose task has two
    models or more that share questions; ``ref_model`` a label (``resolve_ref_model``)."""
    out = []
    for task in dict.fromkeys(t.task for t in tables):
        runs = {run.model: run for run in collection.runs if run.task == task}
        mine = [t for t in tables if t.task == task and t.headline and t.per_question]
        for table in mine:
            models = [model for model in table.rows if model in runs]
            pairs = [_pair(runs[a], runs[b], table, seed, resamples) for a, b in _pairs_of(models, ref_model)]
            pairs = [pair for pair in pairs if any(cell.gap.p is not None for cell in pair.cells.values())]
            if pairs:
                out.append(PairTable(task, table.metric, table.descriptor, table.langs, pairs))
    return out


def ref_model_notes(collection: Collection, pairs: list[PairTable], ref_model: str) -> list[str]:
    """What a reader should know about ``--ref-model``: the tasks of several models it has
    no run of (they would be compared without it), or that it was compared with nothing."""
    having = {run.task for run in collection.runs if run.model == ref_model}
    tasks = [run.task for run in collection.runs]
    notes = [
        f"--ref-model {ref_model} has no run of {task}: its models are not compared"
        for task in sorted(set(tasks) - having)
        if tasks.count(task) > 1
    ]
    if not pairs and not notes:
        notes.append(f"--ref-model {ref_model}: no other model answered the same questions, nothing to compare")
    return notes


def _pairs_of(models: list[str], ref_model: str | None) -> Iterable[tuple[str, str]]:
    if ref_model is None:
        return combinations(models, 2)
    return [(ref_model, model) for model in models if model != ref_model] if ref_model in models else []


def _pair(first: ModelTask, second: ModelTask, table: ReportTable, seed: int, resamples: int) -> ModelPair:
    metric, binary = table.metric, table.descriptor.binary
    cells: dict[str, PairCell] = {}
    for lang in table.langs:
        a, b = first.languages.get(lang), second.languages.get(lang)
        if a is None or b is None or metric not in a.result.metrics or metric not in b.result.metrics:
            continue
        missing = [run.model for run, entry in ((first, a), (second, b)) if not entry.values.count(metric)]
        if missing:
            cells[lang] = PairCell(untested(lang, f"no per-question values for {' and '.join(missing)}"))
            continue
        cells[lang] = _compare(lang, a, b, metric, binary, seed, resamples)
    adjusted = with_holm([cell.gap for cell in cells.values()])
    held = {lang: replace(cell, gap=gap) for (lang, cell), gap in zip(cells.items(), adjusted)}
    return ModelPair(first.model, second.model, held)


def _compare(
    lang: str, a: LanguageEntry, b: LanguageEntry, metric: str, binary: bool, seed: int, resamples: int
) -> PairCell:
    rows = a.values.align(b.values)
    first, second = a.values.columns[metric], b.values.columns[metric]
    gap = compare_columns(lang, first, second, rows, binary=binary, seed=seed, resamples=resamples, paired_only=True)
    if gap.p is None:
        return PairCell(gap)
    x, y = paired_values(first, second, rows)
    n = int(x.size)
    if gap.test == "mcnemar":
        discordant = float(np.count_nonzero(x != y)) / n
        mdd = mdd_mcnemar(discordant, n)
        why = "" if mdd is not None else "no discordant question" if not discordant else "too few questions"
        return PairCell(gap, mdd, discordant=discordant, mdd_note=why)
    sd = float(np.std(y - x, ddof=1))
    mdd = mdd_mean_difference(sd, n)
    return PairCell(gap, mdd, sd_diff=sd, mdd_note="" if mdd is not None else "every paired difference is the same")
