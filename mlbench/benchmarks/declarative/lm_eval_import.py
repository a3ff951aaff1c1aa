"""What `mlbench import lm-eval` needs of a declared benchmark: lm-eval's names of its tasks
(``[lm_eval]``: per language and template), mlbench's id of a document lm-eval logged, and
whether that document is mlbench's copy of the question.

lm-eval logs each document after the task's ``process_docs``: a generation task's
question stripped and its answers as the authors' references (each closed with a period,
the fallback reference added), an MC task's as the data has it. A logged document is
compared with mlbench's sample as that code leaves it, so an edited copy is never scored
against references the model's run did not have.
"""

from __future__ import annotations

from mlbench.benchmarks.declarative.authors import authors_references
from mlbench.benchmarks.declarative.data import sample_id_of
from mlbench.benchmarks.declarative.spec import BenchmarkSpec
from mlbench.benchmarks.lm_eval_names import LmEvalTask
from mlbench.data.tabular import column_value
from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject, JsonValue


def lm_eval_names(spec: BenchmarkSpec) -> tuple[LmEvalTask, ...]:
    """Every lm-eval task of ``spec``'s ``[lm_eval]``, one per language and template."""
    templates: tuple[str | None, ...] = spec.templates.names if spec.templates is not None else (None,)
    return tuple(
        LmEvalTask(pattern.format(lang=lang, template=template or "", **spec.values(lang)), mode, lang, template)
        for mode, patterns in spec.lm_eval
        for pattern in patterns
        for lang in spec.languages
        for template in templates
    )


def logged_sample_id(spec: BenchmarkSpec, lang: str, doc: JsonObject, position: int | None) -> str | None:
    """mlbench's id of the document lm-eval logged at row ``position`` of ``lang``'s data
    (None: the log does not carry what the id is made of), by the rule mlbench's reader
    uses (``sample_id_of``)."""
    if position is None and spec.ids.source == "row":
        return None
    row = dict(doc)
    for column in (spec.columns.id, spec.ids.column or spec.columns.question):
        found, value = column_value(doc, column)
        if found:
            row[column] = value
    try:
        return sample_id_of(spec, row, lang, position or 0, "lm-eval's log")
    except MlbenchError:
        return None


def logged_doc_difference(spec: BenchmarkSpec, sample: Sample, doc: JsonObject, mode: str) -> str | None:
    """How the document lm-eval logged differs from mlbench's ``sample`` (None: it does not)."""
    question = doc.get(spec.columns.question)
    if not isinstance(question, str) or question != sample.question:
        return "the question differs"
    if mode == "gen":
        true_refs, false_refs = authors_references(sample, spec.no_comment_reference)
        for column, expected, what in (
            (spec.columns.correct_answers, true_refs, "correct"),
            (spec.columns.incorrect_answers, false_refs, "incorrect"),
        ):
            logged = doc.get(column)
            if not isinstance(logged, list) or logged != expected:
                return f"the {what} answers differ"
        return None
    for options_column, choices in (
        (spec.columns.mc1_choices, sample.mc1_choices),
        (spec.columns.mc2_choices, sample.mc2_choices),
    ):
        if options_column and _dotted(doc, options_column) != list(choices or ()):
            return f"the {options_column} differ"
    if spec.columns.mc2_labels and _dotted(doc, spec.columns.mc2_labels) != list(sample.mc2_labels or ()):
        return f"the {spec.columns.mc2_labels} differ"
    return None


def _dotted(doc: JsonObject, path: str) -> JsonValue:
    found, value = column_value(doc, path)
    return value if found else None
