#!/usr/bin/env python3
"""The GPU benchmark's data and comparisons (scripts/bench_gpu.sh calls these).

    bench_gpu_tools.py stage DATA WORK --mc-n N --gen-n N --parity-n N
    bench_gpu_tools.py compare-mc LM_OUT MB_OUT [--exact]   one JSON object on stdout
    bench_gpu_tools.py compare-gen LM_OUT MB_OUT TOKENIZER  one JSON object on stdout
    bench_gpu_tools.py count MB_OUT TOKENIZER               one JSON object on stdout

``stage`` writes, from DATA/truthfulqa-multi/<lang>/{train,validation}.json, the folders
each run reads: ``WORK/data-mc`` (the first N English questions, for mlbench) and
``WORK/tasks-mc`` (lm-eval's own HiTZ tasks ``hitz_mc1_en`` and ``hitz_mc2_en`` on a copy
of the same rows), the same for ``gen`` (lm-eval's ``truthfulqa-multi_gen_en``) and for the
float32 ``parity`` step. The task YAMLs come from scripts/parity_lm_eval.py, as in every
lm-eval comparison of this project.

``compare-mc`` matches lm-eval's logged samples (``--log_samples``) with mlbench's
samples_en.jsonl by question id: MC1 equal, MC2 and every option log-likelihood's largest
difference (``--exact``: float32 runs, which must agree within 1e-4). ``compare-gen``
compares the generated answers (each cut at its first stop string) and counts their tokens
with the model's tokenizer. ``count`` sums what a multi-language mlbench run generated.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gen import LM_EVAL_GEN_FIELDS, fill_primer_answers  # noqa: E402
from parity_lm_eval import LM_EVAL_FIELDS, gen_task_yaml, hitz_task_yamls, write_subset  # noqa: E402

TOLERANCE = 1e-4  # what float32 runs of the two harnesses must agree within


def stage(data: Path, work: Path, counts: dict[str, int]) -> None:
    import lm_eval

    tasks_dir = Path(lm_eval.__file__).parent / "tasks"
    source = data / "truthfulqa-multi" / "en"
    for kind, n in counts.items():
        if n <= 0:  # a step the run leaves out (--parity-n 0)
            continue
        write_subset(source, work / f"data-{kind}" / "truthfulqa-multi" / "en", n)
        theirs = work / f"lm-data-{kind}"
        fields = LM_EVAL_GEN_FIELDS if kind == "gen" else LM_EVAL_FIELDS
        write_subset(source, theirs / "truthfulqa-multi" / "en", n, fields)
        tasks = work / f"tasks-{kind}"
        tasks.mkdir(parents=True, exist_ok=True)
        if kind == "gen":
            fill_primer_answers(theirs / "truthfulqa-multi" / "en" / "train.json")  # as bench_gen.py does
            yamls = {"truthfulqa-multi_gen_en": gen_task_yaml(tasks_dir, "en", theirs / "truthfulqa-multi" / "en")}
        else:
            yamls = hitz_task_yamls(tasks_dir, theirs, ["en"])
        for name, text in yamls.items():
            (tasks / f"{name}.yaml").write_text(text, encoding="utf-8")
    print(f"staged {counts} English questions; lm-eval's tasks from {tasks_dir}")


# -- reading both harnesses' logs ----------------------------------------------------------


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def lm_eval_samples(out: Path, task: str) -> dict[str, dict]:
    """lm-eval's logged samples of ``task`` (the newest file), by question id."""
    files = sorted(out.rglob(f"samples_{task}_*.jsonl"), key=lambda p: p.stat().st_mtime)
    return {str(row["doc"]["id"]): row for row in _lines(files[-1])} if files else {}


def mlbench_samples(out: Path, lang: str = "en") -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for path in sorted(out.rglob(f"samples_{lang}.jsonl")):
        rows.update({str(row["id"]): row for row in _lines(path)})
    return rows


