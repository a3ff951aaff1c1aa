"""``samples_<lang>.jsonl``: one ``SampleRecord`` a line, appended as samples finish and
rewritten whole after a language's last stage or a judge adds to them."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from mlbench.data.jsonlines import not_utf8
from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.records.json_read import parse_json
from mlbench.records.version import NewerSchema
from mlbench.results.files import write_atomic


def read_samples(path: Path, config_hash: str | None = None, *, repair: bool = True) -> dict[str, SampleRecord]:
    """Finished samples of a (possibly interrupted) run, by id.

    A last line without its newline is what a kill mid-write leaves: it is cut off so the
    file ends on a complete record (with ``repair=False``, used on files another job may be
    writing, it is only skipped). Any other unreadable line is an error, as is a record
    written with different settings (``config_hash``).
    """
    if not path.exists():
        return {}
    if path.is_dir():
        raise MlbenchError(f"{path} is a folder, not an mlbench samples file")
    raw = path.read_bytes()
    complete_end = raw.rfind(b"\n") + 1
    if repair and complete_end < len(raw):
        with path.open("r+b") as handle:
            handle.truncate(complete_end)
    records: dict[str, SampleRecord] = {}
    try:
        text = raw[:complete_end].decode("utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(path, error) from None
    # Split at newlines only: json.dumps(ensure_ascii=False) leaves U+2028 and other
    # separators that str.splitlines would split at inside a string.
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = SampleRecord.from_json(parse_json(line, f"{path}:{line_no}", finite=True))
        except NewerSchema as error:
            raise MlbenchError(f"{path}:{line_no}: {error}") from None
        except ValueError as error:
            raise MlbenchError(f"{path}:{line_no}: not an mlbench sample ({error})") from None
        if config_hash is not None and record.config_hash != config_hash:
            raise MlbenchError(
                f"{path} was written with different settings; rerun with --overwrite instead of --resume, or choose "
                "another --output"
            )
        records[record.id] = record
    return records


def _lines(records: Iterable[SampleRecord]) -> str:
    return "".join(json.dumps(r.to_json(), ensure_ascii=False, allow_nan=False) + "\n" for r in records)


def append_samples(path: Path, records: Iterable[SampleRecord]) -> None:
    """Append finished samples and force them to disk before returning. A write that fails
    (a full disk, a quota) is cut back to the samples before it, so that no half line is
    left for ``--resume`` to read, and ends with one line naming the file."""
    lines = _lines(records).encode("utf-8")
    kept = path.stat().st_size if path.exists() else 0
    try:
        with path.open("ab") as handle:
            handle.write(lines)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):  # shrinking a file needs no space
            os.truncate(path, kept)
        raise MlbenchError(f"could not write {path}: {error.strerror or error}; the samples before are kept") from None


def rewrite_samples(path: Path, records: Iterable[SampleRecord]) -> None:
    """Replace a samples file with ``records`` in one atomic step (after judging, which
    adds fields to finished samples; appending would duplicate them)."""
    write_atomic(path, _lines(records))
