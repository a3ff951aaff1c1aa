#!/usr/bin/env python3
"""mlbench vs lm-eval 0.4.13 on a real model, per question, in all five TruthfulQA-Multi languages.

    make real-models                     # builds ~/.cache/mlbench/models/gemma-3-270m once
    python scripts/validate_real.py --data-dir ../shared/datasets \
        [--lm-eval-python /work/venvs/lmeval/bin/python] [--limit 20 | --limit all | --ids 248,393]

mlbench runs through its CLI (MC, 6-shot, --limit N: a seeded random subset of ids, the
same in every language). lm-eval then scores exactly those questions with its own HiTZ
tasks ``truthfulqa-multi_mc1_<lang>`` / ``truthfulqa-multi_mc2_<lang>``, pointed at a copy
of the same local JSON that holds only those rows (``--num_fewshot 6``; its ``first_n``
sampler takes the six train pairs, whose MC1 and MC2 first choices equal ``best_answer``,
which this script checks, so both tasks see mlbench's primer). Both run float32 on CPU.

Per language it prints n, both harnesses' MC1/MC2 means, the largest per-question
difference and OK/MISMATCH against --tolerance (1e-4); questions lm-eval scores nan (MC2
with raw exp() underflows) are counted, not compared. A mismatch is explained per question
(where the prompts part, which tokens, or which option log-likelihoods differ); a question
whose prompt text differs is a mismatch even when its MC2 lands within the tolerance. Exit code
0 when every language is OK, 1 on a mismatch, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from parity_lm_eval import (
    LM_EVAL_FIELDS,
    METRICS,
    Comparison,
    InputCheck,
    ParityError,
    Scored,
    check_inputs,
    compare,
    explain_mismatch,
    find_lm_eval_python,
    hitz_task_yamls,
    lm_eval_tasks_dir,
    merge,
    run_lm_eval,
    run_mlbench,
    write_subset,
)

LANGS = ("en", "es", "ca", "gl", "eu")


def default_model() -> Path:
    models = os.environ.get("MLBENCH_MODELS_DIR") or Path.home() / ".cache" / "mlbench" / "models"
    return Path(models) / "gemma-3-270m"


def parse_limit(text: str) -> int | None:
    """``0`` or ``all`` → every question (None); else a positive count."""
    if text.lower() in ("0", "all"):
        return None
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"--limit takes a count, 0 or all, not {text!r}")
    return int(text)


def check_primer(data_dir: Path, lang: str) -> None:
    """lm-eval renders a few-shot answer as the task's first choice (mc1_targets for the
    mc1 task, mc2_targets for mc2), mlbench as best_answer: the same text, or the
    comparison would be of two different prompts."""
    for row in json.loads((data_dir / "truthfulqa-multi" / lang / "train.json").read_text(encoding="utf-8")):
        answers = {row["best_answer"], row["mc1_targets"]["choices"][0], row["mc2_targets"]["choices"][0]}
        if len(answers) != 1:
            raise ParityError(
                f"{lang} train row {row['id']}: best_answer and the first MC1/MC2 choices differ, "
                "so lm-eval's primer is not mlbench's"
            )


def load_tokenizer(model: Path):
    """The model's tokenizer, to name the tokens where two prompts part (optional)."""
    try:
        os.environ["HF_HUB_OFFLINE"] = "1"
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(model)
    except Exception:  # noqa: BLE001 - a diagnosis aid only
        return None


Row = tuple[str, Comparison, Comparison, InputCheck]


def verdict(row: Row) -> str:
    _, mc1, mc2, inputs = row
    return "OK" if mc1.verdict == mc2.verdict == "OK" and not inputs.prompt_diff else "MISMATCH"


