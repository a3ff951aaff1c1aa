"""``mlbench data verify``: every cached file against its recorded sha256 (and the
catalog's pin), and row counts against what the benchmark's paper and card state."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.catalog import Source
from mlbench.data.http import file_sha256
from mlbench.data.remote import HUB_CARD
from mlbench.data.store import FILES, read_lock, source_dir


@dataclass
class Verdict:
    source: str
    files: int = 0
    rows: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def count_rows(path: Path) -> int:
    """Rows of a data file: array items (or a release's ``entries``), JSON lines, CSV rows,
    sheet rows under the header, parquet rows."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return int(pq.read_metadata(path).num_rows)
    if suffix == ".jsonl":
        with path.open(encoding="utf-8-sig") as handle:
            return sum(1 for line in handle if line.strip())
    if suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8-sig"))
        if isinstance(data, dict) and isinstance(data.get("entries"), list):
            return len(data["entries"])
        return len(data) if isinstance(data, list) else 1
    if suffix in (".csv", ".tsv"):
        with path.open(encoding="utf-8-sig", newline="") as handle:
            return max(sum(1 for _ in csv.reader(handle, delimiter="\t" if suffix == ".tsv" else ",")) - 1, 0)
    if suffix == ".xlsx":
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True)
        try:
            sheet = book.worksheets[0]
            return max(sum(1 for row in sheet.iter_rows(values_only=True) if any(v is not None for v in row)) - 1, 0)
        finally:
            book.close()
    raise ValueError(f"no row count for {path.name}")


def verify(source: Source) -> Verdict:
    verdict = Verdict(source.name)
    lock = read_lock(source)
    if lock is None:
        verdict.problems.append("not fetched")
        return verdict
    if lock.revision != source.revision or lock.repo != source.repo:
        verdict.problems.append(f"cache holds {lock.repo}@{lock.revision}, this mlbench pins {source.revision}")
    folder = source_dir(source) / FILES
    for name, entry in sorted(lock.files.items()):
        path = folder / name
        if not path.is_file():
            verdict.problems.append(f"{name}: missing")
            continue
        verdict.files += 1
        digest = file_sha256(path)
        pinned = source.pinned(name)
        if digest != entry["sha256"]:
            verdict.problems.append(f"{name}: sha256 {digest[:12]}… differs from the one recorded at fetch")
        elif pinned is not None and pinned.sha256 and digest != pinned.sha256:
            verdict.problems.append(f"{name}: sha256 {digest[:12]}… is not the pinned {pinned.sha256[:12]}…")
        if name == HUB_CARD:
            continue
        try:
            rows = count_rows(path)
        except Exception as error:  # noqa: BLE001 - any reader failure is a verdict, not a crash
            verdict.problems.append(
                f"{name}: unreadable ({str(error).splitlines()[0][:120] if str(error) else type(error).__name__})"
            )
            continue
        verdict.rows += rows
        if pinned is not None and pinned.rows is not None and rows != pinned.rows:
            verdict.problems.append(f"{name}: {rows} rows, expected {pinned.rows}")
    if source.rows is not None and verdict.rows != source.rows and not verdict.problems:
        verdict.problems.append(f"{verdict.rows} rows in all, expected {source.rows}")
    return verdict
