"""Reading JSONL files that users hand us: one object per line, errors that name the line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError


def json_objects(path: Path, encoding: str = "utf-8") -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, row)`` for every non-blank line, ``where`` being ``path:line``. A line that
    is not JSON, or not a JSON object, is an error naming it (never skipped)."""
    with path.open(encoding=encoding) as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{line_no}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise MlbenchError(f"{where}: invalid JSON ({error.msg})") from None
            if not isinstance(row, dict):
                raise MlbenchError(f"{where}: not a JSON object")
            yield where, row