def _stats(values: list[float]) -> dict[str, float | int]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}
    return {"n": len(ordered), "max": ordered[-1], "median": ordered[len(ordered) // 2]}


def compare_mc(lm: Path, mb: Path, exact: bool) -> dict:
    theirs = {m: lm_eval_samples(lm, f"hitz_{m}_en") for m in ("mc1", "mc2")}
    ours = mlbench_samples(mb)
    common = [i for i in theirs["mc1"] if i in theirs["mc2"] and i in ours]
    mc1_same, mc2_diffs, option_diffs, differing = 0, [], [], []
    for qid in common:
        metrics, outputs = ours[qid]["metrics"], ours[qid]["outputs"]
        same = abs(float(theirs["mc1"][qid]["acc"]) - metrics["mc1"]) < 1e-9
        mc1_same += same
        mc2_diffs.append(abs(float(theirs["mc2"][qid]["acc"]) - metrics["mc2"]))
        for metric in ("mc1", "mc2"):
            logged = [float(r[0]) for r in theirs[metric][qid]["filtered_resps"]]
            option_diffs += [abs(a - b) for a, b in zip(logged, outputs[f"{metric}_loglikelihoods"])]
        if not same and len(differing) < 5:
            differing.append(qid)
    result = {
        "questions_lm_eval": len(theirs["mc1"]),
        "questions_mlbench": len(ours),
        "matched": len(common),
        "mc1_equal": mc1_same,
        "mc2_absdiff": _stats(mc2_diffs),
        "option_ll_absdiff": _stats(option_diffs),
        "mc1_differ_ids": differing,
    }
    if exact:
        result["within_tolerance"] = bool(common) and mc1_same == len(common) and max(option_diffs) <= TOLERANCE
    return result


def _token_counter(tokenizer: str) -> Callable[[str], int]:
    from transformers import AutoTokenizer

    loaded = AutoTokenizer.from_pretrained(tokenizer)
    return lambda text: len(loaded(text or "", add_special_tokens=False)["input_ids"])


def compare_gen(lm: Path, mb: Path, tokenizer: str) -> dict:
    count = _token_counter(tokenizer)
    theirs = lm_eval_samples(lm, "truthfulqa-multi_gen_en")
    ours = mlbench_samples(mb)
    equal, lm_tokens, mb_tokens, first = 0, 0, 0, None
    for qid, row in theirs.items():
        text = row["resps"][0][0]
        lm_tokens += count(text)
        if qid not in ours:
            continue
        answer = ours[qid]["outputs"].get("generation") or ""
        mb_tokens += count(answer)
        if answer.strip() == text.strip():
            equal += 1
        elif first is None:
            at = next((i for i, (a, b) in enumerate(zip(answer, text)) if a != b), min(len(answer), len(text)))
            first = {"id": qid, "at_char": at, "lm_eval": text[max(0, at - 40) : at + 40],
                     "mlbench": answer[max(0, at - 40) : at + 40]}  # fmt: skip
    return {
        "questions_lm_eval": len(theirs),
        "questions_mlbench": len(ours),
        "matched": sum(qid in ours for qid in theirs),
        "answers_equal": equal,
        "lm_eval_output_tokens": lm_tokens,
        "mlbench_output_tokens": mb_tokens,
        "first_difference": first,
    }


def count(mb: Path, tokenizer: str) -> dict:
    counter = _token_counter(tokenizer)
    languages = {}
    for path in sorted(mb.rglob("samples_*.jsonl")):
        rows = _lines(path)
        answers = [(r.get("outputs") or {}).get("generation") for r in rows]
        answers = [a for a in answers if isinstance(a, str)]
        languages[path.stem.removeprefix("samples_")] = {
            "samples": len(rows),
            "answers": len(answers),
            "output_tokens": sum(counter(a) for a in answers),
        }
    return {"languages": languages, "output_tokens": sum(v["output_tokens"] for v in languages.values())}


def disagreement(command: str, result: dict) -> str | None:
    """Why a comparison fails the bench: float32 MC outside the tolerance, or a generated
    answer that differs (the bench model is built so that the harnesses agree, even in
    bfloat16); None when it passes. bfloat16 MC is reported, not judged: its option sums
    differ with the batch shapes' rounding."""
    if command == "compare-mc" and result.get("within_tolerance") is False:
        return f"MC outside {TOLERANCE}: MC1 {result['mc1_equal']}/{result['matched']} equal"
    if command == "compare-gen" and (
        not result["matched"]
        or result["answers_equal"] < result["matched"]
        or result["matched"] < result["questions_lm_eval"]
    ):
        return f"generation: {result['answers_equal']} of {result['questions_lm_eval']} answers equal"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("stage")
    p.add_argument("data", type=Path)
    p.add_argument("work", type=Path)
    for kind in ("mc", "gen", "parity"):
        p.add_argument(f"--{kind}-n", type=int, required=True)
    p = sub.add_parser("compare-mc")
    p.add_argument("lm", type=Path)
    p.add_argument("mb", type=Path)
    p.add_argument("--exact", action="store_true")
    p = sub.add_parser("compare-gen")
    p.add_argument("lm", type=Path)
    p.add_argument("mb", type=Path)
    p.add_argument("tokenizer")
    p = sub.add_parser("count")
    p.add_argument("mb", type=Path)
    p.add_argument("tokenizer")
    args = parser.parse_args()
    if args.command == "stage":
        stage(args.data, args.work, {"mc": args.mc_n, "gen": args.gen_n, "parity": args.parity_n})
        return 0
    if args.command == "compare-mc":
        result = compare_mc(args.lm, args.mb, args.exact)
    elif args.command == "compare-gen":
        result = compare_gen(args.lm, args.mb, args.tokenizer)
    else:
        result = count(args.mb, args.tokenizer)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    failed = disagreement(args.command, result)
    if failed:
        print(f"bench_gpu_tools: {failed}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