def print_table(rows: list[Row], seconds: dict[str, float]) -> None:
    head = (
        f"{'lang':<5}{'n':>5}  {'mlbench MC1':>11} {'lm-eval MC1':>11} {'max|d| MC1':>10}  "
        f"{'mlbench MC2':>11} {'lm-eval MC2':>11} {'max|d| MC2':>10} {'nan':>4} "
        f"{'prompts≠':>8} {'max|d| ll':>9}  verdict"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        lang, mc1, mc2, inputs = row
        print(
            f"{lang:<5}{mc1.n:>5}  {mc1.mean_ours:>11.6f} {mc1.mean_theirs:>11.6f} {mc1.max_diff:>10.2e}  "
            f"{mc2.mean_ours:>11.6f} {mc2.mean_theirs:>11.6f} {mc2.max_diff:>10.2e} {mc2.nan:>4} "
            f"{len(inputs.prompt_diff):>8} {inputs.max_ll_diff:>9.2e}  {verdict(row)}"
        )
    print(
        f"wall time: mlbench {seconds['mlbench']:.0f} s, lm-eval {seconds['lm-eval']:.0f} s "
        "(each including its model load)"
    )
    print(
        "max|d|: largest per-question difference; nan: questions lm-eval's MC2 underflows (not compared); "
        "prompts≠: questions whose prompt text differs; max|d| ll: largest per-option log-likelihood "
        "difference over same-prompt questions"
    )


def validate(args: argparse.Namespace, work: Path) -> int:
    python = find_lm_eval_python(args.lm_eval_python)
    if not (args.model / "config.json").is_file():
        raise ParityError(f"no model at {args.model}: run `make real-models` (or pass --model DIR)")
    for lang in args.langs:
        check_primer(args.data_dir, lang)
    model = str(args.model)

    # mlbench picks the questions (--limit: its seeded subset); with --ids both harnesses
    # get a copy of the data holding only those rows.
    mlbench_data = args.data_dir
    if args.ids:
        mlbench_data = work / "data-ids"
        for lang in args.langs:
            write_subset(args.data_dir / "truthfulqa-multi" / lang, mlbench_data / "truthfulqa-multi" / lang, args.ids)
    ours, mlbench_run = run_mlbench(
        model,
        mlbench_data,
        list(args.langs),
        work / "mlbench",
        limit=None if args.ids else args.limit,
        seed=args.seed,
        fewshot=args.fewshot,
    )

    for lang in args.langs:
        lang_dir = work / "data-lm-eval" / "truthfulqa-multi" / lang
        write_subset(args.data_dir / "truthfulqa-multi" / lang, lang_dir, set(ours[lang].scores["mc1"]), LM_EVAL_FIELDS)
    yamls = hitz_task_yamls(lm_eval_tasks_dir(python), work / "data-lm-eval", list(args.langs))
    per_task, lm_eval_run = run_lm_eval(
        python, model, yamls, work / "lm-eval", num_fewshot=args.fewshot, batch_size=args.batch_size
    )

    rows: list[Row] = []
    explanations: list[str] = []
    tokenizer = None
    for lang in args.langs:
        theirs: Scored = merge(per_task[f"hitz_mc1_{lang}"], per_task[f"hitz_mc2_{lang}"])
        mc1, mc2 = (compare(m, ours[lang].scores[m], theirs.scores[m], args.tolerance) for m in METRICS)
        inputs = check_inputs(ours[lang], theirs)
        rows.append((lang, mc1, mc2, inputs))
        # Every question that differs, by prompt or beyond the tolerance, is explained.
        suspects = dict.fromkeys([*inputs.prompt_diff, *mc1.worst, *mc2.worst])
        if suspects and tokenizer is None:
            tokenizer = load_tokenizer(args.model)
        for qid in list(suspects)[:10]:
            metric = "mc1" if qid in mc1.worst else "mc2"
            explanations.append(f"{lang} " + explain_mismatch(qid, metric, ours[lang], theirs, tokenizer))
        if len(suspects) > 10:
            explanations.append(f"{lang}: … and {len(suspects) - 10} more ids: " + ", ".join(list(suspects)[10:]))
    print()
    print_table(rows, {"mlbench": mlbench_run.seconds, "lm-eval": lm_eval_run.seconds})
    for line in explanations:
        print(line)
    return 0 if all(verdict(row) == "OK" for row in rows) else 1


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="validate_real", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model",
        type=Path,
        default=default_model(),
        help="converted model folder (default: $MLBENCH_MODELS_DIR or ~/.cache/mlbench/models, gemma-3-270m)",
    )
    parser.add_argument(
        "--data-dir", type=Path, required=True, help="local datasets: truthfulqa-multi/<lang>/{train,validation}.json"
    )
    parser.add_argument("--langs", default=",".join(LANGS), help="comma list (default: all five)")
    parser.add_argument(
        "--limit",
        type=parse_limit,
        default=20,
        help="questions per language, mlbench's seeded subset; 0 or all = all 817 (default 20)",
    )
    parser.add_argument("--seed", type=int, default=None, help="mlbench's --seed for the subset")
    parser.add_argument("--ids", default=None, help="score exactly these question ids (comma list) instead")
    parser.add_argument("--fewshot", type=int, default=6)
    parser.add_argument(
        "--lm-eval-python",
        default=None,
        help="python of a venv with lm-eval 0.4.13 (default: this one, if lm_eval imports)",
    )
    parser.add_argument(
        "--batch-size",
        type=int,
        default=4,
        help="lm-eval's batch size (default 4: with a 262k vocabulary every sequence's logits take ~1 GB in float32)",
    )
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--keep", type=Path, default=None, help="keep both harnesses' outputs in this folder")
    args = parser.parse_args(argv)
    args.langs = [lang for lang in args.langs.split(",") if lang]
    unknown = [lang for lang in args.langs if lang not in LANGS]
    if unknown:
        parser.error(f"unknown language {', '.join(unknown)} (TruthfulQA-Multi has {', '.join(LANGS)})")
    args.ids = {i.strip() for i in args.ids.split(",") if i.strip()} if args.ids else None
    args.model = args.model.expanduser().resolve()
    args.data_dir = args.data_dir.expanduser().resolve()
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="validate_real-"))
    try:
        return validate(args, work)
    except ParityError as error:
        print(f"validate_real: error: {error}", file=sys.stderr)
        return 2
    finally:
        if args.keep is not None:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
            print(f"outputs kept in {args.keep}")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
