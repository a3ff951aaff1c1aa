"""Are two results folders the same run? Every sample of every run under BEFORE is compared
with the one at the same place under AFTER: prompt, outputs (option log-likelihoods,
generations, answers), metrics, surface checks and settings hash, exactly. results.json's settings (prompt hashes
included), settings hash, per-language metrics and per-question values are compared too,
leaving out only timings, package versions, the git commit and the files' format
version. Used to show that a change of code (a refactor) left what mlbench measures
untouched.

    python scripts/compare_runs.py BEFORE AFTER [--added KEY ...]

``--added KEY``: a field the change being checked adds (a new record of what was run,
such as ``data_hash``) is accepted where only AFTER has it; everything else still must
be equal.

Prints one line per samples file and a total; exit 1 at the first difference it reports.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# Fields that may differ between two identical runs: when and where they ran (and when the
# model worked on each language), and the files' format version (a file of version 1 and
# one from before versions hold the same).
VOLATILE = {"timings_s", "model_work_unix", "packages", "git_hash", "schema_version"}


def read_samples(path: Path) -> dict[str, dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {record["id"]: record for record in map(json.loads, lines) if record}


def differences(before: Any, after: Any, where: str = "", added: frozenset[str] = frozenset()) -> list[str]:
    """Where ``before`` and ``after`` differ (exactly: floats compared bit for bit); keys
    in ``added`` may be in ``after`` only."""
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in sorted(set(before) | set(after)):
            if key in VOLATILE or (key in added and key not in before):
                continue
            if key not in before or key not in after:
                found.append(f"{where}.{key}: only in {'after' if key in after else 'before'}")
            else:
                found += differences(before[key], after[key], f"{where}.{key}", added)
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        pairs = enumerate(zip(before, after))
        return [d for i, (b, a) in pairs for d in differences(b, a, f"{where}[{i}]", added)]
    return [] if before == after else [f"{where}: {before!r} != {after!r}"]


def run_summary(path: Path) -> dict[str, Any]:
    """What results.json says of the run: its settings (prompt hashes, data, model and
    engine settings), settings hash, each language's metrics and per-question values."""
    data = json.loads(path.read_text(encoding="utf-8"))
    keys = ("config", "config_hash", "results", "per_question", "cross_language", "metrics")
    return {key: data.get(key) for key in keys}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--added", action="append", default=[], metavar="KEY", help="a field only AFTER may have")
    args = parser.parse_args()
    added = frozenset(args.added)
    files = sorted(args.before.rglob("samples_*.jsonl"))
    if not files:
        print(f"no samples_*.jsonl under {args.before}", file=sys.stderr)
        return 2
    samples = 0
    for path in files:
        relative = path.relative_to(args.before)
        before, after = read_samples(path), read_samples(args.after / relative)
        found = differences(before, after, added=added)
        results = path.parent / "results.json"
        if results.exists():
            theirs = args.after / relative.parent / "results.json"
            found += differences(run_summary(results), run_summary(theirs), "results.json", added)
        if found:
            print(f"{relative}: {len(found)} differences, first: {found[0]}")
            return 1
        samples += len(before)
        print(f"{relative}: {len(before)} samples and results.json identical")
    print(f"identical: {samples} samples in {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
