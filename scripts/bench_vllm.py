#!/usr/bin/env python3
"""vLLM speed: MC scoring with mlbench's prefix-reusing scorer vs plain prompt log-probs
per option (lm-eval's method), plus greedy generation throughput.

    python scripts/bench_vllm.py --data-dir ../shared/datasets [--model DIR] [--limit N]
        [--gen-limit N] [--dtype float32] [--max-model-len 4096]

Scores every option of the English TruthfulQA-Multi questions (6-shot primer) both ways on
one engine (the prefix cache is emptied before each method), in calls of 32 questions as
the pipeline makes them, checks that the scores agree to 1e-3 and prints a comparison.
Engine start and compilation are not timed. Without --model the bench-size tiny model is
built in a temporary folder; on a GPU pass a real one (or build a ~1B random Llama).
On vLLM's CPU build set VLLM_CPU_KVCACHE_SPACE (GiB) and VLLM_ENABLE_V1_MULTIPROCESSING=0.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def timed_scores(backend, requests, per_call: int) -> tuple[float, list[float]]:
    backend.llm.reset_prefix_cache()
    started = time.perf_counter()
    scores = []
    for start in range(0, len(requests), per_call):
        scores += [r.logprob for r in backend.loglikelihood(requests[start : start + per_call])]
    return time.perf_counter() - started, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--model")
    parser.add_argument("--limit", type=int, default=None, help="MC questions (default: all 817)")
    parser.add_argument("--gen-limit", type=int, default=128, help="questions for the generation figure")
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--max-model-len", type=int, default=4096)
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--block-size", type=int, help="KV cache block size (vLLM's default: 16 on GPUs, 128 on CPUs)")
    args = parser.parse_args()

    from mlbench.backends.vllm import EngineOptions, VLLMBackend
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource, subset

    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            from make_tiny_model import make_tiny_model  # scripts/ is on sys.path when run as a script

            model = str(make_tiny_model(Path(tmp) / "bench-model", size="bench", seed=0))
        task = get_task("truthfulqa_multi")
        options = TaskOptions(DataSource("local", args.data_dir))
        data = task.load("en", options)
        samples = subset(data.samples, args.limit, seed=0)
        requests = [r for s in samples for r in task.mc_requests(s, data, options)]
        per_call = 32 * len(requests) // max(len(samples), 1)

        engine = EngineOptions(
            model,
            dtype=args.dtype,
            max_model_len=args.max_model_len,
            tensor_parallel_size=args.tensor_parallel_size,
            extra=(("block_size", str(args.block_size)),) if args.block_size else (),
        )
        reusing, plain = VLLMBackend(engine), VLLMBackend(engine, prefix_reuse=False)
        reusing.loglikelihood(requests[:per_call])  # engine start and compilation, not timed
        reusing.stats = dict.fromkeys(reusing.stats, 0)
        plain_s, plain_scores = timed_scores(plain, requests, per_call)
        reuse_s, reuse_scores = timed_scores(reusing, requests, per_call)
        worst = max(abs(a - b) for a, b in zip(reuse_scores, plain_scores))

        gen_requests = [
            type(r)(r.prompt, max_new_tokens=args.max_new_tokens)
            for r in (task.gen_request(s, data, options) for s in samples[: args.gen_limit])
        ]
        started = time.perf_counter()
        generations = reusing.generate(gen_requests)
        gen_s = time.perf_counter() - started
        gen_tokens = sum(g.n_tokens for g in generations)

    import vllm

    print(
        f"model {model}, vLLM {vllm.__version__}, dtype {args.dtype}; {len(samples)} questions, "
        f"{len(requests)} options, {per_call} options per call"
    )
    print(f"{'MC scorer':<26}{'seconds':>10}{'options/s':>12}")
    for name, seconds in (("plain prompt log-probs", plain_s), ("prefix-reusing (mlbench)", reuse_s)):
        print(f"{name:<26}{seconds:>10.1f}{len(requests) / seconds:>12.1f}")
    print(f"option scoring: {reusing.stats}")
    print(
        f"speed-up {plain_s / reuse_s:.1f}x (goal >= 3x); max |score difference| {worst:.1e} "
        f"(goal <= 1e-3: {'OK' if worst <= 1e-3 else 'FAIL'})"
    )
    print(
        f"generation: {len(gen_requests)} prompts, {gen_tokens} tokens in {gen_s:.1f} s = "
        f"{gen_tokens / gen_s:.0f} tokens/s (greedy, up to {args.max_new_tokens} new tokens)"
    )


if __name__ == "__main__":
    main()
