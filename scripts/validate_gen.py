#!/usr/bin/env python3
"""TruthfulQA-Multi generation: mlbench vs lm-eval 0.4.13's truthfulqa-multi_gen_<lang>, per question.

    make real-models
    python scripts/validate_gen.py --data-dir ../shared/datasets [--model gemma-3-270m] \
        [--langs en,eu] [--limit 8] [--lm-eval-python /work/venvs/lmeval/bin/python]
    python scripts/validate_gen.py --data-dir ../shared/datasets --model SmolLM2-135M-Instruct --chat-template

Both harnesses answer the same questions (mlbench's seeded ``--limit`` subset, the same ids in
every language), 6-shot, greedy, float32 on the CPU. lm-eval runs its own task YAML (pointed at
a local copy of the questions) with ``--log_samples``; with ``--chat-template`` it runs with
``--apply_chat_template --fewshot_as_multiturn`` and mlbench with ``--chat-template``. Then:

- prompts: ``mlbench import lm-eval`` reads lm-eval's log; it takes a logged completion only
  where mlbench's prompt (chat prompts rendered with the logged template) is lm-eval's,
  character for character, so every imported sample is a prompt that matched;
- answers: mlbench's own generation (``outputs.generation``) against lm-eval's completion;
- BLEU: mlbench's bleu_max, bleu_acc and bleu_diff against the values lm-eval logged (1e-6).

Exit code 0 when every question matches on all three, 1 otherwise, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench_gen import LM_EVAL_GEN_FIELDS, fill_primer_answers
from bench_mc import chosen_ids, model_folder
from parity_lm_eval import (
    ParityError,
    find_lm_eval_python,
    gen_task_yaml,
    lm_eval_tasks_dir,
    run_measured,
    write_subset,
)

BLEU = ("bleu_max", "bleu_acc", "bleu_diff")
FEWSHOT = 6


def read_jsonl(path: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {str(row["doc"]["id"]) if "doc" in row else row["id"]: row for row in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--model", default="gemma-3-270m", help="a real-model kit name or a model folder")
    parser.add_argument("--langs", default="en,eu")
    parser.add_argument("--limit", type=int, default=8, help="questions per language")
    parser.add_argument("--chat-template", action="store_true")
    parser.add_argument("--lm-eval-python", help="python of a venv with lm-eval 0.4.13")
    parser.add_argument("--lm-eval-batch-size", type=int, default=4)
    args = parser.parse_args()
    python = find_lm_eval_python(args.lm_eval_python)
    langs = args.langs.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        model = model_folder(args.model, work)
        ids = {lang: chosen_ids(args.data_dir, lang, args.limit) for lang in langs}
        (work / "tasks").mkdir()
        for lang in langs:
            source = args.data_dir / "truthfulqa-multi" / lang
            write_subset(source, work / "ours" / "truthfulqa-multi" / lang, ids[lang])
            theirs = work / "theirs" / "truthfulqa-multi" / lang
            write_subset(source, theirs, ids[lang], LM_EVAL_GEN_FIELDS)
            fill_primer_answers(theirs / "train.json")
            yaml = gen_task_yaml(lm_eval_tasks_dir(python), lang, theirs)
            (work / "tasks" / f"gen_{lang}.yaml").write_text(yaml, encoding="utf-8")
        chat = ["--apply_chat_template", "--fewshot_as_multiturn"] if args.chat_template else []
        lm_eval = run_measured(
            [python, "-m", "lm_eval", "run", "--model", "hf",
             "--model_args", f"pretrained={model},dtype=float32", "--device", "cpu",
             "--tasks", ",".join(f"truthfulqa-multi_gen_{lang}" for lang in langs),
             "--include_path", str(work / "tasks"), "--num_fewshot", str(FEWSHOT),
             "--batch_size", str(args.lm_eval_batch_size), "--log_samples",
             "--output_path", str(work / "lm-eval"), *chat],
            "lm-eval",
        )  # fmt: skip
        ours = run_measured(
            [sys.executable, "-m", "mlbench", "run", "--model", str(model), "--task", "truthfulqa_multi",
             "--lang", ",".join(langs), "--mode", "gen", "--data-dir", str(work / "ours"),
             "--output", str(work / "mlbench"), "--no-cache", "--quiet",
             *(["--chat-template"] if args.chat_template else [])],
            "mlbench",
        )  # fmt: skip
        imported = run_measured(
            [sys.executable, "-m", "mlbench", "import", "lm-eval", str(work / "lm-eval"),
             "--output", str(work / "imported"), "--data-dir", str(work / "ours"), "--quiet"],
            "mlbench import",
        )  # fmt: skip
        del imported
        logs = {
            lang: read_jsonl(next((work / "lm-eval").rglob(f"samples_truthfulqa-multi_gen_{lang}_*.jsonl")))
            for lang in langs
        }
        ours_dir = next((work / "mlbench").glob("*/truthfulqa_multi"))
        imported_dir = next((work / "imported").glob("*/truthfulqa_multi"))
        ok = True
        print(f"{args.model}{' (chat template)' if args.chat_template else ''}, {FEWSHOT}-shot greedy, float32 CPU")
        print(f"wall time: mlbench {ours.seconds:.1f} s, lm-eval {lm_eval.seconds:.1f} s")
        print(f"{'lang':<5}{'n':>4}{'prompts =':>11}{'answers =':>11}{'BLEU =':>8}{'max BLEU diff':>15}")
        for lang in langs:
            mine = read_jsonl(ours_dir / f"samples_{lang}.jsonl")
            replayed = read_jsonl(imported_dir / f"samples_{lang}.jsonl")
            log = logs[lang]
            prompts = sum(1 for i in log if i in replayed and not replayed[i]["outputs"].get("error"))
            answers = sum(1 for i in log if i in mine and mine[i]["outputs"].get("generation") == log[i]["resps"][0][0])
            diffs = [max(abs(mine[i]["metrics"][m] - float(log[i][m])) for m in BLEU) for i in log if i in mine]
            same_bleu = sum(d <= 1e-6 for d in diffs)
            print(f"{lang:<5}{len(log):>4}{prompts:>11}{answers:>11}{same_bleu:>8}{max(diffs, default=0):>15.1e}")
            for i in log:
                if i in mine and mine[i]["outputs"].get("generation") != log[i]["resps"][0][0]:
                    print(f"  {lang} {i}: mlbench {mine[i]['outputs'].get('generation')!r}")
                    print(f"  {lang} {i}: lm-eval {log[i]['resps'][0][0]!r}")
            ok &= prompts == answers == same_bleu == len(log) == len(ids[lang])
        return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ParityError as error:
        print(f"validate_gen: {error}", file=sys.stderr)
        sys.exit(2)
