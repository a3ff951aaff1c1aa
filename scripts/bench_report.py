"""How long `mlbench report` takes over many runs: the goal is well under a second per
hundred runs (issue 8). Builds synthetic runs shaped like a TruthfulQA-Multi run (817
questions, 15 per-question metrics, a ~3 KB samples line each), one language per run as
Slurm jobs write them, then times reading + tables + gaps, each file format, and the old
path that reads the samples files instead of the per-question values.

    python scripts/bench_report.py [--runs 100] [--questions 817] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mlbench.records import RunResult, SampleRecord  # noqa: E402
from mlbench.report import build_tables, collect  # noqa: E402
from mlbench.report.write import _render  # noqa: E402
from mlbench.results import merge_run, write_language  # noqa: E402
from mlbench.results.aggregation import aggregate  # noqa: E402

LANGS = ("en", "es", "ca", "gl", "eu")
BINARY = ("mc1", "bleu_acc", "wrong_language", "repetition", "surface_issue", "marker_apology", "marker_refusal")
CONTINUOUS = ("mc2", "bleu_max", "bleu_diff", "lprob_max", "lprob_diff", "sim_1gram", "sim_2gram", "sim_sent")


def build(root: Path, runs: int, questions: int) -> None:
    rng = np.random.default_rng(0)
    ids = [str(i) for i in range(questions)]
    filler = "x" * 3000  # prompt and generation text of a real samples line
    models = max(1, runs // len(LANGS))
    for m in range(models):
        for lang in LANGS[: runs - m * len(LANGS)] if runs < (m + 1) * len(LANGS) else LANGS:
            run_dir = root / f"job-{m}-{lang}" / f"org__model-{m}" / "truthfulqa_multi"
            run_dir.mkdir(parents=True)
            values = {name: (rng.random(questions) < 0.5).astype(float) for name in BINARY}
            values.update({name: rng.random(questions) for name in CONTINUOUS})
            records = [
                SampleRecord(q, lang, filler, metrics={k: float(v[i]) for k, v in values.items()}, config_hash="h")
                for i, q in enumerate(ids)
            ]
            order = [*BINARY, *CONTINUOUS]
            write_language(run_dir, aggregate(lang, records, order, 0), {"timings_s": {lang: 1.0}}, "h", None)
            with (run_dir / f"samples_{lang}.jsonl").open("w") as handle:
                for record in records:
                    handle.write(json.dumps(record.to_json()) + "\n")
            merge_run(run_dir, RunResult(f"org/model-{m}", "truthfulqa_multi", {}, {}), "h", order, LANGS)


def timed(label: str, action) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    action()
    seconds = time.perf_counter() - start
    print(f"  {label:<44} {seconds:7.3f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--questions", type=int, default=817)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-report-"))
    root = work / "results"
    if root.exists():
        shutil.rmtree(root)
    build(root, args.runs, args.questions)
    print(f"{args.runs} runs × {args.questions} questions × {len(BINARY) + len(CONTINUOUS)} metrics under {root}")

    state = {}

    def tables() -> None:
        state["collection"] = collect(root)
        state["tables"] = build_tables(state["collection"])

    import subprocess

    command = [sys.executable, "-m", "mlbench", "report", str(root), "--format", "md,csv,latex,json"]
    cli = timed(
        "`mlbench report` end to end (4 formats)", lambda: subprocess.run(command, check=True, capture_output=True)
    )
    total = timed("read + tables + gaps (per-question values)", tables)
    gaps = sum(1 for t in state["tables"] for cells in t.rows.values() for c in cells.values() if c.gap)
    for fmt in ("md", "csv", "latex", "json"):
        total += timed(
            f"  + {fmt}", lambda fmt=fmt: _render(fmt, state["tables"], state["collection"], "en", 0, 1000, {}, {})
        )
    for path in root.rglob("results_*.json"):  # as runs written before per-question values
        payload = json.loads(path.read_text())
        payload.pop("per_question")
        path.write_text(json.dumps(payload))
    old = timed("read + tables + gaps (from samples files)", tables)
    print(
        f"{gaps} gaps tested; report without plots {total:.3f} s for {args.runs} runs in-process, "
        f"{cli:.3f} s as a command with Python's start (goal: well under 1 s per 100 runs); "
        f"reading the samples files instead: {old:.3f} s, {old / max(total, 1e-9):.1f}× slower"
    )


if __name__ == "__main__":
    main()
