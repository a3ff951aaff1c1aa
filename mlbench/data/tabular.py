"""Rows of the tabular files a dataset ships: JSON Lines, a JSON array, CSV, Parquet.

One reader for every way questions reach mlbench (``--data-file``, a declared benchmark's
files, a hub dataset's copy): each row comes with ``where``, naming the file and the line
or row, so that every later error can point at it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from pathlib import Path

from mlbench.data.jsonlines import allow_long_csv_fields, check_no_nul, json_objects, read_text
from mlbench.errors import MlbenchError
from mlbench.records.json_read import NESTED, JsonInputError, parse_json
from mlbench.records.jsontypes import JsonObject, JsonValue

TABULAR_SUFFIXES = (".jsonl", ".json", ".csv", ".parquet")


def read_rows(path: Path, what: str) -> Iterator[tuple[str, JsonObject]]:
    """``(where, row)`` of a .jsonl, .json, .csv or .parquet file, in file order."""
    if not path.is_file():
        raise MlbenchError(f"{what} not found: {path}")
    if path.suffix == ".jsonl":
        yield from json_objects(path)
    elif path.suffix == ".json":
        yield from _json_rows(path)
    elif path.suffix == ".parquet":
        yield from _parquet_rows(path)
    elif path.suffix == ".csv":
        yield from _csv_rows(path)
    else:
        raise MlbenchError(f"{path}: cannot read {path.suffix or 'a file without a suffix'} ({_suffixes()})")


def _suffixes() -> str:
    return "one of " + ", ".join(TABULAR_SUFFIXES)


def _json_rows(path: Path) -> Iterator[tuple[str, JsonObject]]:
    """A JSON array of objects, or JSON Lines under a .json name (the hub's json loader
    takes both, and datasets on the hub use both)."""
    text = read_text(path)
    try:
        whole = parse_json(text, str(path))
    except JsonInputError as error:
        if error.reason == NESTED:
            raise
        yield from json_objects(path)  # JSON Lines under a .json name: read (and named) line by line
        return
    if isinstance(whole, dict):  # one object: a one-line JSON Lines file
        yield f"{path}:1", whole
        return
    if not isinstance(whole, list):
        raise MlbenchError(f"{path}: expected a JSON array of objects, got {type(whole).__name__}")
    for index, row in enumerate(whole):
        if not isinstance(row, dict):
            raise MlbenchError(f"{path}[{index}]: not a JSON object")
        yield f"{path}[{index}]", row


def _parquet_rows(path: Path) -> Iterator[tuple[str, JsonObject]]:
    import pyarrow.parquet as pq  # with datasets; only a Parquet file needs it

    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as error:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise MlbenchError(f"{path}: not a readable Parquet file ({reason[:160]})") from None
    for index, row in enumerate(rows):
        yield f"{path} row {index + 1}", row


def _csv_rows(path: Path) -> Iterator[tuple[str, JsonObject]]:
    allow_long_csv_fields()
    text = read_text(path)
    check_no_nul(path, text)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        refuse_repeated_columns(path, reader.fieldnames)
        for row in reader:
            if None in row:  # more cells than the header has columns
                raise MlbenchError(f"{path}:{reader.line_num}: more cells than the header's columns")
            if not any((value or "").strip() for value in row.values()):
                continue
            yield f"{path}:{reader.line_num}", dict(row)
    except csv.Error as error:
        raise MlbenchError(f"{path}:{reader.line_num}: invalid CSV ({error})") from None


def refuse_repeated_columns(path: Path, names: Sequence[str] | None) -> None:
    """A CSV header that names a column twice would be read as its later column only: a
    cell silently lost. One line instead."""
    stripped = [name.strip() for name in names or ()]
    twice = sorted({name for name in stripped if name and stripped.count(name) > 1})
    if twice:
        raise MlbenchError(f"{path}:1: column {twice[0]!r} is named twice in the header; keep one")


def column_value(row: JsonObject, path: str) -> tuple[bool, JsonValue]:
    """``(found, value)`` of a column named by ``path``: a key of the row, else a dotted
    path into nested objects (``mc1_targets.choices``), as the hub's nested features are."""
    if path in row:
        return True, row[path]
    value: JsonValue = row
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value
