"""The JSON Schema of the files a run writes (their version: ``records.version``).

The JSON Schemas published in
``docs/schemas/`` are generated here from the record types (``SampleRecord``,
``MetricValue``, ``Verdict``) and the layout ``mlbench.results`` writes them in;
``python -m mlbench.records.schema docs/schemas`` writes them again, and a test checks the
published ones are current and that every file the test suite's runs write validates.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal

from mlbench.records.jsontypes import JsonObject
from mlbench.records.version import SCHEMA_VERSION

# The schemas' ids: names, not addresses (the files are in docs/schemas/).
ID_PREFIX = "urn:mlbench:schema:"


def type_schema(hint: Any) -> JsonObject:
    """The JSON Schema of a value of type ``hint`` as ``json.dumps`` writes it."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any or hint is object:
        return {}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [type_schema(arg) for arg in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (list, tuple) or hint in (list, tuple):
        return {"type": "array", "items": type_schema(args[0])} if args else {"type": "array"}
    if origin is dict or hint is dict:
        return {"type": "object", "additionalProperties": type_schema(args[1])} if args else {"type": "object"}
    if dataclasses.is_dataclass(hint):
        return dataclass_schema(hint)
    simple = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    if hint in simple:
        return {"type": simple[hint]}
    raise TypeError(f"no JSON Schema for {hint!r}")


def dataclass_schema(kind: type, skip: tuple[str, ...] = ()) -> JsonObject:
    """An object with the dataclass's public fields; those without a default required."""
    hints = typing.get_type_hints(kind)
    fields = [f for f in dataclasses.fields(kind) if not f.name.startswith("_") and f.name not in skip]
    required = [f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    return {
        "type": "object",
        "properties": {f.name: type_schema(hints[f.name]) for f in fields},
        **({"required": required} if required else {}),
    }


def _versioned(schema: JsonObject, name: str, title: str) -> JsonObject:
    version = {"type": "integer", "minimum": 1, "maximum": SCHEMA_VERSION}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{ID_PREFIX}{name}:{SCHEMA_VERSION}",
        "title": title,
        **schema,
        "properties": {"schema_version": version, **schema["properties"]},
    }


def sample_line_schema() -> JsonObject:
    """One line of ``samples_<lang>.jsonl``: a SampleRecord (keys this version does not
    know are allowed: a newer minor addition, or a user's tool's)."""
    from mlbench.records import SampleRecord, Verdict

    schema = dataclass_schema(SampleRecord, skip=("extra",))
    schema["properties"]["id"] = {"type": ["string", "integer"]}
    schema["properties"]["metrics"] = {"type": "object", "additionalProperties": {"type": "number"}}
    verdict = dataclass_schema(Verdict, skip=("error",))
    verdict["properties"]["judge_error"] = {"type": "string"}
    # claims: the extracted claims (strings), or after claim_support each claim's verdict.
    verdict["properties"]["claims"] = {"type": "array", "items": {"type": ["string", "object"]}}
    schema["properties"]["judges"] = {"type": "object", "additionalProperties": verdict}
    return _versioned(schema, "samples-line", "mlbench samples line")


def _language_block() -> JsonObject:
    """A language's summary: its sample count, counts worth a look (integers), each
    metric's value and interval (MetricValue), and the same per question group."""
    from mlbench.records import MetricValue

    metric = dataclass_schema(MetricValue)
    metric["required"] = list(metric["properties"])
    return {
        "type": "object",
        "properties": {
            "n-samples": {"type": "integer", "minimum": 0},
            # Where a question was asked under several prompt templates: what the means are over.
            "n-questions": {"type": "integer", "minimum": 0},
            "groups": {"$ref": "#/$defs/groups"},
            "templates": {"$ref": "#/$defs/groups"},
        },
        "required": ["n-samples"],
        "additionalProperties": {"anyOf": [{"type": "integer"}, metric]},
    }


def _per_question() -> JsonObject:
    from mlbench.records import PerQuestion

    return dataclass_schema(PerQuestion)


def _defs() -> JsonObject:
    return {
        "language": _language_block(),
        "groups": {"type": "object", "additionalProperties": {"$ref": "#/$defs/language"}},
        "per_question": _per_question(),
    }


def language_file_schema() -> JsonObject:
    """``results_<lang>.json``: one language's result, written by the job that ran it."""
    schema = {
        "type": "object",
        "properties": {
            "lang": {"type": "string"},
            "config_hash": {"type": "string"},
            "config": {"type": "object"},
            "result": {"$ref": "#/$defs/language"},
            "per_question": {"$ref": "#/$defs/per_question"},
            "sample_ids": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["lang", "config_hash", "config", "result"],
        "$defs": _defs(),
    }
    return _versioned(schema, "results-language", "mlbench results of one language")


def results_schema() -> JsonObject:
    """``results.json``: a model × task over its languages, self-contained for reports."""
    rows = {"type": "array", "items": {"type": "object"}}
    schema = {
        "type": "object",
        "properties": {
            "model": {"type": "string"},
            "task": {"type": "string"},
            "config_hash": {"type": "string"},
            "config": {"type": "object"},
            "results": {"type": "object", "additionalProperties": {"$ref": "#/$defs/language"}},
            "cross_language": {"type": "object", "additionalProperties": rows},
            "metrics": {"type": "object"},
            "per_question": {"type": "object", "additionalProperties": {"$ref": "#/$defs/per_question"}},
        },
        "required": ["model", "task", "config", "results"],
        "$defs": _defs(),
    }
    return _versioned(schema, "results", "mlbench results of a run")


SCHEMAS = {
    "samples-line": sample_line_schema,
    "results-language": language_file_schema,
    "results": results_schema,
}


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SCHEMAS.items():
        path = folder / f"{name}.schema.json"
        path.write_text(json.dumps(build(), indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(written)
