"""How often TruthfulQA-Multi's two judge protocols give a sample different labels.

Judges two copies of one run folder with the same judge, once under ``-J
protocol=trained`` and once under ``-J protocol=authors`` (docs/judges.md#truthfulqa-multis-judge-protocols),
and prints per language the samples judged, how many labels differ, and each protocol's
share of yes. The run is left as it was; the copies go to ``--work`` (a temporary folder by
default).

    python scripts/compare_judge_protocols.py RUN --judge MODEL [--kind truth] [--lang en,es]
        [-J KEY=VALUE ...] [--work DIR]

Each judging is one ``mlbench judge`` process, so its start-up is in the time printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROTOCOLS = ("trained", "authors")


def judged_labels(run: Path, kind: str) -> dict[str, dict[str, str]]:
    """Each language's label by sample id (the samples its result is of: all of them here)."""
    labels: dict[str, dict[str, str]] = {}
    for path in sorted(run.glob("samples_*.jsonl")):
        lang = path.stem.removeprefix("samples_")
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            verdict = record.get("judges", {}).get(kind, {})
            if "label" in verdict:
                labels.setdefault(lang, {})[record["id"]] = verdict["label"]
    return labels


def judge(run: Path, model: str, kind: str, protocol: str, langs: str, extra: list[str]) -> float:
    command = [sys.executable, "-m", "mlbench", "judge", str(run), "--judge", model, "-J", f"kind={kind}"]
    command += ["-J", f"protocol={protocol}", "--lang", langs, "--no-cache", "-q"]
    for setting in extra:
        command += ["-J", setting]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - start


def table(trained: dict[str, dict[str, str]], authors: dict[str, dict[str, str]]) -> list[str]:
    rows = ["| lang | n | labels differ | yes (trained) | yes (authors) |", "|---|---:|---:|---:|---:|"]
    for lang in sorted(trained):
        ids = sorted(set(trained[lang]) & set(authors.get(lang, {})))
        differ = sum(trained[lang][i] != authors[lang][i] for i in ids)
        yes_t = sum(trained[lang][i] == "yes" for i in ids)
        yes_a = sum(authors[lang][i] == "yes" for i in ids)
        n = len(ids)
        if not n:
            rows.append(f"| {lang} | 0 | — | — | — |")
            continue
        rows.append(
            f"| {lang} | {n} | {differ} ({differ / n:.1%}) | {yes_t} ({yes_t / n:.1%}) | {yes_a} ({yes_a / n:.1%}) |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a TruthfulQA-Multi run folder with generated answers")
    parser.add_argument("--judge", required=True)
    parser.add_argument("--kind", default="truth", choices=("truth", "info"))
    parser.add_argument("--lang", default="all")
    parser.add_argument("-J", dest="settings", action="append", default=[], help="another judge option")
    parser.add_argument("--work", type=Path, help="where the two judged copies go (default: a temporary folder)")
    args = parser.parse_args()
    if not (args.run / "results.json").is_file():
        sys.exit(f"compare_judge_protocols: {args.run} is not a run folder (no results.json)")
    work = args.work or Path(tempfile.mkdtemp(prefix="judge-protocols-"))
    labels, seconds = {}, {}
    for protocol in PROTOCOLS:
        copy = work / protocol / args.run.name
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(args.run, copy)
        seconds[protocol] = judge(copy, args.judge, args.kind, protocol, args.lang, args.settings)
        labels[protocol] = judged_labels(copy, args.kind)
    print(f"{args.kind} judge {args.judge} on {args.run}")
    print("\n".join(table(labels["trained"], labels["authors"])))
    print(f"judged in {seconds['trained']:.0f} s (trained) and {seconds['authors']:.0f} s (authors); copies in {work}")


if __name__ == "__main__":
    main()
