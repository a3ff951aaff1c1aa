"""Reading text files that users hand us: JSONL with one object per line, errors that name
the line, and one message for a file that is not UTF-8 (never a traceback)."""

from __future__ import annotations

import codecs
import csv
import sys
from collections.abc import Iterator
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.records.json_read import parse_json
from mlbench.records.jsontypes import JsonObject

# csv's default field limit (131,072 chars) is smaller than some real answers; a field is
# bounded by the file's size anyway. sys.maxsize overflows the C long on some platforms
# (Windows), so the limit is the largest value that the platform accepts.
_CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


def allow_long_csv_fields() -> None:
    """Lift csv's per-field size limit for our readers (process-wide; only ever raised)."""
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)


def not_utf8(path: Path | str, error: UnicodeDecodeError, skipped: int = 0) -> MlbenchError:
    """The one-line error for a file that does not decode; ``skipped`` counts bytes read
    before the decoded buffer (a BOM), so the offset is the byte's place in the file."""
    byte = error.object[error.start] if error.start < len(error.object) else 0
    return MlbenchError(f"{path}: not UTF-8 text (byte 0x{byte:02x} at offset {error.start + skipped})")


def read_text(path: Path, encoding: str = "utf-8-sig") -> str:
    """The whole file as text (``utf-8`` or ``utf-8-sig``, which drops a leading BOM); a
    byte that is not UTF-8 is a one-line error naming the file and the byte's offset."""
    # utf-8-sig by default: a leading BOM (as editors on Windows write) is never data.
    raw = path.read_bytes()
    skipped = 0
    if encoding.lower().replace("_", "-") == "utf-8-sig" and raw.startswith(codecs.BOM_UTF8):
        # Decoded without the BOM so that the reported offset counts from the file's start.
        raw, skipped = raw[len(codecs.BOM_UTF8) :], len(codecs.BOM_UTF8)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(path, error, skipped) from None


def json_objects(path: Path, encoding: str = "utf-8-sig") -> Iterator[tuple[str, JsonObject]]:
    """``(where, row)`` for every non-blank line, ``where`` being ``path:line``. A line that
    is not JSON, or not a JSON object, is an error naming it (never skipped); so is a file
    that is not UTF-8 (checked before any row is yielded, so no caller sees half a file)."""
    # Lines end as a text-mode file's do (\n, \r\n, \r): str.splitlines would also split
    # at U+2028 and other separators that json.dumps(ensure_ascii=False) leaves in strings.
    text = read_text(path, encoding).replace("\r\n", "\n").replace("\r", "\n")
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_no}"
        row = parse_json(line, where)  # nesting and size bounded: one line naming where, never a traceback
        if not isinstance(row, dict):
            raise MlbenchError(f"{where}: not a JSON object")
        yield where, row


def check_no_nul(path: Path, text: str) -> None:
    """A NUL byte has no place in a text data file: a sign of corruption, which the csv
    module would otherwise read into a field."""
    at = text.find("\x00")
    if at >= 0:
        raise MlbenchError(f"{path}: a NUL byte at character {at}: not a text file (corrupted?)")
