#!/usr/bin/env python3
"""MC scoring speed: mlbench's shared-prefix scorer vs naive per-option scoring.

    python scripts/bench_mc.py --data-dir ../shared/datasets [--model DIR] [--limit N] [--batch-size 16]

Scores every option of the English TruthfulQA-Multi questions (6-shot primer) with the
same model and batch size both ways, each in its own process so that peak memory is
measured separately, checks that the scores agree to 1e-4 and prints a comparison.
Without --model the bench-size tiny model is built in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def score(model: str, data_dir: Path, limit: int | None, batch_size: int, scorer: str, out: Path) -> None:
    """Child process: time one scorer and save its scores and peak memory."""
    import torch

    from mlbench.backends.hf import HFBackend
    from mlbench.loaders.source import DataSource, subset
    from mlbench.tasks import get_task
    from mlbench.tasks.base import TaskOptions

    torch.set_num_threads(torch.get_num_threads())
    task = get_task("truthfulqa_multi")
    data = task.load("en", TaskOptions(DataSource("local", data_dir)))
    samples = subset(data.samples, limit, seed=0)
    requests = [r for s in samples for r in task.mc_requests(s, data, TaskOptions())]
    backend = HFBackend(model, device="auto", dtype="float32", batch_size=batch_size, prefix_sharing=scorer == "shared")
    if backend.device == "cuda":
        torch.cuda.reset_peak_memory_stats()
    started = time.perf_counter()
    # The pipeline hands the backend 32 questions per call; do the same here.
    per_call = 32 * len(requests) // max(len(samples), 1)
    results = []
    for start in range(0, len(requests), per_call):
        results += backend.loglikelihood(requests[start : start + per_call])
    seconds = time.perf_counter() - started
    peak = (
        torch.cuda.max_memory_allocated() / 2**20
        if backend.device == "cuda"
        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    )
    out.write_text(
        json.dumps(
            {
                "seconds": seconds,
                "peak_mib": peak,
                "device": backend.device,
                "questions": len(samples),
                "options": len(requests),
                "tokens": sum(r.n_tokens for r in results),
                "scores": [r.logprob for r in results],
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--model")
    parser.add_argument("--limit", type=int, default=None, help="questions (default: all 817)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--child", choices=["shared", "naive"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        score(args.model, args.data_dir, args.limit, args.batch_size, args.child, args.out)
        return
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            from make_tiny_model import make_tiny_model  # scripts/ is on sys.path when run as a script

            model = str(make_tiny_model(Path(tmp) / "bench-model", size="bench", seed=0))
        runs = {}
        for scorer in ("shared", "naive"):
            out = Path(tmp) / f"{scorer}.json"
            command = [
                sys.executable,
                __file__,
                "--child",
                scorer,
                "--out",
                str(out),
                "--model",
                model,
                "--data-dir",
                str(args.data_dir),
                "--batch-size",
                str(args.batch_size),
            ]
            if args.limit:
                command += ["--limit", str(args.limit)]
            subprocess.run(command, check=True)
            runs[scorer] = json.loads(out.read_text())
    shared, naive = runs["shared"], runs["naive"]
    worst = max(abs(a - b) for a, b in zip(shared["scores"], naive["scores"]))
    print(
        f"model {model} on {shared['device']}, {shared['questions']} questions, "
        f"{shared['options']} options, batch size {args.batch_size}"
    )
    print(f"{'scorer':<14}{'seconds':>10}{'options/s':>12}{'peak MiB':>11}")
    for name, run in (("naive", naive), ("shared-prefix", shared)):
        print(f"{name:<14}{run['seconds']:>10.1f}{run['options'] / run['seconds']:>12.1f}{run['peak_mib']:>11.0f}")
    print(
        f"speed-up {naive['seconds'] / shared['seconds']:.1f}x (goal >= 4x); "
        f"peak memory {shared['peak_mib'] / naive['peak_mib']:.2f}x of naive (goal <= 1x); "
        f"max |score difference| {worst:.1e} (goal <= 1e-4: {'OK' if worst <= 1e-4 else 'FAIL'})"
    )


if __name__ == "__main__":
    main()
