#!/usr/bin/env python3
"""mlbench against the TruthfulQA-Multi authors' own generation runs, per sample.

    git clone https://github.com/hitz-zentroa/truthfulqa-multi   # their released lm-eval logs
    python scripts/validate_authors.py --logs truthfulqa-multi/results/gen --data-dir ../shared/datasets

The logs (``results/gen/<lang>/<model>/samples_truthfulqa-multi_gen_<lang>_*.jsonl`` with
their ``results_*.json``) are imported with ``mlbench import lm-eval``, which builds every
prompt from mlbench's copy of the benchmark and imports a logged completion only where
lm-eval's prompt is mlbench's, character for character (chat models: rendered with the
run's logged chat template). Per model and language it prints:

- docs: how many logged documents are mlbench's copy of the question (same question, same
  references); the dataset was revised after some runs (Galician answers added, a Catalan
  question reworded), and those documents are named by the import, not scored;
- prompts: of those, how many have a prompt equal to mlbench's (goal: all);
- BLEU: of those, how many have mlbench's bleu_max, bleu_acc and bleu_diff within 1e-6 of
  the logged values, and the largest difference (goal: all).

Exit code 0 when every document that is mlbench's copy matches on both counts, 1
otherwise, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.lm_eval_import.importer import benchmark_of, import_lm_eval
from mlbench.engine.lm_eval_import.logs import find_samples_files, read_samples_log, task_of
from mlbench.errors import MlbenchError
from mlbench.results import model_slug, read_samples, samples_path

BLEU = ("bleu_max", "bleu_acc", "bleu_diff")
TOLERANCE = 1e-6


def logged_metrics(path: Path) -> dict[str, dict[str, float]]:
    """Each logged document's BLEU triple, by TruthfulQA-Multi id."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[str(row["doc"]["id"])] = {name: float(row[name]) for name in BLEU}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=Path, required=True, help="the authors' results/gen folder (or any part of it)")
    parser.add_argument("--data-dir", type=Path, required=True, help="mlbench's copy of TruthfulQA-Multi")
    parser.add_argument("--verbose", action="store_true", help="list every document the import left out")
    args = parser.parse_args()
    files = [f for f in find_samples_files([args.logs]) if (known := benchmark_of(task_of(f))) and known[2] == "gen"]
    if not files:
        print(f"validate_authors: no truthfulqa-multi_gen samples files under {args.logs}", file=sys.stderr)
        return 2
    options = TaskOptions(DataSource("local", args.data_dir))
    with tempfile.TemporaryDirectory() as out:
        summary = import_lm_eval([args.logs], Path(out), options, overwrite=True)
        rows = []
        totals: dict[str, int] = defaultdict(int)
        for path in files:
            log = read_samples_log(path)
            task, lang, _, _ = benchmark_of(log.task)  # type: ignore[misc]  # a gen file: known above
            records = read_samples(samples_path(Path(out) / model_slug(log.info.model) / task.name, lang))
            logged = logged_metrics(path)
            ours = {sample.id: sample for sample in task.load(lang, options).samples}
            same_doc = [
                i for i in logged if i in ours and task.lm_eval_doc_difference(ours[i], log.docs[i], "gen") is None
            ]
            same_prompt = [i for i in same_doc if i in records and not records[i].error]
            worst, same_bleu = 0.0, 0
            for i in same_prompt:
                diff = max(abs(records[i].metrics[m] - logged[i][m]) for m in BLEU)
                worst = max(worst, diff)
                same_bleu += diff <= TOLERANCE
            rows.append((log.info.model, lang, len(logged), len(same_doc), len(same_prompt), same_bleu, worst))
            totals["logged"] += len(logged)
            totals["docs"] += len(same_doc)
            totals["prompts"] += len(same_prompt)
            totals["bleu"] += same_bleu
    print(f"{'model':<36} {'lang':<4} {'n':>4} {'docs =':>6} {'prompts =':>9} {'BLEU =':>6} {'max diff':>8}")
    for model, lang, n, docs, prompts, bleu, worst in sorted(rows):
        print(f"{model:<36} {lang:<4} {n:>4} {docs:>6} {prompts:>9} {bleu:>6} {worst:>8.1e}")
    print(
        f"all: {len(rows)} logs, {totals['logged']} samples, {totals['docs']} of them mlbench's copy of the "
        f"question; prompts equal: {totals['prompts']}; BLEU triples within {TOLERANCE:g}: {totals['bleu']}"
    )
    if args.verbose:
        for line in summary.lines:
            print(f"  {line}")
    ok = totals["prompts"] == totals["bleu"] == totals["docs"]
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except MlbenchError as error:
        print(f"validate_authors: {error}", file=sys.stderr)
        sys.exit(2)
