#!/usr/bin/env python3
"""MC scoring speed, end to end as a user runs it: mlbench vs lm-eval 0.4.13.

    python scripts/bench_mc.py --data-dir ../shared/datasets --lm-eval-python VENV/bin/python \
        [--model bench:300] [--model gemma-3-270m:20] [--lang en] [--repeat 3] [--lm-eval-batch-size 8]

Each ``--model NAME[:QUESTIONS]`` is timed on the same TruthfulQA-Multi questions
(mlbench's seeded subset of QUESTIONS ids, as ``--limit`` takes it; 6-shot), float32 on the
CPU, each harness as one command with its start-up and model load included and no request
cache: ``python -m mlbench run --mode mc --no-cache`` and lm-eval running its own HiTZ tasks
``truthfulqa-multi_mc1/mc2_<lang>`` on a copy of the same questions. mlbench runs first, so
lm-eval finds the model already in the page cache. NAME ``bench`` is make_tiny_model.py's
bench-size random Llama (7.4M parameters), built in a temporary folder; a real-model kit
name (``gemma-3-270m``, ``SmolLM2-135M-Instruct``: ``make real-models``) is read from the
kit's folder; anything else is a model folder. Default: ``bench:300`` and, when the kit has
built it, ``gemma-3-270m:20``.

Prints each harness's wall time, questions per second and peak memory, the speed-up, and
whether the scores agree per question (MC1 equal, MC2 within 1e-4). ``--repeat N`` runs each
harness N times, alternating, and reports each one's median run: on a shared machine a
short run can be 20% slower than the one before it.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from parity_lm_eval import (
    LM_EVAL_FIELDS,
    Comparison,
    Measured,
    ParityError,
    compare,
    find_lm_eval_python,
    hitz_task_yamls,
    lm_eval_tasks_dir,
    merge,
    run_lm_eval,
    run_mlbench,
    write_subset,
)

KIT_MODELS = ("gemma-3-270m", "SmolLM2-135M-Instruct")
FEWSHOT = 6


@dataclass(frozen=True)
class ModelSpec:
    name: str
    questions: int


@dataclass(frozen=True)
class Result:
    spec: ModelSpec
    parameters: int
    mlbench_runs: list[Measured]
    lm_eval_runs: list[Measured]
    mc1: Comparison
    mc2: Comparison

    @property
    def mlbench(self) -> Measured:
        return median_run(self.mlbench_runs)

    @property
    def lm_eval(self) -> Measured:
        return median_run(self.lm_eval_runs)


def parse_model(text: str) -> ModelSpec:
    name, _, count = text.rpartition(":") if ":" in text else (text, "", "300")
    if not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"--model takes NAME[:QUESTIONS], not {text!r}")
    return ModelSpec(name, int(count))


def kit_folder() -> Path:
    from get_real_models import default_cache_dir  # scripts/ is on sys.path when run as a script

    return default_cache_dir()


def model_folder(name: str, work: Path) -> Path:
    if name == "bench":
        from make_tiny_model import make_tiny_model

        return make_tiny_model(work / "bench-model", size="bench", seed=0)
    if name in KIT_MODELS:
        folder = kit_folder() / name
        if not (folder / "config.json").is_file():
            raise ParityError(f"{name} is not built yet: make real-models")
        return folder
    return Path(name).expanduser().resolve()


def parameter_count(folder: Path) -> int:
    from safetensors import safe_open

    total = 0
    for path in folder.glob("*.safetensors"):
        with safe_open(str(path), "np") as tensors:
            total += sum(math.prod(tensors.get_slice(name).get_shape()) for name in tensors.keys())
    return total


def chosen_ids(data_dir: Path, lang: str, questions: int) -> set[str]:
    """The ids ``mlbench run --limit QUESTIONS`` scores (its seeded subset, seed 0)."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource, subset

    data = get_task("truthfulqa_multi").load(lang, TaskOptions(DataSource("local", data_dir)))
    return {sample.id for sample in subset(data.samples, questions, seed=0)}


