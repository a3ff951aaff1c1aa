#!/usr/bin/env python3
"""The first thing bench_gpu.sh does with the benchmark's model: the GPU code checked where
it can only be checked, before anything is timed.

    python scripts/bench_gpu_checks.py MODEL [--device cuda|cpu] > checks.json

- **graphs vs eager**: 16 prompts whose designed walks (scripts/bench_gpu_model.py) end at
  16 different steps, by end-of-sequence or by the stop string ".\\n\\n", decoded by the
  static decoder twice: steps replayed as CUDA graphs (on the CPU: the rehearsal's checked
  capture, capture_check.py) and steps called eagerly. The tokens must be identical, and
  the rows' ends make the decoder compact the batch and record the smaller shapes.
- **host syncs in MC**: the batched MC path on 64 questions under
  ``torch.cuda.set_sync_debug_mode("warn")``: how many times it waited for the GPU, and
  where (the Python lines). "error" would stop at the first; the count and the places say
  more. (No CUDA: not run.)
- **the attention kernel**: the kernels (CUDA) or operators (CPU) one decode step runs
  whose names say attention, from torch's profiler.

Prints one JSON object; exits 1 when a check fails (tokens differ, the steps were not
recorded as graphs, the rows did not end at different steps, a capture is refused).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

STOP = ("!\n\n", "Q:", ".\n\n")  # TruthfulQA-Multi's generation stop strings
BUDGET = 96
PROMPTS = 16


def walk_ends(successor: list[int], start: int, eos: int, period: int, limit: int) -> int | None:
    """The step (1-based) at which the designed walk after ``start`` ends: end-of-sequence,
    or the "\\n\\n" after "." (the stop string ".\\n\\n"); None beyond ``limit``."""
    token = start
    for step in range(1, limit + 1):
        following = successor[token]
        if following == eos:
            return step
        if token == period:
            return step  # "." then "\n\n": the stop string completes at this step
        token = following
    return None


def spread_prompts(model_dir: Path, tokenizer: Any, count: int, limit: int) -> list[list[int]]:
    """``count`` prompts (a question, then "A:" and one word) whose walks end at different
    steps within ``limit``, spread over it."""
    successor = json.loads((model_dir / "designed_successors.json").read_text())
    eos = tokenizer.eos_token_id
    period = tokenizer.convert_tokens_to_ids(".")
    by_end: dict[int, int] = {}
    for token in range(len(successor)):
        if successor[token] < 0 or not tokenizer.convert_ids_to_tokens(token).startswith("Ġ"):
            continue
        end = walk_ends(successor, token, eos, period, limit)
        if end is not None and end > 1:
            by_end.setdefault(end, token)
    if len(by_end) < count:
        raise SystemExit(f"only {len(by_end)} different walk ends within {limit} steps")
    ends = sorted(by_end)
    picked = [ends[round(i * (len(ends) - 1) / (count - 1))] for i in range(count)]
    head = tokenizer("Q: What happens if you crack your knuckles a lot?\nA:", add_special_tokens=False)["input_ids"]
    return [head + [by_end[end]] for end in picked]


def graphs_vs_eager(backend: Any, prompts: list[list[int]]) -> dict[str, Any]:
    from mlbench.backends.greedy_decode import GreedyPrompt
    from mlbench.backends.static_decode import StaticDecoder
    from mlbench.backends.step_graphs import eager

    requests = [GreedyPrompt(tokens, 0, BUDGET, STOP) for tokens in prompts]
    recorded = backend.decoder
    if not isinstance(recorded, StaticDecoder):
        return {"ok": False, "why": f"the backend decodes with {type(recorded).__name__}, not the static decoder"}
    plain = StaticDecoder(backend.model, backend.tokenizer, backend.device, None, backend._rows_per_batch, eager)
    started = time.perf_counter()
    ours = recorded.decode(requests)
    shapes = sorted({rows for rows, width in recorded.forwards if width == 1}, reverse=True)
    took = time.perf_counter() - started
    theirs = plain.decode(requests)
    lengths = [len(new) for new, _ in ours]
    same = [a == b for (a, _), (b, _) in zip(ours, theirs)]
    decoding = backend.decoding()
    # A pass needs the recorded path itself (a fallback to eager would compare eager with
    # eager) and rows ending at different steps (else no compaction, no smaller shape).
    wanted = "CUDA graphs" if backend.device.startswith("cuda") else "checked capture (CPU rehearsal)"
    problems = [
        *([] if all(same) else [f"{len(same) - sum(same)} rows differ"]),
        *([] if decoding.get("path") == wanted else [f"decoded by {decoding.get('path')}, not {wanted}"]),
        *([] if len(set(lengths)) > 1 and len(shapes) > 1 else ["the rows did not end at different steps"]),
    ]
    return {
        "ok": not problems,
        **({"why": "; ".join(problems)} if problems else {}),
        "rows_equal": f"{sum(same)}/{len(same)}",
        "new_tokens": lengths,
        "distinct_ends": len(set(lengths)),
        "step_shapes_rows": shapes,
        "decoding": decoding,
        "seconds": round(took, 2),
    }


def mc_syncs(backend: Any, tokenizer: Any) -> dict[str, Any]:
    import torch

    from mlbench.backends.packed_scoring import Question

    if not backend.device.startswith("cuda"):
        return {"ok": True, "run": False, "why": "no CUDA"}
    if backend.scorer is None or backend.scorer.batched is None:
        return {"ok": False, "why": "the backend does not batch MC questions"}
    generator = torch.Generator().manual_seed(0)
    vocab = len(tokenizer)
    shared = tokenizer("Q: What is the capital of France?\nA: Paris.\n\n", add_special_tokens=False)["input_ids"] * 8

    def words(n: int) -> list[int]:
        return torch.randint(1000, vocab, (n,), generator=generator).tolist()

    questions = [Question(shared + words(12), len(shared), [words(6 + k) for k in range(4)]) for _ in range(64)]
    backend.scorer.score(questions[:2])  # warm-up: the prefix cached, kernels loaded
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            backend.scorer.score(questions)
        finally:
            torch.cuda.set_sync_debug_mode(0)
    places = Counter(f"{Path(w.filename).name}:{w.lineno}" for w in caught if "synchroniz" in str(w.message))
    return {"ok": True, "run": True, "questions": len(questions), "syncs": sum(places.values()),
            "where": dict(places.most_common(8))}  # fmt: skip


def attention_kernels(backend: Any, prompt: list[int]) -> dict[str, Any]:
    import torch
    from torch.profiler import ProfilerActivity, profile

    from mlbench.backends.greedy_decode import GreedyPrompt
    from mlbench.backends.static_decode import StaticDecoder
    from mlbench.backends.step_graphs import eager

    decoder = StaticDecoder(backend.model, backend.tokenizer, backend.device, None, backend._rows_per_batch, eager)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if backend.device.startswith("cuda") else [])
    request = [GreedyPrompt(prompt, 0, 2, ())]
    decoder.decode(request)  # warm-up
    with profile(activities=activities) as profiled:
        decoder.decode(request)
    if backend.device.startswith("cuda"):
        torch.cuda.synchronize()
    names = Counter(
        event.name
        for event in profiled.events()
        if any(key in event.name.lower() for key in ("attention", "flash", "fmha", "sdpa", "cudnn", "mem_eff"))
    )
    return {"ok": True, "kernels": dict(names.most_common(12))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    from mlbench.backends.hf import HFBackend

    started = time.perf_counter()
    cpu = args.device == "cpu"
    backend = HFBackend(str(args.model), device=args.device, rehearse_gpu=cpu)
    loaded = round(time.perf_counter() - started, 2)
    prompts = spread_prompts(args.model, backend.tokenizer, PROMPTS, BUDGET)
    results: dict[str, Any] = {"device": args.device, "load_s": loaded}
    for name, check in (
        ("graphs_vs_eager", lambda: graphs_vs_eager(backend, prompts)),
        ("mc_host_syncs", lambda: mc_syncs(backend, backend.tokenizer)),
        ("attention", lambda: attention_kernels(backend, prompts[0])),
    ):
        try:
            results[name] = check()
        except Exception as error:  # noqa: BLE001 - every check reports, whatever failed
            results[name] = {"ok": False, "error": f"{type(error).__name__}: {str(error)[:400]}"}
    failed = [name for name, value in results.items() if isinstance(value, dict) and not value.get("ok")]
    results["failed"] = failed
    print(json.dumps(results, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
