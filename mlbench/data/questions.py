"""A user's questions, one row each (read by ``mlbench.data.tabular``), into Samples: the
one reader behind ``--data-file`` and the declarative benchmark (``benchmark.toml``).

A row holds either answer lists (``correct_answers``/``incorrect_answers``: JSON lists, or
``;``-separated text as a CSV cell must be; ``best_answer`` optional, default the first
correct answer) or options (``choices`` with 0/1 ``labels``; the best answer is the first
true option). Its Sample carries TruthfulQA-Multi's targets: MC1 the best answer against
the incorrect ones, MC2 the correct ones against the incorrect ones. Every problem is one
MlbenchError line naming the file and row: both ways in refuse the same things (a repeated
id, an answer listed twice, an answer both correct and incorrect).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, overload

from mlbench.data.answers import split_answers
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject


@dataclass(frozen=True)
class Columns:
    """Where each field sits in the data files (a column or JSON key)."""

    id: str = "id"
    question: str = "question"
    best_answer: str = "best_answer"
    correct_answers: str = "correct_answers"
    incorrect_answers: str = "incorrect_answers"
    choices: str = "choices"
    labels: str = "labels"
    group: str | None = None  # a column whose value tables the samples by group
    # Separate option lists for MC1 and MC2 (a declared benchmark's data, e.g. a hub
    # dataset's ``mc1_targets.choices``): both lists, or neither. MC1's labels may be left
    # out, and then its first option is the correct one (lm-eval's ``doc_to_target: 0``).
    mc1_choices: str | None = None
    mc1_labels: str | None = None
    mc2_choices: str | None = None
    mc2_labels: str | None = None


@overload
def text_field(
    row: JsonObject, column: str, where: str, *, required: Literal[True] = True, number: bool = False
) -> str: ...
@overload
def text_field(row: JsonObject, column: str, where: str, *, required: bool, number: bool = False) -> str | None: ...
def text_field(row: JsonObject, column: str, where: str, *, required: bool = True, number: bool = False) -> str | None:
    """A text cell, stripped; ``number``: a whole number is taken as its digits (an id)."""
    value = row.get(column)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise MlbenchError(f"{where}: no {column!r} (an empty or missing column)")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int) or (isinstance(value, int) and not number):
        # str() of a list or number would put its Python repr in a prompt or an answer.
        raise MlbenchError(f"{where}: {column} must be a string, not {type(value).__name__}")
    return str(value).strip()


def text_list(row: JsonObject, column: str, where: str) -> tuple[str, ...]:
    value = row.get(column)
    if isinstance(value, str):
        return split_answers(value)
    texts = [v for v in value if isinstance(v, str)] if isinstance(value, list) else None
    if isinstance(value, list) and texts is not None and len(texts) == len(value):
        return tuple(v.strip() for v in texts if v.strip())
    if value is None:
        raise MlbenchError(f"{where}: no {column!r} column")
    raise MlbenchError(f"{where}: {column} must be a list of strings or a ';'-separated string")


def label_list(row: JsonObject, column: str, where: str) -> tuple[int, ...]:
    value = row.get(column)
    items = split_answers(value) if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise MlbenchError(f"{where}: no {column!r} column" if value is None else f"{where}: {column} must be a list")
    labels = []
    for item in items:
        text = str(item).strip().lower()
        if text not in ("0", "1", "true", "false"):
            raise MlbenchError(f"{where}: {column} must be 0/1 (or true/false), not {item!r}")
        labels.append(int(text in ("1", "true")))
    return tuple(labels)


def answer_sets(
    row: JsonObject, columns: Columns, where: str, *, as_listed: bool = False, repeats: bool = False
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The best, correct and incorrect answers of a row, in either layout. A best answer
    missing from the correct ones joins them (it is scored with them: MC2, BLEU);
    ``as_listed`` keeps the correct ones as the file gives them, as TruthfulQA-Multi's
    release does (``--data-file`` reads a built-in benchmark's kind of data, whose best
    answer need not be among the correct ones). Either way an answer listed twice, or as
    both correct and incorrect, is refused (``check_answer_lists``), unless ``repeats``:
    a declared benchmark whose authors' code scores such lists as they are."""
    if _given(row, columns.choices):
        choices, labels = text_list(row, columns.choices, where), label_list(row, columns.labels, where)
        if len(choices) != len(labels):
            raise MlbenchError(f"{where}: {len(choices)} {columns.choices} but {len(labels)} {columns.labels}")
        correct = tuple(c for c, label in zip(choices, labels) if label)
        incorrect = tuple(c for c, label in zip(choices, labels) if not label)
    elif _given(row, columns.correct_answers) or _given(row, columns.incorrect_answers):
        correct = text_list(row, columns.correct_answers, where)
        incorrect = text_list(row, columns.incorrect_answers, where)
    else:
        raise MlbenchError(
            f"{where}: needs {columns.correct_answers!r} and {columns.incorrect_answers!r}, "
            f"or {columns.choices!r} and {columns.labels!r}"
        )
    best = text_field(row, columns.best_answer, where, required=False) or (correct[0] if correct else None)
    if best is None or not incorrect:
        raise MlbenchError(f"{where}: needs at least one correct and one incorrect answer")
    if not as_listed and best not in correct:
        correct = (best, *correct)
    if not correct:
        raise MlbenchError(f"{where}: needs at least one correct and one incorrect answer")
    if not repeats:
        check_answer_lists(best, correct, incorrect, where)
    return best, correct, incorrect


