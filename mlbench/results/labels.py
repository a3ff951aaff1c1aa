"""Label tables for ``mlbench agree``: a CSV/JSONL of labelled items, or a run's judge
verdicts joined with a file of human labels on (id, lang)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from mlbench.data.jsonlines import allow_long_csv_fields, json_objects, read_text
from mlbench.data.tabular import refuse_repeated_columns
from mlbench.errors import MlbenchError, did_you_mean
from mlbench.records.jsontypes import JsonObject
from mlbench.results import read_samples, samples_path, written_languages
from mlbench.stats.agreement import Agreement, agreement

Row = JsonObject  # a CSV row (strings) or a JSONL object


def read_label_table(path: Path) -> list[Row]:
    """Rows of a ``.csv`` (header line) or ``.jsonl`` (one object per line) file."""
    if not path.is_file():
        raise MlbenchError(f"no such label file: {path}")
    if path.suffix.lower() == ".csv":
        allow_long_csv_fields()
        text = read_text(path, encoding="utf-8-sig")
        try:
            reader = csv.DictReader(text.splitlines())
            refuse_repeated_columns(path, reader.fieldnames)
            rows = list(reader)
        except csv.Error as error:
            raise MlbenchError(f"{path}: not a readable CSV file ({error})") from None
        if rows and None in rows[0]:
            raise MlbenchError(f"{path}: a row has more cells than the header")
    elif path.suffix.lower() in (".jsonl", ".json"):
        rows = [row for _, row in json_objects(path, encoding="utf-8-sig")]
    else:
        raise MlbenchError(f"{path}: label files are .csv or .jsonl")
    if not rows:
        raise MlbenchError(f"{path} has no rows")
    return rows


def require_columns(rows: list[Row], columns: Sequence[str], source: str) -> None:
    present = set().union(*(row.keys() for row in rows))
    missing = [c for c in columns if c not in present]
    if missing:
        hint = did_you_mean(missing[0], sorted(present)) if len(missing) == 1 else ""
        raise MlbenchError(f"{source} has no column {', '.join(missing)}{hint}; it has {', '.join(sorted(present))}")


def judge_labels(run_dir: Path, kind: str) -> list[Row]:
    """One row per sample of the run: id, lang and the ``kind`` judge's label (None when the
    sample was not judged, the call failed or the verdict could not be read)."""
    rows = []
    for lang in written_languages(run_dir):
        for record in read_samples(samples_path(run_dir, lang)).values():
            label = record.judges.get(kind, {}).get("label")
            rows.append({"id": record.id, "lang": lang, "judge": None if label == "unparsed" else label})
    if not any(row["judge"] is not None for row in rows):
        raise MlbenchError(
            f"{run_dir} has no {kind} verdicts: run `mlbench judge {run_dir} --judge MODEL -J kind={kind}` first"
        )
    return rows


def duplicate_keys(rows: list[Row]) -> list[str]:
    """``id`` (``lang``) of every (id, lang) that more than one row labels, in file order."""
    seen: set[tuple[str, str]] = set()
    repeated: dict[tuple[str, str], None] = {}
    for row in rows:
        key = (str(row["id"]), str(row["lang"]))
        if key in seen:
            repeated[key] = None
        seen.add(key)
    return [f"{sample_id} ({lang})" for sample_id, lang in repeated]


def join_human(
    judged: list[Row], human: list[Row], column: str, source: str = "the human label file"
) -> tuple[list[Row], int]:
    """Rows with ``human`` and ``judge`` labels for every human-labelled item of the run,
    and how many human rows name an (id, lang) the run does not have. Two human rows for
    one item are an error: each would be counted as a sample of its own, inflating n."""
    repeated = duplicate_keys(human)
    if repeated:
        shown = ", ".join(repeated[:5]) + (f" and {len(repeated) - 5} more" if len(repeated) > 5 else "")
        raise MlbenchError(f"{source}: more than one row for id {shown}; keep one label per (id, lang)")
    by_key = {(row["id"], row["lang"]): row["judge"] for row in judged}
    joined, unmatched = [], 0
    for row in human:
        key = (str(row["id"]), str(row["lang"]))
        if key not in by_key:
            unmatched += 1
            continue
        joined.append({"id": key[0], "lang": key[1], "human": row.get(column), "judge": by_key[key]})
    return joined, unmatched


def human_column(rows: list[Row], kind: str, requested: str | None) -> str:
    """The label column of a human file: ``requested``, else the first of the kind's name,
    ``human`` and ``label`` that the file has."""
    if requested:
        require_columns(rows, [requested], "the human label file")
        return requested
    present = set().union(*(row.keys() for row in rows))
    for candidate in (kind, "human", "label"):
        if candidate in present:
            return candidate
    raise MlbenchError(f"the human label file needs a {kind}, human or label column (or --human-column)")


def agreement_by_group(rows: list[Row], a: str, b: str, *, by: str | None = None, seed: int = 0) -> list[Agreement]:
    """κ between columns ``a`` and ``b``: one line per value of ``by`` (in first-seen order),
    then ``all`` over every row."""
    groups: dict[str, list[Row]] = {}
    if by:
        for row in rows:
            groups.setdefault(str(row.get(by)), []).append(row)
    lines = [
        agreement([r.get(a) for r in members], [r.get(b) for r in members], group=name, seed=seed)
        for name, members in groups.items()
    ]
    lines.append(agreement([r.get(a) for r in rows], [r.get(b) for r in rows], group="all", seed=seed))
    return lines


def file_label_rows(path: Path, columns: Sequence[str]) -> list[Row]:
    """The rows of a label file that must have ``columns``."""
    rows = read_label_table(path)
    require_columns(rows, columns, str(path))
    return rows


def human_label_rows(run_dir: Path, human_file: Path, kind: str, column: str | None) -> tuple[list[Row], str]:
    """Rows with ``human`` and ``judge`` labels: the human file joined with the run's
    ``kind`` verdicts on (id, lang), and a note on human rows that matched no sample."""
    if not run_dir.is_dir():
        raise MlbenchError(f"with --human, SOURCE is a run folder; {run_dir} is not a folder")
    human = read_label_table(human_file)
    require_columns(human, ["id", "lang"], str(human_file))
    rows, unmatched = join_human(judge_labels(run_dir, kind), human, human_column(human, kind, column), str(human_file))
    if not rows:
        raise MlbenchError(f"no human label in {human_file} matches a sample (id, lang) of {run_dir}")
    return rows, f"{unmatched} of {len(human)}" if unmatched else ""
