"""``SampleRecord``: one line of ``samples_<lang>.jsonl``, declared once (``records.shape``):
its fields' types check a line read back, give the line's JSON and its published schema."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field, StrictStr
from pydantic.json_schema import SkipJsonSchema

from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.shape import IdText, Location, Number, dumped, expected, read_shape
from mlbench.records.usage import Usage, usage_words
from mlbench.records.version import SCHEMA_VERSION, check_version

# The keys of a samples line, in the order they are written; a record read from a file
# keeps its own order (and any key this version does not know), so that rewriting a file
# after judging changes only what judging changed.
_RECORD_KEYS = (
    "id",
    "lang",
    "question",
    "reference",
    "prompt",
    "rendered_prompt",
    "outputs",
    "metrics",
    "config_hash",
    "data_hash",
    "surface",
    "group",
    "labels",
    "judges",
    "usage",
    "judge_usage",
)
# Written on every fresh line even when empty (the others only once they hold something).
_ALWAYS_WRITTEN = frozenset(_RECORD_KEYS[:5] + _RECORD_KEYS[6:9])
_NOT_EXTRA = frozenset((*_RECORD_KEYS, "schema_version"))
# The fields that hold JSON as JSON: written as they are held, never walked on the way.
_HELD_AS_JSON = frozenset(("prompt", "outputs", "surface", "judges"))


@dataclass
class SampleRecord:
    """One line of ``samples_<lang>.jsonl``: one question's prompt, outputs and metrics,
    from scoring through judging (``judges``) to the language's summary.

    Mutable: a task's ``finish_language`` and the judges add to finished records.
    ``to_json``/``from_json`` round-trip a line exactly (key order and unknown keys
    included), so a file rewritten after judging, or continued with ``--resume``, keeps
    every line it did not change byte for byte."""

    id: IdText
    lang: StrictStr = ""
    prompt: Any = None  # Any: the prompt's text, or its chat turns as JSON (Prompt.to_json)
    outputs: JsonObject = field(default_factory=dict)
    metrics: dict[str, Number] = field(default_factory=dict)
    config_hash: StrictStr = ""
    # The content of the language's data the sample was scored from (engine/plan.py's
    # ``language_data_hash``): --resume refuses to continue over changed data. "": a line
    # written before it was recorded.
    data_hash: StrictStr = ""
    # Kept so that a judge can read a sample without the dataset (a judging job may run
    # on another machine): the bare question and the reference answer.
    question: StrictStr = ""
    reference: StrictStr = ""
    # Wrong language, repetition and markers of the generated answer (metrics/surface.py).
    surface: JsonObject | None = None
    # The subset a question belongs to, for per-group tables (CaLMQA: its kind).
    group: StrictStr | None = None
    # The question's labels from the data (its benchmark's ``slice_fields``: category,
    # type, topic, …), for per-slice tables.
    labels: dict[str, StrictStr] = field(default_factory=dict)
    # Verdicts by judge kind (``judges.<kind>``), added by ``mlbench judge``.
    judges: dict[str, JsonObject] = field(default_factory=dict)
    # The API tokens the sample's requests cost (None: none counted), and each judge kind's.
    usage: Usage | None = None
    judge_usage: dict[str, Usage] = field(default_factory=dict)
    # The text the model read, when a chat template made it from ``prompt``'s turns
    # (written after ``prompt``; a field of its own here so positional calls keep working).
    rendered_prompt: StrictStr | None = None
    # Keys this version does not know (a newer version's, a user's tool's), kept as they
    # were: written where the line had them, never a key of the line's schema.
    extra: SkipJsonSchema[Annotated[JsonObject, Field(exclude=True)]] = field(default_factory=dict)
    # The keys of the line this record was read from, in their order (None: a new record).
    _line_keys: SkipJsonSchema[Annotated[tuple[str, ...] | None, Field(exclude=True)]] = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def error(self) -> str | None:
        """Why the backend could not answer this sample (None: it was scored)."""
        error = self.outputs.get("error")
        return str(error) if error else None

    def to_json(self) -> JsonObject:
        values = dumped(SampleRecord, self, _HELD_AS_JSON)
        if self._line_keys is None:
            shown = [k for k in _RECORD_KEYS if k in _ALWAYS_WRITTEN or values[k] != _DEFAULTS[k]]
            return {**{k: values[k] for k in shown}, **self.extra, "schema_version": SCHEMA_VERSION}
        line: JsonObject = {}
        for key in self._line_keys:
            if key in values:
                line[key] = values[key]
            elif key == "schema_version":
                line[key] = SCHEMA_VERSION
            elif key in self.extra:
                line[key] = self.extra[key]
        for key in _RECORD_KEYS:  # what was added since the line was read (a judge's verdicts)
            if key not in line and (key == "id" or values[key] != _DEFAULTS[key]):
                line[key] = values[key]
        return {**line, **{k: v for k, v in self.extra.items() if k not in line}}

    @classmethod
    def from_json(cls, line: object) -> SampleRecord:
        """The record of one parsed line; ValueError saying what is wrong with its shape.
        Only ``id`` is required: lines of older versions lack the rest."""
        if not isinstance(line, dict):
            raise ValueError(f"a JSON {type(line).__name__}, not an object")
        fields = {k: v for k, v in line.items() if k in _NOT_EXTRA and k != "schema_version"}
        fields["extra"] = {k: v for k, v in line.items() if k not in _NOT_EXTRA}
        record = read_shape(cls, fields, _line_words)
        check_version(line, "this line")
        record._line_keys = tuple(line)
        return record


def _default(declared: dataclasses.Field[Any]) -> JsonValue:  # Any: a field of any type
    """The value a field holds when none is given (None for ``id``, which has none)."""
    if declared.default_factory is not dataclasses.MISSING:
        return declared.default_factory()
    return None if declared.default is dataclasses.MISSING else declared.default


# What a fresh line leaves out while a key holds its field's default.
_DEFAULTS = {f.name: _default(f) for f in dataclasses.fields(SampleRecord) if f.name in _RECORD_KEYS[1:]}


def _line_words(where: Location, kind: str) -> str:
    """What is wrong with a samples line, at ``where`` in it (pydantic's ``kind`` of problem)."""
    key, inside = where[0], where[1:]
    if key == "id":
        return "no id" if kind == "missing" else "its id is not a string"
    if key == "usage" and inside:
        return usage_words(inside, kind)
    if key == "judge_usage" and inside:
        return usage_words(inside[1:], kind)
    if inside and key in _HOLDS:
        return f"{key} holds {_HOLDS[key]}"
    return f"{key} is not {expected(SampleRecord, str(key))}"


# The words for a value inside a key that is not what its declaration says.
_HOLDS = {
    "metrics": "a value that is not a number",
    "judges": "a verdict that is not an object",
    "labels": "a label that is not a string",
}
