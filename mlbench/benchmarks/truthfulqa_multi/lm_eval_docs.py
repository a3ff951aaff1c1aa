"""Whether a document in an lm-eval log of a HiTZ truthfulqa-multi task is mlbench's copy of
the question: the question, and what the task scores against (the closed reference answers
for gen; the MC1 and MC2 options and labels for mc). The release was revised after some
published runs (Galician answers added, a Catalan question reworded): such documents are
named, not scored against today's references."""

from __future__ import annotations

from typing import cast

from mlbench.metrics import normalize_references
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject, JsonValue


def logged_doc_difference(sample: Sample, doc: JsonObject, mode: str, true_refs: list[str]) -> str | None:
    """The first difference between ``doc`` and ``sample`` (None: none); ``true_refs`` are
    mlbench's true references of ``sample`` for gen mode."""
    question = doc.get("question")
    if not isinstance(question, str) or question.strip() != sample.question.strip():
        return "the question differs"
    if mode == "gen":
        logged_true, logged_false = _texts(doc, "correct_answers"), _texts(doc, "incorrect_answers")
        if logged_true is None or set(normalize_references(logged_true)) != set(true_refs):
            return "the correct answers differ"
        if logged_false is None or set(normalize_references(logged_false)) != set(
            normalize_references(sample.incorrect_answers)
        ):
            return "the incorrect answers differ"
        return None
    targets: dict[str, JsonObject] = {}
    for name, choices in (("mc1_targets", sample.mc1_choices), ("mc2_targets", sample.mc2_choices)):
        logged = doc.get(name)
        if not isinstance(logged, dict) or _items(logged.get("choices")) != choices:
            return f"the {name} choices differ"
        targets[name] = logged
    mc1_labels = _items(targets["mc1_targets"].get("labels"))
    # MC1's answer is its first choice (released label lists are sometimes shorter than
    # the choices, so only their values are checked).
    if not mc1_labels or mc1_labels[0] != 1 or any(mc1_labels[1:]):
        return "the mc1_targets labels differ"
    if _items(targets["mc2_targets"].get("labels")) != sample.mc2_labels:
        return "the mc2_targets labels differ"
    return None


def _items(value: JsonValue) -> tuple[JsonValue, ...] | None:
    """A logged list as a tuple, to compare with the sample's: nothing logged is empty,
    and anything but a list is None, which matches nothing."""
    if isinstance(value, list):
        return tuple(value)
    return None if value else ()


def _texts(doc: JsonObject, name: str) -> list[str] | None:
    value = doc.get(name)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return cast("list[str]", value)  # every item checked just above
