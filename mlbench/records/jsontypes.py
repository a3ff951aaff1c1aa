"""The shapes of JSON data, for the places where mlbench holds JSON as JSON.

A typed record (``SampleRecord``, ``LanguageResult``, ``RunResult``…) is a dataclass. Some
data stays JSON on purpose: a dataset's rows as the upstream file gives them, a backend's
or judge's HTTP body, the settings a run writes into ``results.json``, a task's own
outputs of a sample (each benchmark keeps different ones) and lines kept as read so that a
rewritten file changes only what changed. Those are ``JsonObject``: values limited to what
``json`` reads and writes, which ``Any`` does not say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, Union

if TYPE_CHECKING:
    # Recursive, which only a type checker follows; Union[...] since ``|`` cannot join
    # the forward references.
    JsonValue: TypeAlias = Union[str, int, float, bool, None, list["JsonValue"], dict[str, "JsonValue"]]  # noqa: UP007
else:
    # At run time (pydantic reads the records' annotations: records.shape): any value,
    # which the published JSON Schema writes as any JSON value.
    JsonValue = object
JsonObject: TypeAlias = dict[str, JsonValue]

# One cell of a flat table (a statistics row, a report row): a label, a count, a value or
# nothing, never a nested value.
Cell: TypeAlias = str | int | float | bool | None
TableRow: TypeAlias = dict[str, Cell]
# Named tables of rows (a run's cross-language statistics: "anova", "tukey", …).
Tables: TypeAlias = dict[str, list[TableRow]]


def settings_digest(value: object) -> str:
    """The short hash mlbench keys settings by: sha256 of the value's JSON with sorted keys,
    first 16 hex digits (a run's config hash, a judge's settings hash, a prompt's)."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]
