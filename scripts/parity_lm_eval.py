#!/usr/bin/env python3
"""Per-sample MC1/MC2 parity with lm-eval 0.4.13's truthfulqa_mc1 / truthfulqa_mc2.

    pip install 'lm-eval[hf]==0.4.13'  # not an mlbench dependency; a separate venv is fine
    python scripts/parity_lm_eval.py --model DIR --data-dir ../shared/datasets [--limit 100] \
        [--lm-eval-python VENV/bin/python]

Both harnesses score the first N English TruthfulQA-Multi questions with the same model
(HF backend, float32, CPU). lm-eval's own task YAMLs are used, pointed at the local JSON
instead of the hub; the English primer of TruthfulQA-Multi is lm-eval's primer, so the
prompts are the same by construction. Prints the largest per-sample difference.

The pieces (running each harness as a subprocess, comparing per question, explaining a
mismatch) are shared with ``scripts/validate_real.py``, which checks all five languages
against lm-eval's HiTZ ``truthfulqa-multi_mc{1,2}_<lang>`` tasks, and with
``scripts/parity_okapi.py``, which checks the declared ``m_truthfulqa`` against lm-eval's
Okapi ``truthfulqa_<lang>_mc{1,2}`` tasks.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

METRICS = ("mc1", "mc2")
# Children never wait on hub timeouts: every model and data file here is local. Nothing
# else is changed: each harness runs as a user would run it.
OFFLINE_ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}

# English tasks: lm-eval's truthfulqa_mc1 (its primer is TruthfulQA-Multi's English train
# split), on our JSON. Its mc2 YAML names process_results by a path relative to itself,
# so the copy here re-exports it.
ENGLISH_TASK_YAML = """\
include: {lm_eval_tasks}/truthfulqa/truthfulqa_mc1.yaml
task: parity_truthfulqa_{metric}
tag: []
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    validation: {validation}
"""
ENGLISH_MC2_EXTRA = """\
doc_to_choice: "{{mc2_targets.choices}}"
process_results: !function parity_utils.process_results_mc2
"""

# lm-eval's own HiTZ tasks (hub dataset HiTZ/truthfulqa-multi; metric mc1, mc2 or gen), on
# a local copy instead, under the task name ``name``.
HITZ_TASK_YAML = """\
include: {tasks_dir}/truthfulqa-multi/truthfulqa-multi_{metric}_{lang}.yaml
task: {name}
tag: []
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    train: {lang_dir}/train.json
    validation: {lang_dir}/validation.json
"""


def gen_task_yaml(tasks_dir: Path, lang: str, lang_dir: Path) -> str:
    """lm-eval's ``truthfulqa-multi_gen_<lang>`` on ``lang_dir``, under its own name (the
    local YAML overrides the installed one), so that its logs name the task as a run from
    the hub would and `mlbench import lm-eval` reads them as such."""
    return HITZ_TASK_YAML.format(
        tasks_dir=tasks_dir, metric="gen", lang=lang, name=f"truthfulqa-multi_gen_{lang}", lang_dir=lang_dir
    )


def hitz_task_yamls(tasks_dir: Path, data_root: Path, langs: list[str]) -> dict[str, str]:
    """The HiTZ MC1 and MC2 tasks of ``langs`` on ``data_root/truthfulqa-multi/<lang>/``,
    by task name (``hitz_mc1_en``, ...)."""
    return {
        f"hitz_{metric}_{lang}": HITZ_TASK_YAML.format(
            tasks_dir=tasks_dir,
            metric=metric,
            lang=lang,
            name=f"hitz_{metric}_{lang}",
            lang_dir=data_root / "truthfulqa-multi" / lang,
        )
        for lang in langs
        for metric in METRICS
    }


# Runs inside the lm-eval interpreter: simple_evaluate, then per task and question id the
# score, the context of the first option and every option's log-likelihood.
LM_EVAL_DRIVER = """\
import json, sys
import lm_eval
from lm_eval.tasks import TaskManager

args = json.loads(sys.argv[1])
result = lm_eval.simple_evaluate(
    model="hf",
    model_args=args["model_args"],
    tasks=args["tasks"],
    task_manager=TaskManager(include_path=args["include_path"]),
    num_fewshot=args["num_fewshot"],
    batch_size=args["batch_size"],
    log_samples=True,
)
out = {}
for task, rows in result["samples"].items():
    out[task] = {
        str(row["doc"].get("id", row["doc_id"])): {  # Okapi's rows have no id: their place
            "acc": float(row["acc"]),
            "context": row["arguments"][0][0],
            "options": [row_args[1] for row_args in row["arguments"]],
            "loglikelihoods": [float(resp[0]) for resp in row["filtered_resps"]],
        }
        for row in rows
    }
