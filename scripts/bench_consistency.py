#!/usr/bin/env python3
"""XLingHealth consistency sampling: K answers from one request (n=K, the prompt read once)
vs K separate requests, on the same backend and questions.

    python scripts/bench_consistency.py --data-dir ../shared/datasets [--model DIR] [--backend hf|vllm]
                                        [--limit 16] [--samples 10] [--max-new-tokens 64]

Prints the wall time and the generated tokens per second of both ways. Without --model the
tiny model is built in a temporary folder. vLLM on a CPU needs VLLM_CPU_KVCACHE_SPACE and
VLLM_ENABLE_V1_MULTIPROCESSING=0, as in the tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path


def backend_for(name: str, model: str):
    if name == "vllm":
        from mlbench.backends.vllm import EngineOptions, VLLMBackend

        return VLLMBackend(EngineOptions(model, dtype="float32", max_model_len=2048))
    from mlbench.backends.hf import HFBackend

    return HFBackend(model, device="auto", dtype="float32", batch_size=16)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--model")
    parser.add_argument("--backend", choices=("hf", "vllm"), default="hf")
    parser.add_argument("--limit", type=int, default=16)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--max-new-tokens", type=int, default=64)
    args = parser.parse_args()

    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
    from mlbench.data.source import DataSource, subset

    model = args.model
    if model is None:
        spec = importlib.util.spec_from_file_location("make_tiny_model", Path(__file__).with_name("make_tiny_model.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        model = str(module.make_tiny_model(Path(tempfile.mkdtemp()) / "tiny", size="tiny", seed=0))
    task = get_task("xlinghealth")
    options = TaskOptions(
        DataSource("local", args.data_dir),
        max_new_tokens=args.max_new_tokens,
        own=XLingHealthOptions(samples=args.samples, temperatures=(1.0,)),
    )
    data = task.load("en", options)
    samples = subset(data.samples, args.limit, seed=0)
    together = [r for s in samples for r in task.requests("consistency", s, data, options)]
    # The same K answers as K requests, each with its own seed so that they differ.
    apart = [replace(r, n=1, seed=k) for r in together for k in range(args.samples)]
    backend = backend_for(args.backend, model)
    backend.generate(together[:1])  # warm-up: model load, first kernels
    rows = []
    for label, requests in (("one request, n=K", together), ("K requests", apart)):
        started = time.perf_counter()
        generations = backend.generate(requests)
        seconds = time.perf_counter() - started
        texts = sum(1 + len(g.alternatives) for g in generations)
        tokens = sum(g.n_tokens for g in generations) * (args.samples if label.startswith("one") else 1)
        rows.append((label, texts, seconds, tokens / seconds))
    print(f"{args.backend}, {len(samples)} questions × K={args.samples}, ≤{args.max_new_tokens} new tokens, T=1")
    for label, texts, seconds, rate in rows:
        print(f"  {label:<18} {texts:>5} texts  {seconds:7.2f} s  ~{rate:8.0f} tokens/s")
    print(f"  speed-up: {rows[1][2] / rows[0][2]:.2f}×")


if __name__ == "__main__":
    sys.exit(main())
