"""The version of the files a run writes.

Every file carries ``schema_version``: each samples line, ``results_<lang>.json`` and
``results.json``. A reader accepts its own version and the files written before versions
existed (read as version 1: the layout did not change when the number was added), and
says in one line when a file comes from a newer mlbench. Their JSON Schemas:
``records.schema`` and ``docs/schemas/``.
"""

from __future__ import annotations

# 2: a language run under several prompt templates has n-questions (what its means and
# intervals are over) beside n-samples, and a block per template ("templates").
SCHEMA_VERSION = 2


class NewerSchema(ValueError):
    """A file written by a newer mlbench, whose layout this version cannot promise to read."""


def check_version(data: object, what: str) -> None:
    """Refuse ``data`` (a parsed file or line) written under a newer schema; ``what``
    names it in the message. A missing version is a file from before versions (1)."""
    version = data.get("schema_version", 1) if isinstance(data, dict) else 1
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"{what}: schema_version {version!r} is not a positive whole number")
    if version > SCHEMA_VERSION:
        raise NewerSchema(
            f"{what} was written by a newer mlbench (schema_version {version}; this one reads up to "
            f"{SCHEMA_VERSION}): upgrade mlbench to read it"
        )
