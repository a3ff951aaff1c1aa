"""A user's file mapping question ids to labels (``--slices FILE.csv``): a header with
``id``, optionally ``task`` (a row for one benchmark only; without it the row labels that
id in every benchmark), and one column per slice field (e.g. ``context``: general or
cultural, as the TruthfulQA-Multi authors split their questions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.tabular import read_rows
from mlbench.errors import MlbenchError

# Between a benchmark's name and its slice in a sliced table's task ("truthfulqa_multi ·
# category=Health"), which report/slicing.py makes.
SEPARATOR = " · "


def base_task(task: str) -> str:
    """The benchmark a (possibly sliced) task name is of."""
    return task.split(SEPARATOR, 1)[0]


@dataclass(frozen=True)
class SliceFile:
    fields: tuple[str, ...]
    # (task or "" for every task, question id) → field → label
    labels: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    def of(self, task: str, question_id: str) -> dict[str, str]:
        """The labels the file gives one question of one benchmark."""
        return {**self.labels.get(("", question_id), {}), **self.labels.get((task, question_id), {})}


def read_slices(path: Path) -> SliceFile:
    """The file's labels; one line naming the file and line for anything it cannot use."""
    if path.suffix.lower() != ".csv":
        raise MlbenchError(f"--slices {path}: a .csv file (columns: id, optional task, one per field)")
    rows = list(read_rows(path, "--slices file"))
    header = [name.strip() for name in rows[0][1]] if rows else []
    if "id" not in header:
        raise MlbenchError(f"--slices {path}: no rows with an id column (and one column per slice field)")
    fields = tuple(name for name in header if name not in ("id", "task") and name)
    if not fields:
        raise MlbenchError(f"--slices {path}: no slice column beside id (and task)")
    labels: dict[tuple[str, str], dict[str, str]] = {}
    for where, raw in rows:
        row = {str(k).strip(): str(v or "").strip() for k, v in raw.items()}
        key = (row.get("task", ""), row["id"])
        if not key[1]:
            raise MlbenchError(f"--slices {where}: no id")
        if key in labels:
            raise MlbenchError(f"--slices {where}: id {key[1]!r} is labelled twice")
        labels[key] = {name: row[name] for name in fields if row.get(name)}
    return SliceFile(fields, labels)