with open(args["output"], "w", encoding="utf-8") as handle:
    json.dump(out, handle, ensure_ascii=False)
"""


class ParityError(Exception):
    """A setup problem worth one line (no lm-eval, a harness that failed)."""


@dataclass(frozen=True)
class Measured:
    """One harness run as a user runs it: wall time from start to exit, and the process's
    peak resident memory."""

    seconds: float
    peak_mib: float


def run_measured(command: list[str], what: str) -> Measured:
    """Run ``command`` (offline); its own peak memory comes from wait4 on that process."""
    start = time.monotonic()
    process = subprocess.Popen(command, env=OFFLINE_ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = code = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    seconds = time.monotonic() - start
    if code != 0:
        raise ParityError(f"{what} failed (exit code {code}); its output is above")
    return Measured(seconds, usage.ru_maxrss / 1024)


@dataclass(frozen=True)
class Scored:
    """One harness's results for one language (mlbench) or one task (lm-eval), by id."""

    scores: dict[str, dict[str, float]]  # metric -> id -> value
    prompts: dict[str, str]  # id -> context before the options
    loglikelihoods: dict[str, dict[str, list[float]]]  # metric -> id -> per option


@dataclass(frozen=True)
class Comparison:
    metric: str
    n: int  # questions compared
    nan: int  # questions lm-eval scored nan (raw exp() underflow), left out
    mean_ours: float
    mean_theirs: float
    max_diff: float
    worst: list[str]  # ids over the tolerance, worst first
    tolerance: float

    @property
    def verdict(self) -> str:
        return "OK" if self.n and self.max_diff <= self.tolerance else "MISMATCH"


def compare(metric: str, ours: dict[str, float], theirs: dict[str, float], tolerance: float = 1e-4) -> Comparison:
    if ours.keys() != theirs.keys():
        only = sorted(ours.keys() ^ theirs.keys(), key=int)[:10]
        raise ParityError(f"{metric}: the harnesses scored different question ids (e.g. {', '.join(only)})")
    # lm-eval computes MC2 with raw exp(): all-underflowing options give 0/0 = nan there,
    # where mlbench's log-space MC2 stays exact. Those questions are counted, not compared.
    nan_ids = {i for i, value in theirs.items() if math.isnan(value)}
    compared = [i for i in ours if i not in nan_ids]
    diffs = {i: abs(ours[i] - theirs[i]) for i in compared}
    n = len(compared)
    return Comparison(
        metric=metric,
        n=n,
        nan=len(nan_ids),
        mean_ours=sum(ours[i] for i in compared) / n if n else math.nan,
        mean_theirs=sum(theirs[i] for i in compared) / n if n else math.nan,
        max_diff=max(diffs.values(), default=0.0),
        worst=sorted((i for i in compared if diffs[i] > tolerance), key=lambda i: -diffs[i]),
        tolerance=tolerance,
    )


@dataclass(frozen=True)
class InputCheck:
    """What the metrics can hide: a different prompt can still give an MC2 within 1e-4."""

    prompt_diff: list[str]  # ids whose context before the options differs
    max_ll_diff: float  # largest per-option log-likelihood difference, same-prompt questions


def check_inputs(ours: Scored, theirs: Scored) -> InputCheck:
    differ = sorted((i for i in ours.prompts if ours.prompts[i] != theirs.prompts[i]), key=int)
    diffs = [
        abs(a - b)
        for metric in theirs.loglikelihoods
        for i, options in ours.loglikelihoods[metric].items()
        if i not in differ
        for a, b in zip(options, theirs.loglikelihoods[metric][i], strict=True)
    ]
    return InputCheck(differ, max(diffs, default=0.0))


