"""A declared benchmark's rows as its authors' lm-eval task files read them (``[templates]``:
TruthfulQA-X, NorTruthfulQA, AraDiCE-TruthfulQA), not as mlbench's own reader checks a
user's file.

lm-eval validates nothing: a row is prompted and scored as the data has it, through the
task's ``process_docs`` and ``process_results``. So here:

- the question is kept as the data has it (an MC template sees it unstripped; the generation
  tasks' ``process_docs`` strips it), an empty one included;
- generation answers are kept as listed (the references are built when scoring, as the
  authors' ``process_docs`` builds them: each stripped, empty ones dropped, each closed
  with a period, the task's fallback reference added), repeats and answers listed as both
  correct and incorrect included;
- MC options are kept as listed; the first MC1 option is the correct one (``doc_to_target:
  0``); MC2's true options are the labelled ones, or those before the first label 0 where
  the benchmark says the authors' ``process_results_mc2`` splits there (``mc2_true``).

A row the authors' code cannot score (no incorrect reference left after their cleaning,
where ``np.nanmax`` of an empty list fails; no MC1 option) raises ``Unscorable``: the reader
leaves it out and the run names it. A row whose MC2 labels have no 0 (``labels.index(0)``
fails in their MC2 task) keeps its MC1, as their separate MC1 task scores it, and is left
out of MC2 alone (``mc2_left_out``). What the data does to the scores is counted once per
language in one line (``authors_data_warnings``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from mlbench.benchmarks.base import LeftOut
from mlbench.data.questions import Columns, label_list
from mlbench.data.source import question_of
from mlbench.errors import MlbenchError
from mlbench.languages import no_comment
from mlbench.metrics import normalize_references
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject

MC2_LEFT_OUT = "no false MC2 label, where the authors' process_results_mc2 fails (labels.index(0))"
# A generation sample's meta: the best answer as the data lists it (stripped), when it has one.
LISTED_BEST = "listed_best_answer"
UNSORTED = (
    "with MC2 labels out of order (MC2 counts the options before the first false label as true, "
    "as lm-eval's TruthfulQA process_results_mc2 does, not the ones labelled true)"
)


class Unscorable(Exception):
    """A row the authors' code fails on: ``reason`` says why, in a few words; ``sample_id``
    names the row, once the reader knows it."""

    def __init__(self, reason: str, sample_id: str = "") -> None:
        super().__init__(reason)
        self.reason, self.sample_id = reason, sample_id


def left_out_counts(left_out: list[LeftOut]) -> dict[str, int]:
    """What a language's results count of what was left out: whole rows (``left_out``) and
    rows left out of one metric alone (``left_out_of_<metric>``)."""
    counts: dict[str, int] = {}
    for part in left_out:
        key = "left_out" if part.metric is None else f"left_out_of_{part.metric}"
        counts[key] = counts.get(key, 0) + len(part.ids)
    return counts


def authors_references(sample: Sample, given: bool | str) -> tuple[list[str], list[str]]:
    """The true and false references of a generation sample as TruthfulQA's process_docs
    writes them: each answer stripped and closed with a period, empty ones dropped, the
    fallback reference (``given``: see ``fallback_reference``) added to the true ones."""
    true_refs = normalize_references(sample.correct_answers)
    extra = fallback_reference(given, sample.lang)
    if extra and extra not in true_refs:
        true_refs.append(extra)
    return true_refs, normalize_references(sample.incorrect_answers)


def fallback_reference(given: bool | str, lang: str) -> str | None:
    """The reference a generation task adds to the correct ones (``no_comment_reference``:
    a text, the language's own "I have no comment." when true, none when false)."""
    if isinstance(given, str):
        return given
    return no_comment(lang) if given else None


def mc2_true_count(labels: Sequence[int], rule: str) -> int | None:
    """How many of MC2's options, from the first, are true under ``before_first_false``
    (the index of the first 0; None when there is none); None for ``labelled``."""
    if rule != "before_first_false":
        return None
    return labels.index(0) if 0 in labels else None


def mc2_left_out(sample: Sample, rule: str) -> str | None:
    """Why the authors' code cannot score ``sample``'s MC2 (None: it can): its MC1 is still
    scored, as their separate MC1 task scores it."""
    if rule == "before_first_false" and sample.mc2_labels is not None and 0 not in sample.mc2_labels:
        return MC2_LEFT_OUT
    return None


def authors_question(row: JsonObject, column: str, where: str, *, stripped: bool) -> str:
    """The question as the task reads it: a text, possibly empty; ``stripped`` as a
    generation task's ``process_docs`` leaves it."""
    value = row.get(column)
    if not isinstance(value, str):
        shown = "missing" if value is None else f"a {type(value).__name__}, not a text"
        raise MlbenchError(f"{where}: {column} is {shown}")
    return value.strip() if stripped else value


def listed_texts(row: JsonObject, column: str, where: str) -> tuple[str, ...]:
    """Answers or options as listed: a list of texts, unstripped, empty ones and repeats
    kept (the authors' code reads them so)."""
    value = row.get(column)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        shown = "missing" if value is None else f"a {type(value).__name__}"
        raise MlbenchError(f"{where}: {column} must be a list of texts (it is {shown})")
    return tuple(cast("list[str]", value))  # every item checked just above


def authors_answers_sample(row: JsonObject, lang: str, columns: Columns, where: str, fallback: str | None) -> Sample:
    """A generation row (question, correct and incorrect answers) as the authors' task
    reads it; ``fallback``: the reference their ``process_docs`` adds to the correct ones."""
    question = authors_question(row, columns.question, where, stripped=True)
    correct = listed_texts(row, columns.correct_answers, where)
    incorrect = listed_texts(row, columns.incorrect_answers, where)
    if not normalize_references(incorrect):
        raise Unscorable("no incorrect answer left after the authors' cleaning, where their np.nanmax fails")
    if not normalize_references(correct) and not fallback:
        raise Unscorable("no correct answer left after the authors' cleaning, where their np.nanmax fails")
    # The authors' scores never read the best answer; the judges take it as their
    # reference: the data's, unless the data also lists it as incorrect (a translation
    # shifted into the wrong list), else the first correct answer, else the fallback.
    best = row.get(columns.best_answer)
    listed = best.strip() if isinstance(best, str) else None
    first = next((a.strip() for a in correct if a.strip()), None)
    usable = listed if listed and listed not in {a.strip() for a in incorrect} else None
    return Sample(
        id=str(row[columns.id]),
        lang=lang,
        question=question,
        best_answer=usable or first or fallback or "",
        correct_answers=correct,
        incorrect_answers=incorrect,
        mc1_choices=None,
        mc2_choices=None,
        mc2_labels=None,
        meta={} if listed is None else {LISTED_BEST: listed},
    )


def authors_options_sample(row: JsonObject, lang: str, columns: Columns, where: str, mc2_true: str) -> Sample:
    """A multiple-choice row as the authors' task reads it: the question unstripped, the
    first MC1 option correct, MC2's options and labels as listed."""
    assert columns.mc1_choices
    question = authors_question(row, columns.question, where, stripped=False)
    mc1 = listed_texts(row, columns.mc1_choices, where)
    if not mc1:
        raise Unscorable("no MC1 option, where the authors' argmax fails")
    mc1_labels = (1,) + (0,) * (len(mc1) - 1)
    mc2, mc2_labels = mc1, mc1_labels
    if columns.mc2_choices:
        assert columns.mc2_labels  # spec.py refuses mc2_choices without mc2_labels
        mc2, mc2_labels = listed_texts(row, columns.mc2_choices, where), label_list(row, columns.mc2_labels, where)
    if not mc2:
        raise Unscorable("no MC2 option, where the authors' MC2 fails")
    # Split at the first 0, the authors' MC2 reads the labels for that index alone; summing
    # the options labelled true, it needs one label per option (a boolean mask).
    if len(mc2) != len(mc2_labels) and mc2_true == "labelled":
        raise Unscorable(f"{len(mc2)} MC2 options but {len(mc2_labels)} labels, where the authors' mask fails")
    return Sample(
        id=str(row[columns.id]),
        lang=lang,
        question=question,
        best_answer=mc1[0],
        correct_answers=tuple(o for o, label in zip(mc2, mc2_labels) if label),
        incorrect_answers=tuple(o for o, label in zip(mc2, mc2_labels) if not label),
        mc1_choices=mc1,
        mc2_choices=mc2,
        mc2_labels=mc2_labels,
    )


def unsorted_mc2_warning(task: str, lang: str, samples: list[Sample]) -> list[str]:
    """The line of a benchmark whose MC2 splits at the first false label (``mc2_true``)
    without its authors' task files: how many questions' labels are out of order."""
    count = sum(not _sorted(s.mc2_labels or ()) for s in samples)
    return [f"{task} {lang}: {count} of its {len(samples)} questions {UNSORTED}"] if count else []


def authors_data_warnings(
    task: str, lang: str, samples: list[Sample], *, fallback: str | None, mc2_true: str, mc_metric: str
) -> list[str]:
    """One line counting what the data does to the scores, kind by kind (none: no line);
    ``mc_metric``: the metric a repeated option weighs in (MC2, else MC1). A question asked
    under several templates counts once."""
    samples = list({question_of(s): s for s in reversed(samples)}.values())[::-1]
    generation = bool(samples) and samples[0].mc1_choices is None
    kinds = _generation_kinds(samples, fallback) if generation else _mc_kinds(samples, mc2_true, mc_metric)
    parts = [f"{count} {kind}" for kind, count in kinds.items() if count]
    if not parts:
        return []
    return [f"{task} {lang}: of its {len(samples)} questions, as the authors' code reads them: {'; '.join(parts)}"]


def _generation_kinds(samples: list[Sample], fallback: str | None) -> dict[str, int]:
    no_correct = "with no correct answer" + (f" (scored against {fallback!r} alone)" if fallback else "")
    kinds = dict.fromkeys(
        (no_correct, "with an empty question (prompted as it is)", "listing an empty answer (dropped, as they do)",
         "listing an answer twice", "listing an answer as both correct and incorrect",
         "whose best answer is among the incorrect ones (not scored; the judges get the first correct answer)",
         "with an empty best answer (not scored; the judges get the first correct answer)"),
        0,
    )  # fmt: skip
    for sample in samples:
        correct = normalize_references(sample.correct_answers)
        incorrect = normalize_references(sample.incorrect_answers)
        found = (
            not correct,
            not sample.question,
            any(not a.strip() for a in (*sample.correct_answers, *sample.incorrect_answers)),
            _repeats(correct) or _repeats(incorrect),
            bool(set(correct) & set(incorrect)),
            bool(listed := sample.meta.get(LISTED_BEST)) and listed in {a.strip() for a in sample.incorrect_answers},
            sample.meta.get(LISTED_BEST) == "",
        )
        for kind, present in zip(kinds, found):
            kinds[kind] += present
    return kinds


def _mc_kinds(samples: list[Sample], mc2_true: str, metric: str) -> dict[str, int]:
    kinds = {
        "with an empty question (prompted as it is)": sum(not s.question.strip() for s in samples),
        "with an empty option (scored)": sum(
            any(not o.strip() for o in (*(s.mc1_choices or ()), *(s.mc2_choices or ()))) for s in samples
        ),
        f"listing an option twice (each listing counts in {metric}, as in their code)": sum(
            _repeats(s.mc2_choices or ()) for s in samples
        ),
    }
    if mc2_true == "before_first_false":
        kinds[UNSORTED] = sum(not _sorted(s.mc2_labels or ()) for s in samples)
    return kinds


def _repeats(texts: Sequence[str]) -> bool:
    return len(set(texts)) < len(texts)


def _sorted(labels: Sequence[int]) -> bool:
    """True options first, then false ones: both MC2 rules agree on such labels."""
    return list(labels) == sorted(labels, reverse=True)
