"""The JSON Schema of the files a run writes (their version: ``records.version``).

The JSON Schemas published in ``docs/schemas/`` are pydantic's schemas of the record types
(``SampleRecord``, ``Verdict``: ``records.shape``) and of the results files' layouts
(``records.layouts``), which ``mlbench.results`` reads and writes them in;
``python -m mlbench.records.schema docs/schemas`` writes them again, and a test checks the
published ones are current and that every file the test suite's runs write validates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mlbench.records.jsontypes import JsonObject
from mlbench.records.shape import schema_of
from mlbench.records.version import SCHEMA_VERSION

# The schemas' ids: names, not addresses (the files are in docs/schemas/).
ID_PREFIX = "urn:mlbench:schema:"


def _part(schema: JsonObject, key: str) -> JsonObject:
    """The object under ``key`` of a schema mlbench builds (a KeyError/TypeError is a bug here)."""
    part = schema[key]
    if not isinstance(part, dict):
        raise TypeError(f"{key} of a schema is not an object")
    return part


def _versioned(schema: JsonObject, name: str, title: str) -> JsonObject:
    version: JsonObject = {"type": "integer", "minimum": 1, "maximum": SCHEMA_VERSION}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{ID_PREFIX}{name}:{SCHEMA_VERSION}",
        "title": title,
        **{key: value for key, value in schema.items() if key != "title"},
        "properties": {"schema_version": version, **_part(schema, "properties")},
    }


def sample_line_schema() -> JsonObject:
    """One line of ``samples_<lang>.jsonl``: a SampleRecord (keys this version does not
    know are allowed: a newer minor addition, or a user's tool's)."""
    from mlbench.records import SampleRecord, Verdict

    schema = schema_of(SampleRecord)
    # Each judge kind's entry: a verdict as written, beside the judge's own keys (its name,
    # settings hash, usage); after claim_support, each claim's verdict in place of its text.
    verdict = schema_of(Verdict, "serialization")
    _part(verdict, "properties")["claims"] = {"type": "array", "items": {"type": ["string", "object"]}}
    _part(schema, "properties")["judges"] = {"type": "object", "additionalProperties": verdict}
    return _versioned(schema, "samples-line", "mlbench samples line")


def language_file_schema() -> JsonObject:
    """``results_<lang>.json``: one language's result, written by the job that ran it."""
    from mlbench.records.layouts import LanguageFileLayout

    return _versioned(schema_of(LanguageFileLayout), "results-language", "mlbench results of one language")


def results_schema() -> JsonObject:
    """``results.json``: a model × task over its languages, self-contained for reports."""
    from mlbench.records.layouts import RunFileLayout

    return _versioned(schema_of(RunFileLayout), "results", "mlbench results of a run")


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