def explain_mismatch(qid: str, metric: str, ours: Scored, theirs: Scored, tokenizer=None) -> str:
    """Why one question differs: the first character where the prompts part, else the
    options whose log-likelihoods differ (and, given a tokenizer, the differing tokens)."""
    mine, other = ours.prompts[qid], theirs.prompts[qid]
    if mine != other:
        at = next((k for k, (a, b) in enumerate(zip(mine, other)) if a != b), min(len(mine), len(other)))
        lines = [
            f"id {qid}: prompts differ at character {at} of {len(mine)} (mlbench) / {len(other)} (lm-eval):",
            f"    mlbench: …{mine[max(0, at - 40) : at + 20]!r}",
            f"    lm-eval: …{other[max(0, at - 40) : at + 20]!r}",
        ]
        if tokenizer is not None:
            a, b = tokenizer(mine)["input_ids"], tokenizer(other)["input_ids"]
            k = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            lines.append(
                f"    tokens part at {k}: mlbench {tokenizer.convert_ids_to_tokens(a[k : k + 4])} "
                f"vs lm-eval {tokenizer.convert_ids_to_tokens(b[k : k + 4])}"
            )
        return "\n".join(lines)
    a, b = ours.loglikelihoods[metric][qid], theirs.loglikelihoods[metric][qid]
    parts = [f"option {k}: {x:.5f} vs {y:.5f}" for k, (x, y) in enumerate(zip(a, b)) if abs(x - y) > 1e-4]
    return f"id {qid}: same prompt; option log-likelihoods differ: " + ("; ".join(parts) or "none over 1e-4")


# ---------------------------------------------------------------- lm-eval


def find_lm_eval_python(given: str | None) -> str:
    """The interpreter that runs lm-eval: ``given``, else this one when lm_eval imports."""
    python = given or sys.executable
    # Its HF model needs the [hf] extra (accelerate): a bare `pip install lm-eval` imports
    # but fails at the first model.
    code = "import lm_eval, lm_eval.models.huggingface; print(lm_eval.__version__)"
    probe = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if probe.returncode != 0:
        where = f"--lm-eval-python {given}" if given else "this interpreter"
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        raise ParityError(
            f"lm-eval's HF model does not import with {where} ({last}): make a venv with "
            "`pip install 'lm-eval[hf]==0.4.13'` and mlbench, and pass its python as --lm-eval-python"
        )
    version = probe.stdout.strip()
    if version != "0.4.13":
        print(f"note: lm-eval {version}, the parity was established against 0.4.13", file=sys.stderr)
    return python


def lm_eval_tasks_dir(python: str) -> Path:
    code = "import lm_eval, pathlib; print(pathlib.Path(lm_eval.__file__).parent / 'tasks')"
    return Path(subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip())


def run_lm_eval(
    python: str, model: str, task_yamls: dict[str, str], workdir: Path, *, num_fewshot: int | None, batch_size: int
) -> tuple[dict[str, Scored], Measured]:
    """Write the task YAMLs into ``workdir`` and run lm-eval on them in ``python``
    (float32, CPU). Returns per task the per-question results, and the run's time and memory."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "parity_utils.py").write_text(
        "from lm_eval.tasks.truthfulqa.utils import process_results_mc2  # noqa: F401\n"
    )
    for task, text in task_yamls.items():
        (workdir / f"{task}.yaml").write_text(text, encoding="utf-8")
    output = workdir / "lm_eval_samples.json"
    args = {
        "model_args": {"pretrained": model, "dtype": "float32", "device": "cpu"},
        "tasks": list(task_yamls),
        "include_path": str(workdir),
        "num_fewshot": num_fewshot,
        "batch_size": batch_size,
        "output": str(output),
    }
    measured = run_measured([python, "-c", LM_EVAL_DRIVER, json.dumps(args)], "lm-eval")
    rows = json.loads(output.read_text(encoding="utf-8"))
    return {task: _lm_eval_scored(rows[task], task) for task in task_yamls}, measured


def _lm_eval_scored(rows: dict[str, dict], task: str) -> Scored:
    metric = "mc2" if "mc2" in task else "mc1"
    return Scored(
        scores={metric: {i: r["acc"] for i, r in rows.items()}},
        prompts={i: r["context"] for i, r in rows.items()},
        loglikelihoods={metric: {i: r["loglikelihoods"] for i, r in rows.items()}},
    )


def merge(mc1: Scored, mc2: Scored) -> Scored:
    """lm-eval's two tasks of one language as one result (mc1's prompts: the primers agree)."""
    return Scored({**mc1.scores, **mc2.scores}, mc1.prompts, {**mc1.loglikelihoods, **mc2.loglikelihoods})


# ---------------------------------------------------------------- mlbench


def run_mlbench(
    model: str,
    data_dir: Path,
    langs: list[str],
    out: Path,
    *,
    limit: int | None = None,
    seed: int | None = None,
    fewshot: int | None = None,
    task: str = "truthfulqa_multi",
) -> tuple[dict[str, Scored], Measured]:
    """``python -m mlbench run`` (MC, HF backend, float32, CPU, no request cache) on
    ``data_dir``; returns per language the per-question results, and the run's time and memory."""
    from mlbench.results import model_slug, read_samples

    command = [
        sys.executable,
        "-m",
        "mlbench",
        "run",
        "--model",
        model,
        "--task",
        task,
        "--lang",
        ",".join(langs),
        "--mode",
        "mc",
        "--data-dir",
        str(data_dir),
        "--backend",
        "hf",
        "--dtype",
        "float32",
        "-M",
        "device=cpu",
        "--no-cache",
        "--output",
        str(out),
        "--overwrite",  # bench_mc.py times repeated runs into the same folder: each one from scratch
    ]
    command += ["--limit", str(limit)] if limit else []
    command += ["--seed", str(seed)] if seed is not None else []
    command += ["--fewshot", str(fewshot)] if fewshot is not None else []
    measured = run_measured(command, "mlbench run")
    scored = {}
    for lang in langs:
        records = read_samples(out / model_slug(model) / task / f"samples_{lang}.jsonl")
        scored[lang] = Scored(
            scores={m: {i: r.metrics[m] for i, r in records.items()} for m in METRICS},
            prompts={i: r.prompt for i, r in records.items()},
            loglikelihoods={m: {i: r.outputs[f"{m}_loglikelihoods"] for i, r in records.items()} for m in METRICS},
        )
    return scored, measured


