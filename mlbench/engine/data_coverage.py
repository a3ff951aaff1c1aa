"""What of its data a run does not score, said where the run is: the rows the loader left
out (a benchmark's reference cannot score them), and, for a benchmark whose languages
share question ids, the questions another language of the run folder has that a language
of this run lacks (the report then pairs the others)."""

from __future__ import annotations

from mlbench.benchmarks.base import LanguageData
from mlbench.data.source import QUESTION_LABEL
from mlbench.errors import some_ids
from mlbench.records import LanguageResult


def left_out_lines(task: str, lang: str, data: LanguageData) -> list[str]:
    """One line per reason the loader left questions out (of every metric, or of one),
    naming them."""
    total = len(data.question_ids())
    return [
        f"{task} {lang}: {len(part.ids)} of the data's {total} questions left out"
        f"{f' of {part.metric}' if part.metric else ''} ({part.reason}): {some_ids(part.ids)}"
        for part in data.left_out
    ]


def unpaired_lines(task: str, ran: dict[str, LanguageData], results: dict[str, LanguageResult]) -> list[str]:
    """For each language in ``results`` that this run did not score, the questions it
    scored that one of the run's languages (``ran``: their data as loaded, every row) does
    not have: a later run added a language whose ids differ."""
    lines = []
    for lang, data in ran.items():
        have = data.question_ids()
        for other, result in results.items():
            if other in ran or result.per_question is None:
                continue
            missing = [q for q in _questions(result) if q not in have]
            if missing:
                lines.append(
                    f"{task}: {len(missing)} of the questions {other} was scored on are not in {lang}'s data "
                    f"({some_ids(missing)}); the report pairs {other} and {lang} on the questions both have"
                )
    return lines


def _questions(result: LanguageResult) -> list[str]:
    """The question ids a language's result is over (a templated run's, without the template)."""
    assert result.per_question is not None
    asked = result.per_question.labels.get(QUESTION_LABEL)
    ids = result.per_question.ids
    return list(dict.fromkeys(ids if asked is None else [a or i for a, i in zip(asked, ids)]))
