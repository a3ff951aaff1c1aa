"""The layouts of ``results_<lang>.json`` and ``results.json``, declared once: pydantic
checks a file read back against them (``read_language_layout``, ``read_run_layout``: its
first problem one line in our words, naming the key) and ``records.schema`` publishes them.
``mlbench.results`` writes the files in these layouts, in the key order they always had.

A language's block keys its metrics' values and its counts by their names beside its sizes:
a TypedDict whose other keys are typed (PEP 728 ``extra_items``), which pydantic reads and
type checkers do not yet, so that to them a block is the JSON object it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from pydantic import StrictInt, StrictStr
from typing_extensions import NotRequired, TypedDict

from mlbench.records import MetricValue, PerQuestion
from mlbench.records.jsontypes import JsonObject, Tables
from mlbench.records.shape import Count, Location, read_shape

if TYPE_CHECKING:
    LanguageBlock: TypeAlias = JsonObject
else:
    LanguageBlock = TypedDict(
        "LanguageBlock",
        {
            "n-samples": Count,
            # Where a question was asked under several prompt templates: what the means are over.
            "n-questions": NotRequired[Count],
            "groups": NotRequired["dict[str, LanguageBlock]"],
            "templates": NotRequired["dict[str, LanguageBlock]"],
        },
        # Each other key: a count worth a reader's attention, or a metric's value and interval.
        extra_items=StrictInt | MetricValue,
    )


# The files' schema_version is read (records.version) before their layout.
class LanguageFileLayout(TypedDict):
    """``results_<lang>.json``: one language's result, written by the job that ran it."""

    lang: StrictStr
    config_hash: StrictStr
    config: JsonObject
    result: LanguageBlock
    per_question: NotRequired[PerQuestion]
    # The samples the result is of, in order (absent: a file from before they were recorded).
    sample_ids: NotRequired[list[StrictStr] | None]


class RunFileLayout(TypedDict):
    """``results.json``: a model × task over its languages, self-contained for reports."""

    model: StrictStr
    task: StrictStr
    config_hash: NotRequired[StrictStr]
    config: NotRequired[JsonObject]
    results: dict[str, LanguageBlock]
    cross_language: NotRequired[Tables]
    # What each metric is (``metrics.catalog`` reads and checks it).
    metrics: NotRequired[JsonObject]
    per_question: NotRequired[dict[str, PerQuestion]]


def read_language_layout(data: object) -> LanguageFileLayout:
    """A parsed ``results_<lang>.json`` checked against its layout; ValueError naming the
    first key that does not fit."""
    layout = read_shape(LanguageFileLayout, data, lambda where, kind: _layout_words(where, kind, 1))
    if "per_question" in layout:
        aligned(layout["per_question"])
    return layout


def read_run_layout(data: object) -> RunFileLayout:
    """A parsed ``results.json`` checked against its layout; ValueError naming the first
    key that does not fit."""
    layout = read_shape(RunFileLayout, data, lambda where, kind: _layout_words(where, kind, 2))
    for block in layout.get("per_question", {}).values():
        aligned(block)
    return layout


def read_block(data: object) -> LanguageBlock:
    """One language's block checked against its layout (ValueError naming the key)."""
    block: LanguageBlock = read_shape(LanguageBlock, data, lambda where, kind: _layout_words(where, kind, 0))
    return block


# The names pydantic gives the two kinds a language block's other keys may hold.
_OTHER_KEY_KINDS = ("int", "MetricValue")


def _layout_words(where: Location, kind: str, per_question_at: int) -> str:
    """What is wrong with a results file, at ``where`` in it (its per_question blocks start
    ``per_question_at`` keys in: 1 in a language's file, 2 in results.json)."""
    if per_question_at and where[:1] == ("per_question",) and len(where) >= per_question_at:
        return per_question_words(where[per_question_at:], kind)
    if where[:1] == ("sample_ids",):
        return "sample_ids is not a list of ids"
    if where[:1] == ("cross_language",) and len(where) > 1:
        return f"cross_language.{where[1]} {_TABLE_WORDS[min(len(where), 4) - 2]}"
    keys = [str(key) for key in where if key not in _OTHER_KEY_KINDS]
    if not keys:
        return "the file is not an object" if per_question_at else "the block is not an object"
    path = ".".join(keys)
    if kind == "missing":
        return f"no {path}"
    if len(where) > len(keys):  # a language block's count or metric
        return f"{path} is neither a count nor a metric's value and interval"
    return f"{path} is not {_KIND_WORDS.get(kind, 'what the layout holds there')}"


# What is wrong with a named table: the table, one of its rows, or a value in a row.
_TABLE_WORDS = (
    "is not a list of rows",
    "holds a row that is not an object",
    "holds a value that is not a string, a number, true, false or null",
)
_KIND_WORDS = {
    "string_type": "a string",
    "int_type": "a whole number",
    "greater_than_equal": "a number >= 0",
    "float_type": "a number",
    "bool_type": "true or false",
    "dict_type": "an object",
    "typed_dict_type": "an object",
    "dataclass_type": "an object",
    "list_type": "a list",
}


def read_per_question(block: object) -> PerQuestion:
    """``{"ids": [...], "values": {metric: [value | None, ...]}, "labels": {field: [label |
    None, ...]}}`` read and checked: a column per metric with one number (or null) per id,
    and per slice field one label (or null) per id; ValueError naming what is wrong."""
    return aligned(read_shape(PerQuestion, block, per_question_words))


def aligned(read: PerQuestion) -> PerQuestion:
    """``read``, checked to have one value and one label per id in each column."""
    for metric, column in read.values.items():
        if len(column) != len(read.ids):
            raise ValueError(f"per_question {metric} does not have one value per id")
    for name, labels in read.labels.items():
        if len(labels) != len(read.ids):
            raise ValueError(f"per_question labels of {name} do not have one label per id")
    return read


def per_question_words(where: Location, kind: str) -> str:
    """What is wrong with a per_question block, at ``where`` in it."""
    key, inside = (where[0], where[1:]) if where else ("ids", ())
    if key == "values":
        if not inside:
            return "per_question values are not an object"
        if len(inside) == 1:
            return f"per_question {inside[0]} does not have one value per id"
        return "per_question holds values that are not numbers"
    if key == "labels":
        if not inside:
            return "per_question labels are not an object"
        if len(inside) == 1:
            return f"per_question labels of {inside[0]} do not have one label per id"
        return f"per_question labels of {inside[0]} hold values that are not strings"
    return "per_question is not an object with a list of ids"