# What lm-eval's MC tasks read of a row. Its JSON loader infers one schema across the
# train and validation files and fails on columns it cannot reconcile, so its copies keep
# only these.
LM_EVAL_FIELDS = ("id", "question", "mc1_targets", "mc2_targets")


def write_subset(source: Path, target: Path, keep: set[str] | int, fields: tuple[str, ...] | None = None) -> None:
    """Copy a language folder with only some validation rows (the ids in ``keep``, or the
    first ``keep`` rows) and, given ``fields``, only those fields of every row."""
    target.mkdir(parents=True, exist_ok=True)
    for split in ("train", "validation"):
        rows = json.loads((source / f"{split}.json").read_text(encoding="utf-8"))
        if split == "validation":
            rows = rows[:keep] if isinstance(keep, int) else [r for r in rows if str(r["id"]) in keep]
        if fields is not None:
            rows = [{k: r[k] for k in fields} for r in rows]
        (target / f"{split}.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")


def print_comparison(c: Comparison, label: str = "") -> None:
    print(
        f"{label}{c.metric}: n={c.n} mlbench={c.mean_ours:.6f} lm-eval={c.mean_theirs:.6f} "
        f"max |diff| per sample={c.max_diff:.2e} -> {c.verdict}"
        + (f" ({c.nan} samples nan in lm-eval: underflow)" if c.nan else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=100, help="the first N English questions")
    parser.add_argument(
        "--lm-eval-python",
        default=None,
        help="python of a venv with lm-eval 0.4.13 (default: this one, if lm_eval imports)",
    )
    parser.add_argument("--batch-size", type=int, default=8, help="lm-eval's batch size")
    args = parser.parse_args()
    try:
        python = find_lm_eval_python(args.lm_eval_python)
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            lang_dir = root / "truthfulqa-multi" / "en"
            write_subset(args.data_dir / "truthfulqa-multi" / "en", lang_dir, args.limit)
            ours, _ = run_mlbench(args.model, root, ["en"], root / "out")
            lm_eval_dir = root / "lm-eval-data" / "en"
            write_subset(lang_dir, lm_eval_dir, args.limit, LM_EVAL_FIELDS)
            tasks_dir = lm_eval_tasks_dir(python)
            yamls = {
                f"parity_truthfulqa_{m}": ENGLISH_TASK_YAML.format(
                    lm_eval_tasks=tasks_dir, metric=m, validation=lm_eval_dir / "validation.json"
                )
                + (ENGLISH_MC2_EXTRA if m == "mc2" else "")
                for m in METRICS
            }
            theirs, _ = run_lm_eval(
                python, args.model, yamls, root / "lm_eval", num_fewshot=None, batch_size=args.batch_size
            )
    except ParityError as error:
        sys.exit(f"parity_lm_eval: error: {error}")
    theirs_en = merge(theirs["parity_truthfulqa_mc1"], theirs["parity_truthfulqa_mc2"])
    for m in METRICS:
        print_comparison(compare(m, ours["en"].scores[m], theirs_en.scores[m]))
    inputs = check_inputs(ours["en"], theirs_en)
    print(
        f"prompts that differ: {len(inputs.prompt_diff)} {inputs.prompt_diff[:10]}; "
        f"max |diff| per option log-likelihood (same prompts): {inputs.max_ll_diff:.2e}"
    )


if __name__ == "__main__":
    main()
