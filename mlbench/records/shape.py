"""The records' shapes, declared once: a record is a dataclass whose annotations pydantic
reads to check JSON read back from a file, to turn a record into JSON for writing, and to
publish the JSON Schema of the files (``records.schema``).

The dataclasses stay plain: a record made in code (one per sample) costs no validation and
holds the very objects it was given. Only what a file gives is validated, strictly where a
value is a string, a count, a number or a flag (``1`` is no string, ``true`` no count, ``1``
stays ``1``), and pydantic's first problem becomes one ValueError line that the record words
itself: pydantic's text never reaches a user.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast

from pydantic import BeforeValidator, Field, StrictFloat, StrictInt, TypeAdapter, ValidationError, WithJsonSchema
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode

from mlbench.records.jsontypes import JsonObject

Record = TypeVar("Record")
# Where pydantic found a problem (keys and list positions, outermost first) and its kind
# ("string_type", "missing", …): what a record's ``words`` turn into a line.
Location = tuple[str | int, ...]
Words = Callable[[Location, str], str]

# A number as a file holds it: a whole number stays one (``1`` is written back as ``1``),
# and ``true`` is no number.
Number = Annotated[StrictInt | StrictFloat, WithJsonSchema({"type": "number"})]
# A count: a whole number >= 0, never ``true``.
Count = Annotated[StrictInt, Field(ge=0)]


def _id_text(value: object) -> object:
    """A question id written as a number (a user's JSONL) reads as its text."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


# A question's id: text, or a whole number read as its text.
IdText = Annotated[str, BeforeValidator(_id_text, json_schema_input_type=str | int)]

_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def adapter(kind: type[Record]) -> TypeAdapter[Record]:
    """pydantic's reader and writer of ``kind``, built the first time it is needed."""
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return cast(TypeAdapter[Record], _ADAPTERS[kind])


def read_shape(kind: type[Record], data: object, words: Words) -> Record:
    """``data`` (parsed JSON) as a ``kind``; ValueError, worded by ``words``, naming the
    first thing that does not fit."""
    try:
        return adapter(kind).validate_python(data)
    except ValidationError as error:
        problem = error.errors(include_url=False, include_context=False, include_input=False)[0]
        raise ValueError(words(tuple(problem["loc"]), problem["type"])) from None


def _not_json(value: object) -> object:
    """A value neither pydantic nor ``json`` writes (a numpy float32): json's own error."""
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumped(kind: type[Record], record: Record, held_as_json: frozenset[str] = frozenset()) -> JsonObject:
    """``record`` as the JSON object its declaration writes (before the file's own layout);
    the fields ``held_as_json`` (JSON already: a task's outputs) are given as they are held.
    A value of another type than declared is written as it is where JSON can (a numpy
    float64), and refused as ``json.dumps`` refuses it otherwise: no pydantic text reaches
    a user."""
    written = adapter(kind).dump_python(
        record, mode="json", by_alias=True, warnings=False, fallback=_not_json, exclude=set(held_as_json) or None
    )
    return cast(JsonObject, {**written, **{name: getattr(record, name) for name in held_as_json}})


class _Published(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (its name, capitalised) or a
    record's or layout's docstring, which speaks of the code, as its description."""

    def field_title_should_be_set(self, schema: Any) -> bool:  # Any: one of pydantic-core's schema dicts
        return False

    def dataclass_schema(self, schema: Any) -> Any:  # Any: pydantic-core's schema dicts, in and out
        written = super().dataclass_schema(schema)
        written.pop("description", None)
        return written

    def typed_dict_schema(self, schema: Any) -> Any:  # Any: pydantic-core's schema dicts, in and out
        written = super().typed_dict_schema(schema)
        written.pop("description", None)
        return written


def schema_of(kind: type[object], mode: JsonSchemaMode = "validation") -> JsonObject:
    """The JSON Schema of ``kind`` (``mode``: of what is read, or of what is written)."""
    return cast(JsonObject, adapter(kind).json_schema(mode=mode, schema_generator=_Published))


def expected(kind: type[object], key: str) -> str:
    """What ``kind``'s field ``key`` holds, in words from its schema: ``a string or null``."""
    schema = schema_of(kind)
    properties = schema.get("properties")
    field = properties.get(key) if isinstance(properties, dict) else None
    return _described(field) if isinstance(field, dict) else "what its declaration says"


_WORDS = {
    "string": "a string",
    "object": "an object",
    "array": "a list",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _described(schema: JsonObject) -> str:
    options = schema.get("anyOf")
    if isinstance(options, list):
        return " or ".join(_described(option) for option in options if isinstance(option, dict))
    if "$ref" in schema:  # a record of its own: an object
        return _WORDS["object"]
    return _WORDS.get(str(schema.get("type")), "a JSON value")
