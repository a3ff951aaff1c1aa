#!/usr/bin/env python3
"""Per-sample MC1/MC2 parity with lm-eval 0.4.13's truthfulqa_mc1 / truthfulqa_mc2.

    pip install lm-eval==0.4.13        # not an mlbench dependency; a separate venv is fine
    python scripts/parity_lm_eval.py --model DIR --data-dir ../shared/datasets [--limit 100]

Both harnesses score the first N English TruthfulQA-Multi questions with the same model
(HF backend, float32). lm-eval's own task YAMLs are used, pointed at the local JSON
instead of the hub; the English primer of TruthfulQA-Multi is lm-eval's primer, so the
prompts are the same by construction. Prints the largest per-sample difference.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from pathlib import Path

TASK_YAML = """\
include: {lm_eval_tasks}/truthfulqa/truthfulqa_mc1.yaml
task: parity_truthfulqa_{metric}
tag: []
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    validation: {data_file}
"""
MC2_EXTRA = """\
doc_to_choice: "{{mc2_targets.choices}}"
process_results: !function parity_utils.process_results_mc2
"""


def run_lm_eval(model: str, data_file: Path, workdir: Path) -> dict[str, dict[int, float]]:
    import lm_eval
    from lm_eval.tasks import TaskManager

    tasks_dir = Path(lm_eval.__file__).parent / "tasks"
    (workdir / "parity_utils.py").write_text(
        "from lm_eval.tasks.truthfulqa.utils import process_results_mc2  # noqa: F401\n"
    )
    for metric in ("mc1", "mc2"):
        text = TASK_YAML.format(lm_eval_tasks=tasks_dir, metric=metric, data_file=data_file)
        (workdir / f"parity_{metric}.yaml").write_text(text + (MC2_EXTRA if metric == "mc2" else ""))
    result = lm_eval.simple_evaluate(
        model="hf",
        model_args={"pretrained": model, "dtype": "float32", "device": "cpu"},
        tasks=["parity_truthfulqa_mc1", "parity_truthfulqa_mc2"],
        task_manager=TaskManager(include_path=str(workdir)),
        batch_size=8,
        log_samples=True,
    )
    per_sample: dict[str, dict[int, float]] = {}
    for metric in ("mc1", "mc2"):
        rows = result["samples"][f"parity_truthfulqa_{metric}"]
        per_sample[metric] = {int(r["doc"]["id"]): float(r["acc"]) for r in rows}
    return per_sample


def run_mlbench(model: str, data_root: Path, out: Path) -> dict[str, dict[int, float]]:
    from mlbench.backends.registry import ModelOptions
    from mlbench.loaders.source import DataSource
    from mlbench.pipeline import RunConfig, run
    from mlbench.results import model_slug, read_samples
    from mlbench.tasks.base import TaskOptions

    config = RunConfig(
        model=ModelOptions(model=model, dtype="float32", device="cpu"),
        tasks=("truthfulqa_multi",),
        langs=("en",),
        mode="mc",
        task_options=TaskOptions(DataSource("local", data_root)),
        output=out,
    )
    run(config)
    records = read_samples(out / model_slug(model) / "truthfulqa_multi" / "samples_en.jsonl")
    return {m: {int(i): r["metrics"][m] for i, r in records.items()} for m in ("mc1", "mc2")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    source = args.data_dir / "truthfulqa-multi" / "en"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lang_dir = root / "truthfulqa-multi" / "en"
        lang_dir.mkdir(parents=True)
        rows = json.loads((source / "validation.json").read_text(encoding="utf-8"))[: args.limit]
        (lang_dir / "validation.json").write_text(json.dumps(rows, ensure_ascii=False))
        (lang_dir / "train.json").write_text((source / "train.json").read_text(encoding="utf-8"))
        ours = run_mlbench(args.model, root, root / "out")
        theirs = run_lm_eval(args.model, lang_dir / "validation.json", root)
    for metric in ("mc1", "mc2"):
        assert ours[metric].keys() == theirs[metric].keys(), f"{metric}: different question ids"
        # lm-eval computes MC2 with raw exp(): all-underflowing options give 0/0 = nan there,
        # where mlbench's log-space MC2 stays exact. Those samples are counted, not compared.
        nan_ids = [i for i, v in theirs[metric].items() if math.isnan(v)]
        compared = [i for i in ours[metric] if i not in nan_ids]
        diffs = [abs(ours[metric][i] - theirs[metric][i]) for i in compared]
        mean_ours = sum(ours[metric][i] for i in compared) / len(compared)
        mean_theirs = sum(theirs[metric][i] for i in compared) / len(compared)
        verdict = "OK" if max(diffs) <= 1e-4 else "MISMATCH"
        print(
            f"{metric}: n={len(compared)} mlbench={mean_ours:.6f} lm-eval={mean_theirs:.6f} "
            f"max |diff| per sample={max(diffs):.2e} -> {verdict}"
            + (f" ({len(nan_ids)} samples nan in lm-eval: underflow)" if nan_ids else "")
        )


if __name__ == "__main__":
    main()