def bench(spec: ModelSpec, args: argparse.Namespace, python: str, work: Path) -> Result:
    model = model_folder(spec.name, work)
    ids = chosen_ids(args.data_dir, args.lang, spec.questions)
    source = args.data_dir / "truthfulqa-multi" / args.lang
    ours_data, theirs_data = work / f"{spec.name}-data", work / f"{spec.name}-lm-eval-data"
    write_subset(source, ours_data / "truthfulqa-multi" / args.lang, ids)
    write_subset(source, theirs_data / "truthfulqa-multi" / args.lang, ids, LM_EVAL_FIELDS)
    ours_runs: list[Measured] = []
    theirs_runs: list[Measured] = []
    for attempt in range(args.repeat):
        # Alternating, so that a slow spell of a shared machine falls on both.
        print(f"== {spec.name}: {len(ids)} {args.lang} questions, run {attempt + 1}/{args.repeat}: mlbench, lm-eval")
        ours, measured = run_mlbench(str(model), ours_data, [args.lang], work / f"{spec.name}-out", fewshot=FEWSHOT)
        ours_runs.append(measured)
        yamls = hitz_task_yamls(lm_eval_tasks_dir(python), theirs_data, [args.lang])
        per_task, measured = run_lm_eval(
            python,
            str(model),
            yamls,
            work / f"{spec.name}-lm-eval",
            num_fewshot=FEWSHOT,
            batch_size=args.lm_eval_batch_size,
        )
        theirs_runs.append(measured)
    theirs = merge(per_task[f"hitz_mc1_{args.lang}"], per_task[f"hitz_mc2_{args.lang}"])
    mc1, mc2 = (compare(m, ours[args.lang].scores[m], theirs.scores[m]) for m in ("mc1", "mc2"))
    return Result(spec, parameter_count(model), ours_runs, theirs_runs, mc1, mc2)


def median_run(runs: list[Measured]) -> Measured:
    """The run of median wall time (the upper one of an even count)."""
    return sorted(runs, key=lambda run: run.seconds)[len(runs) // 2]


def print_results(results: list[Result], args: argparse.Namespace) -> None:
    print()
    print(
        f"TruthfulQA-Multi MC ({args.lang}, {FEWSHOT}-shot), float32 on the CPU; lm-eval 0.4.13 batch size "
        f"{args.lm_eval_batch_size}; each harness one command, start-up and model load included"
        + (f"; the median of {args.repeat} alternating runs each" if args.repeat > 1 else "")
    )
    head = f"{'model':<30}{'questions':>10}  {'harness':<8}{'seconds':>9}{'questions/s':>13}{'peak MiB':>10}"
    print(head)
    print("-" * len(head))
    for r in results:
        label = f"{r.spec.name} ({r.parameters / 1e6:.1f}M params)"
        for name, runs in (("lm-eval", r.lm_eval_runs), ("mlbench", r.mlbench_runs)):
            run = median_run(runs)
            spread = f"  (runs: {', '.join(f'{x.seconds:.1f}' for x in runs)} s)" if len(runs) > 1 else ""
            print(
                f"{label:<30}{r.mc1.n:>10}  {name:<8}{run.seconds:>9.1f}{r.mc1.n / run.seconds:>13.2f}"
                f"{run.peak_mib:>10.0f}{spread}"
            )
            label = ""
        agree = "OK" if r.mc1.verdict == r.mc2.verdict == "OK" else "MISMATCH"
        print(
            f"{'':<42}→ {r.lm_eval.seconds / r.mlbench.seconds:.1f}x faster, "
            f"{r.mlbench.peak_mib / r.lm_eval.peak_mib:.2f}x the peak memory; per question "
            f"max |MC1 diff| {r.mc1.max_diff:.1e}, max |MC2 diff| {r.mc2.max_diff:.1e}"
            + (f" ({r.mc2.nan} nan in lm-eval)" if r.mc2.nan else "")
            + f": {agree}"
        )


def bench_parser(prog: str, description: str, default_models: str) -> argparse.ArgumentParser:
    """The options every speed benchmark against lm-eval takes (bench_mc, bench_gen)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--data-dir", type=Path, required=True, help="local datasets: truthfulqa-multi/<lang>/{train,validation}.json"
    )
    parser.add_argument(
        "--model",
        type=parse_model,
        action="append",
        default=None,
        help=f"NAME[:QUESTIONS], repeatable (default: {default_models})",
    )
    parser.add_argument("--lang", default="en")
    parser.add_argument(
        "--lm-eval-python",
        default=None,
        help="python of a venv with lm-eval 0.4.13 (default: this one, if lm_eval imports)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each harness this many times, alternating, and report each one's median run (default 1)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser("bench_mc", __doc__.splitlines()[0], "bench:300 and, if built, gemma-3-270m:20")
    parser.add_argument(
        "--lm-eval-batch-size",
        type=int,
        default=8,
        help="lm-eval's batch size (default 8: its fastest on 2 CPU cores of 1, 8 and 32)",
    )
    args = parser.parse_args(argv)
    args.data_dir = args.data_dir.expanduser().resolve()
    specs = args.model or [ModelSpec("bench", 300)]
    if args.model is None and (kit_folder() / "gemma-3-270m" / "config.json").is_file():
        specs.append(ModelSpec("gemma-3-270m", 20))
    try:
        python = find_lm_eval_python(args.lm_eval_python)
        with tempfile.TemporaryDirectory(prefix="bench_mc-") as tmp:
            results = [bench(spec, args, python, Path(tmp)) for spec in specs]
    except ParityError as error:
        print(f"bench_mc: error: {error}", file=sys.stderr)
        return 2
    print_results(results, args)
    return 0 if all(r.mc1.verdict == r.mc2.verdict == "OK" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