def check_answer_lists(best: str, correct: tuple[str, ...], incorrect: tuple[str, ...], where: str) -> None:
    """A user's answer lists say each answer once, and never both true and false: MC2 sums
    the probability of every listed answer, so a repeat would silently weigh twice, and an
    answer in both lists would count for and against the model at once. (The built-in
    benchmarks' releases do both; their loaders keep them as the reference scores them.)"""
    for name, answers in (("correct", correct), ("incorrect", incorrect)):
        repeated = next((a for i, a in enumerate(answers) if a in answers[:i]), None)
        if repeated is not None:
            raise MlbenchError(f"{where}: {repeated!r} is listed twice among the {name} answers; list it once")
    both = sorted(set(correct) & set(incorrect))
    if both:
        raise MlbenchError(f"{where}: {both[0]!r} is both a correct and an incorrect answer; keep it in one list")
    if best in incorrect:  # a data file's best answer may be outside the correct list, not in the wrong one
        raise MlbenchError(f"{where}: {best!r} is both the best answer and an incorrect answer; keep it in one list")


def check_new_id(seen: dict[str, str], sample_id: str, where: str) -> None:
    """Record ``sample_id`` as read at ``where`` (``seen``: one language's ids so far); a
    repeat is refused naming both rows. Runs, resumes and reports find a question by its
    id, so a second row under one id would silently stand in for the first."""
    if sample_id in seen:
        raise MlbenchError(
            f"{where}: id {sample_id!r} repeats the one at {seen[sample_id]}; give each question its own id"
        )
    seen[sample_id] = where


def question_sample(
    row: JsonObject, lang: str, columns: Columns, where: str, *, as_listed: bool = False, repeats: bool = False
) -> Sample:
    """One question of a user's file, with TruthfulQA-Multi's multiple-choice targets."""
    sample_id, question = text_field(row, columns.id, where, number=True), text_field(row, columns.question, where)
    assert sample_id is not None and question is not None
    best, correct, incorrect = answer_sets(row, columns, where, as_listed=as_listed, repeats=repeats)
    group = text_field(row, columns.group, where, required=False) if columns.group else None
    return Sample(
        id=sample_id,
        lang=lang,
        question=question,
        best_answer=best,
        correct_answers=correct,
        incorrect_answers=incorrect,
        # TruthfulQA-Multi's targets: MC1 the best answer first, then the incorrect ones;
        # MC2 every correct answer (labelled 1) then every incorrect one (0).
        mc1_choices=(best, *incorrect),
        mc2_choices=(*correct, *incorrect),
        mc2_labels=(1,) * len(correct) + (0,) * len(incorrect),
        meta={"group": group} if group else {},
    )


def _given(row: JsonObject, column: str) -> bool:
    """A cell with something in it (a CSV leaves the cells of an unused layout blank)."""
    value = row.get(column)
    return value is not None and not (isinstance(value, str) and not value.strip())
