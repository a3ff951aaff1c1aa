#!/usr/bin/env python3
"""mlbench's declared ``m_truthfulqa`` vs lm-eval 0.4.13's Okapi tasks, per question.

    python scripts/parity_okapi.py --model DIR [--lm-eval-python VENV/bin/python] \
        [--okapi-dir DIR] [--real-text ../shared/datasets] [--langs es,ru,hi,zh] [--limit 20]

Both harnesses read the same local copy in the hub's layout (``data/<lang>/val.jsonl``):
lm-eval through its own ``truthfulqa_<lang>_mc1`` / ``truthfulqa_<lang>_mc2`` YAMLs
(``okapi/truthfulqa_multilingual``, with its English six-shot primer and question
clean-up), pointed at the copy instead of the hub; mlbench through ``mlbench run --task
m_truthfulqa --data-dir``. Questions are matched by their row (lm-eval's ``doc_id``, the
number in mlbench's ``<lang>-NNNN`` id). Both run float32 on CPU.

The copy is ``--okapi-dir`` when given (e.g. the real dataset, downloaded elsewhere).
Without it, the test fixture's copy is written (tests/benchmarks/declared/okapi_fixture.py:
es, ru, hi, zh, four scripts, bracketed notes to clean); ``--real-text DIR`` (a folder with
mlbench's local copies) adds rows of real text in the Okapi layout: the first ``--limit``
TruthfulQA-Multi questions in es, ca, eu (their MC1/MC2 targets) and MSQAD questions in
zh, hi, de (acceptable response true, non-acceptable false). Prints per language n, both
means, the largest per-question difference, and OK/MISMATCH against 1e-4; exit 1 on a
mismatch, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from parity_lm_eval import (
    ParityError,
    check_inputs,
    compare,
    explain_mismatch,
    find_lm_eval_python,
    lm_eval_tasks_dir,
    merge,
    print_comparison,
    run_lm_eval,
    run_mlbench,
)

REPO = Path(__file__).resolve().parents[1]
OKAPI_TASK_YAML = """\
include: {tasks_dir}/okapi/truthfulqa_multilingual/truthfulqa_{lang}_{metric}.yaml
task: okapi_{metric}_{lang}
tag: []
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    val: {path}
"""
TQA_LANGS = ("es", "ca", "eu")  # TruthfulQA-Multi's languages that Okapi has too
MSQAD_LANGS = {"zh": "Chinese", "hi": "Hindi", "de": "German"}


def write_real_text(shared: Path, root: Path, limit: int) -> list[str]:
    """Okapi-layout rows of real text (see the module's docstring); the languages written."""
    for lang in TQA_LANGS:
        rows = json.loads((shared / "truthfulqa-multi" / lang / "validation.json").read_text(encoding="utf-8"))
        _write(root, lang, [_okapi_row(r["question"], r["mc1_targets"], r["mc2_targets"]) for r in rows[:limit]])
    topic = sorted((shared / "msqad").glob("*.json"))[0]
    articles = json.loads(topic.read_text(encoding="utf-8-sig"))[:limit]
    for lang, name in MSQAD_LANGS.items():
        pair = [(a[f"{name}_acceptable_response"], a[f"{name}_non-acceptable_response"]) for a in articles]
        targets = [{"choices": [good, bad], "labels": [1, 0]} for good, bad in pair]
        _write(root, lang, [_okapi_row(a[f"{name}_question"], t, t) for a, t in zip(articles, targets)])
    return [*TQA_LANGS, *MSQAD_LANGS]


def _okapi_row(question: str, mc1: dict, mc2: dict) -> dict:
    return {
        "question": question,
        "mc1_targets_choices": mc1["choices"],
        "mc1_targets_labels": mc1["labels"],
        "mc2_targets_choices": mc2["choices"],
        "mc2_targets_labels": mc2["labels"],
    }


def _write(root: Path, lang: str, rows: list[dict]) -> None:
    folder = root / "data" / lang
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    with (folder / "val.jsonl").open("a", encoding="utf-8") as handle:  # after the fixture's rows, if any
        handle.write(text)


def check(model: str, copy: Path, langs: list[str], python: str, work: Path) -> bool:
    from mlbench.data.hub_layout import split_files

    tasks_dir = lm_eval_tasks_dir(python)
    # The files mlbench reads for each language, so that lm-eval reads the same ones.
    files = {lang: split_files(copy, lang, "val") for lang in langs}
    if any(len(found) != 1 for found in files.values()):
        raise ParityError(f"expected one val file per language in {copy}, found {files}")
    yamls = {
        f"okapi_{metric}_{lang}": OKAPI_TASK_YAML.format(
            tasks_dir=tasks_dir, lang=lang, metric=metric, path=files[lang][0]
        )
        for lang in langs
        for metric in ("mc1", "mc2")
    }
    theirs, their_time = run_lm_eval(python, model, yamls, work / "lm_eval", num_fewshot=None, batch_size=1)
    ours, our_time = run_mlbench(model, copy, langs, work / "mlbench", task="m_truthfulqa")
    ok = True
    for lang in langs:
        mine = ours[lang]
        # mlbench's ids are "<lang>-NNNN" (the row); lm-eval's are the row numbers.
        mine = type(mine)(
            {m: {str(int(i.split("-")[-1])): v for i, v in values.items()} for m, values in mine.scores.items()},
            {str(int(i.split("-")[-1])): p for i, p in mine.prompts.items()},
            {m: {str(int(i.split("-")[-1])): v for i, v in lls.items()} for m, lls in mine.loglikelihoods.items()},
        )
        other = merge(theirs[f"okapi_mc1_{lang}"], theirs[f"okapi_mc2_{lang}"])
        inputs = check_inputs(mine, other)
        for metric in ("mc1", "mc2"):
            result = compare(metric, mine.scores[metric], other.scores[metric])
            print_comparison(result, f"{lang} ")
            ok = ok and result.verdict == "OK" and not inputs.prompt_diff
            for qid in result.worst[:3] + inputs.prompt_diff[:3]:
                print(explain_mismatch(qid, metric, mine, other))
        print(f"{lang}: prompts identical for every question: {not inputs.prompt_diff}; "
              f"largest option log-likelihood difference {inputs.max_ll_diff:.2e}")  # fmt: skip
    print(f"wall time: mlbench {our_time.seconds:.1f} s, lm-eval {their_time.seconds:.1f} s")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--lm-eval-python")
    parser.add_argument("--okapi-dir", type=Path, help="a copy in the hub's layout (default: the test fixture)")
    parser.add_argument("--real-text", type=Path, help="mlbench's local copies, for rows of real text")
    parser.add_argument("--langs", help="comma-separated (default: every language written or found)")
    parser.add_argument("--limit", type=int, default=20, help="rows per language of real text")
    args = parser.parse_args()
    try:
        python = find_lm_eval_python(args.lm_eval_python)
        with tempfile.TemporaryDirectory(prefix="parity-okapi-") as tmp:
            work = Path(tmp)
            copy = args.okapi_dir
            langs = []
            if copy is None:
                sys.path.insert(0, str(REPO))
                from tests.benchmarks.declared.okapi_fixture import OWN_ROWS, write_okapi_copy

                copy = write_okapi_copy(work / "copy", tuple(OWN_ROWS))
                langs = list(OWN_ROWS)
                if args.real_text:
                    langs += [lang for lang in write_real_text(args.real_text, copy, args.limit) if lang not in langs]
            else:
                langs = sorted(p.name for p in (copy / "data").iterdir() if p.is_dir())
            if args.langs:
                langs = args.langs.split(",")
            return 0 if check(args.model, copy, langs, python, work) else 1
    except ParityError as error:
        print(f"parity_okapi: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
