#!/usr/bin/env python3
"""mlbench's declared NorTruthfulQA (MC and generation, five templates, Bokmål and Nynorsk),
AraDiCE-TruthfulQA (four varieties) and TruthfulQA-X (MC1, MC2 and generation) against the
authors' lm-eval tasks, run by lm-eval 0.4.13, per question.

    python scripts/parity_templates.py --model DIR [--lm-eval-python VENV/bin/python] \
        [--real-text ../shared/datasets] [--limit 10] [--task nortruthfulqa,aradice_truthfulqa] \
        [--truthfulqax-tasks DIR --truthfulqax-langs de,el,pt]
    python scripts/parity_templates.py --model DIR --task nortruthfulqa_gen,truthfulqax_gen \
        --truthfulqax-tasks DIR --truthfulqax-langs de,el --real-text ../shared/datasets --limit 1

TruthfulQA-X's tasks are not in lm-eval 0.4.13 but in openGPT-X's fork of it:
``--truthfulqax-tasks`` is that fork's ``lm_eval/tasks/opengptx/ogx_truthfulqax`` folder
(at the commit mlbench pins), which lm-eval 0.4.13 runs as included tasks; mlbench runs
every language (they are read together, to check they are parallel), lm-eval the
``--truthfulqax-langs``.

Both harnesses read the same local copy in each hub layout: lm-eval through its own task
YAMLs (``noreval/nortruthfulqa/multiple_choice/<nob|nno>/nortruthfulqa_mc_<std>_p<k>``,
``aradice/truthfulqa_mcq/truthfulqa_mc1_<variety>``), pointed at the copy instead of the
hub; mlbench through ``mlbench run --task nortruthfulqa -T prompt=all`` and ``--task
aradice_truthfulqa`` with ``--data-dir``, reading the prompts from the very task files of
the lm-eval install (copied to ``DIR/upstream/<task>/``, where mlbench checks them against
its pinned sha256). The rows are the test fixture's (tests/benchmarks/declared/
template_fixture.py); ``--real-text DIR`` (mlbench's local copies) adds the first
``--limit`` TruthfulQA-Multi questions (es, ca, eu text, with their MC1 options) to every
language. Both run float32 on the CPU.

Prints, per language and template: n, both harnesses' mean MC1 (and acc_norm for AraDiCE),
whether every prompt is identical, the largest option log-likelihood difference, and
OK/MISMATCH against 1e-4. For the generation tasks (greedy; the rows of real text are
TruthfulQA-Multi's questions with their answer lists): whether every prompt and stop rule
is identical, how many completions are, and every BLEU and ROUGE value the task logs
(bleu_*, rouge1_*, rouge2_*, rougeL_*): mlbench's scoring of lm-eval's completion against
lm-eval's (1e-6), and mlbench's own run against them where the completions are equal.

Every language's data also gets the rows of tests/benchmarks/declared/defects_fixture.py
(a row of each kind the published TruthfulQA-X data holds, and rows the authors' code
cannot score). lm-eval stops at the first row its process_results raises on, so its
driver passes every document through the task's own process_results first and scores the
others; a line per task then compares the rows lm-eval's code left out with those mlbench
left out (results.json's data_left_out). Exit 1 on a mismatch, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from parity_lm_eval import ParityError, find_lm_eval_python, lm_eval_tasks_dir, run_measured

REPO = Path(__file__).resolve().parents[1]
TOLERANCE = 1e-4
STANDARDS = {"nb": "nob", "nn": "nno"}
VARIETIES = {"arz": "egy", "apc": "lev", "arb": "msa", "en": "eng"}
TEMPLATES = ("p0", "p1", "p2", "p3", "p4")
WRAPPER = """\
include: {include}
task: {name}
tag: []
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    {split}: {path}
"""
# Runs inside the lm-eval interpreter. First every document goes through the task's own
# process_results with stand-in results (an empty completion; log-likelihood 0 per option):
# those it raises on are rows its code cannot score, which would stop lm-eval's whole run,
# so lm-eval runs the others (simple_evaluate's samples) and the rest are reported as left
# out with the error. Then per task and row: acc (and acc_norm), the context and every
# option's log-likelihood; or the completion, its stop rule and every metric logged.
DRIVER = """\
import json, sys
import lm_eval
from lm_eval.models.utils import normalize_gen_kwargs
from lm_eval.tasks import TaskManager, get_task_dict

args = json.loads(sys.argv[1])
manager = TaskManager(include_path=args["include_path"])
left_out, keep = {}, {}
for name, task in get_task_dict(args["tasks"], manager).items():
    left_out[name], keep[name] = {}, []
    for index, doc in enumerate(task.eval_docs):
        if task.OUTPUT_TYPE == "generate_until":
            stand_in = [""]
        else:
            stand_in = [(0.0, False)] * len(task.doc_to_choice(doc))
        try:
            task.process_results(doc, stand_in)
            keep[name].append(index)
        except Exception as error:
            left_out[name][str(index)] = f"{type(error).__name__}: {error}"
result = lm_eval.simple_evaluate(model="hf", model_args=args["model_args"], tasks=args["tasks"],
    task_manager=manager, batch_size=1, log_samples=True, samples=keep)

def mc(row):
    return {"acc": float(row["acc"]), "acc_norm": float(row.get("acc_norm", "nan")),
            "context": row["arguments"][0][0], "options": [a[1] for a in row["arguments"]],
            "loglikelihoods": [float(r[0]) for r in row["filtered_resps"]]}

def gen(row):
    response = row["filtered_resps"][0]
    # The stop texts and budget as lm-eval's backends read the logged kwargs (its aliases in
    # its order; 256 is the HF backend's max_gen_toks, which the driver leaves as it is).
    kwargs = normalize_gen_kwargs(dict(row["arguments"][0][1]), 256)
    metrics = {m: float(v) for m, v in row.items() if m.startswith(("bleu_", "rouge"))}
    return {"context": row["arguments"][0][0], "question": row["doc"]["question"],
            "completion": response if isinstance(response, str) else response[0],
            "until": list(kwargs["until"]), "max_new_tokens": kwargs["max_gen_toks"], **metrics}

out = {task: {str(row["doc_id"]): (gen if "bleu_max" in row else mc)(row) for row in rows}
       for task, rows in result["samples"].items()}
json.dump({"scored": out, "left_out": left_out}, open(args["output"], "w", encoding="utf-8"), ensure_ascii=False)
"""


TQAX_CODES = {"bg": "BG", "cs": "CS", "da": "DA", "de": "DE", "el": "EL", "es": "ES", "et": "ET", "fi": "FI",
              "fr": "FR", "hu": "HU", "it": "IT", "lt": "LT", "lv": "LV", "nl": "NL", "pl": "PL", "pt": "PT-PT",
              "ro": "RO", "sk": "SK", "sl": "SL", "sv": "SV"}  # fmt: skip


Tqax = tuple[Path, list[str]]  # the fork's task folder, and the languages lm-eval runs


GEN_TASKS = ("nortruthfulqa_gen", "truthfulqax_gen")
BLEU = ("bleu_max", "bleu_acc", "bleu_diff")
ROUGE = tuple(f"{kind}_{part}" for kind in ("rouge1", "rouge2", "rougeL") for part in ("max", "acc", "diff"))
BLEU_TOLERANCE = 1e-6


def lm_eval_task_files(task: str, tasks_dir: Path, tqax: Tqax | None = None) -> dict[str, tuple[Path, str]]:
    """lm-eval's task per (language, template): (its YAML, the split it reads)."""
    if task in ("truthfulqax", "truthfulqax_gen"):
        assert tqax is not None
        folder, langs = tqax
        metrics = ("gen",) if task == "truthfulqax_gen" else ("mc1", "mc2")
        return {
            f"{lang}@{metric}": (folder / f"ogx_truthfulqax_{metric}_{TQAX_CODES[lang].lower()}.yaml", "validation")
            for lang in langs
            for metric in metrics
        }
    if task in ("nortruthfulqa", "nortruthfulqa_gen"):
        kind, short = ("generation", "gen") if task == "nortruthfulqa_gen" else ("multiple_choice", "mc")
        base = tasks_dir / "noreval" / "nortruthfulqa" / kind
        return {
            f"{lang}@{t}": (base / std / f"nortruthfulqa_{short}_{std}_{t}.yaml", "validation")
            for lang, std in STANDARDS.items()
            for t in TEMPLATES
        }
    base = tasks_dir / "aradice" / "truthfulqa_mcq"
    return {f"{lang}@default": (base / f"truthfulqa_mc1_{v}.yaml", "test") for lang, v in VARIETIES.items()}


def add_real_text(shared: Path, copy: Path, limit: int) -> None:
    """The first ``limit`` TruthfulQA-Multi questions (es, ca, eu in turn), and the first
    of each that ends in a space (kept as it is: lm-eval strips no MC question), after each
    language's fixture rows, in that language's hub layout."""
    sources = []
    for lang in ("es", "ca", "eu"):
        rows = json.loads((shared / "truthfulqa-multi" / lang / "validation.json").read_text(encoding="utf-8"))
        spaced = [r for r in rows[limit:] if r["question"] != r["question"].rstrip()][:1]
        sources += [{"question": r["question"], "mc1_targets": r["mc1_targets"]} for r in [*rows[:limit], *spaced]]
    for path in [*copy.glob("nortruthfulqa/*/validation.jsonl")]:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in sources))
    for path in copy.glob("truthfulqax/truthfulqa_mc_*_validation.jsonl"):
        start = len(path.read_text(encoding="utf-8").splitlines())  # ids go on from the fixture's
        with path.open("a", encoding="utf-8") as handle:
            for number, row in enumerate(sources, start=start):
                mc2 = next(r["mc2_targets"] for r in _multi_rows(shared) if r["question"] == row["question"])
                handle.write(json.dumps({"id": number, **row, "mc2_targets": mc2}, ensure_ascii=False) + "\n")
    for path in copy.glob("aradice_truthfulqa/TruthfulQA_*/test.json"):
        rows = json.loads(path.read_text(encoding="utf-8"))
        rows += [{**row, "mc2_targets": row["mc1_targets"]} for row in sources]
        path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    # The generation layouts: each question with its answer lists, as the hub datasets have them.
    answers = {r["question"]: r for r in _multi_rows(shared)}
    gen_rows = [{key: answers[row["question"]][key] for key in GEN_FIELDS} for row in sources]
    for path in copy.glob("nortruthfulqa_gen/*/validation.jsonl"):
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in gen_rows))
    for path in copy.glob("truthfulqax/truthfulqa_gen_*_validation.jsonl"):
        start = len(path.read_text(encoding="utf-8").splitlines())
        with path.open("a", encoding="utf-8") as handle:
            for number, row in enumerate(gen_rows, start=start):
                full = {"id": number, **row, "best_answer": answers[row["question"]]["best_answer"]}
                handle.write(json.dumps(full, ensure_ascii=False) + "\n")


GEN_FIELDS = ("question", "correct_answers", "incorrect_answers")


def add_defect_rows(copy: Path) -> None:
    """The rows of tests/benchmarks/declared/defects_fixture.py (a row of each kind the
    published TruthfulQA-X data holds that a strict reader refuses, and rows the authors'
    code cannot score) after every language's rows of TruthfulQA-X (MC and generation) and
    of NorTruthfulQA's generation set, numbered on from the rows there."""
    from tests.benchmarks.declared.defects_fixture import GEN_ROWS, MC_ROWS

    def append(path: Path, rows: list[dict]) -> None:
        start = len(path.read_text(encoding="utf-8").splitlines())
        with path.open("a", encoding="utf-8") as handle:
            for number, row in enumerate(rows, start=start):
                handle.write(json.dumps({"id": number, **row}, ensure_ascii=False) + "\n")

    gen = [{"question": q, "best_answer": best, "correct_answers": c, "incorrect_answers": i}
           for q, best, c, i in GEN_ROWS.values()]  # fmt: skip
    mc = [{"question": q, "mc1_targets": {"choices": mc1, "labels": [1] + [0] * (len(mc1) - 1)},
           "mc2_targets": {"choices": mc2, "labels": labels}} for q, mc1, mc2, labels in MC_ROWS.values()]  # fmt: skip
    for path in copy.glob("truthfulqax/truthfulqa_gen_*_validation.jsonl"):
        append(path, gen)
    for path in copy.glob("truthfulqax/truthfulqa_mc_*_validation.jsonl"):
        append(path, mc)
    for path in copy.glob("nortruthfulqa_gen/*/validation.jsonl"):
        with path.open("a", encoding="utf-8") as handle:
            handle.writelines(json.dumps({k: row[k] for k in GEN_FIELDS}, ensure_ascii=False) + "\n" for row in gen)


def _multi_rows(shared: Path) -> list[dict]:
    """TruthfulQA-Multi's rows in es, ca and eu (where the real text comes from)."""
    rows = []
    for lang in ("es", "ca", "eu"):
        rows += json.loads((shared / "truthfulqa-multi" / lang / "validation.json").read_text(encoding="utf-8"))
    return rows


def data_file(copy: Path, task: str, lang: str) -> Path:
    if task in ("truthfulqax", "truthfulqax_gen"):
        kind = "gen" if task == "truthfulqax_gen" else "mc"
        return copy / "truthfulqax" / f"truthfulqa_{kind}_{TQAX_CODES[lang]}_validation.jsonl"  # the hub's names
    if task in ("nortruthfulqa", "nortruthfulqa_gen"):
        return copy / task / lang / "validation.jsonl"
    return copy / "aradice_truthfulqa" / f"TruthfulQA_{VARIETIES[lang]}" / "test.json"


def _without_group(folder: Path, target: Path) -> Path:
    """A copy of ``folder`` whose YAML files have no top-level ``group:`` list."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(folder, target)
    for path in target.glob("*.yaml"):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept, skipping = [], False
        for line in lines:
            if line.startswith("group:"):
                skipping = True
                continue
            if skipping and line.startswith(("- ", "  - ")):
                continue
            skipping = False
            kept.append(line)
        path.write_text("".join(kept), encoding="utf-8")
    return target


def _copy_task_files(copy: Path, task: str, files: list[Path], root: Path) -> None:
    """The task files (and their folders' neighbours) where mlbench reads them:
    ``DIR/upstream/<task>/<path in the repository>``, ``root`` being the repository's."""
    shutil.rmtree(copy / "upstream" / task, ignore_errors=True)
    for yaml_path in files:
        for file in yaml_path.parent.parent.rglob("*"):
            if file.is_file() and file.suffix in (".py", ".yaml", "") and "__pycache__" not in file.parts:
                target = copy / "upstream" / task / file.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, target)


def run_langs(task: str, tqax: Tqax | None) -> list[str]:
    """The languages mlbench runs: every one (MC; TruthfulQA-X's read together, to check
    they are parallel), or for TruthfulQA-X's generation those lm-eval runs."""
    if task.startswith("nortruthfulqa"):
        return list(STANDARDS)
    if task == "aradice_truthfulqa":
        return list(VARIETIES)
    if task == "truthfulqax_gen":
        assert tqax is not None
        return tqax[1]
    return list(TQAX_CODES)


def check(model: str, copy: Path, tasks: list[str], python: str, work: Path, tqax: Tqax | None) -> bool:
    from mlbench.results import model_slug, read_samples

    tasks_dir = lm_eval_tasks_dir(python)
    ok = True
    for task in tasks:
        # mlbench reads the prompts from the authors' own files, checked against its pins.
        lm_tasks = lm_eval_task_files(task, tasks_dir, tqax)
        files = [path for path, _ in lm_tasks.values()]
        gen = task in GEN_TASKS
        if task.startswith("truthfulqax"):
            assert tqax is not None
            target = copy / "upstream" / task / "lm_eval" / "tasks" / "opengptx" / "ogx_truthfulqax"
            shutil.rmtree(copy / "upstream" / task, ignore_errors=True)
            shutil.copytree(tqax[0], target)
            # The fork's files name a `group`, which lm-eval 0.4.13 no longer takes in a task
            # file: lm-eval runs copies without it (grouping only; prompts and scoring stay).
            lm_tasks = lm_eval_task_files(task, tasks_dir, (_without_group(tqax[0], work / "ogx"), tqax[1]))
        else:
            _copy_task_files(copy, task, files, tasks_dir.parent.parent)
        ours_dir = work / "mlbench"
        langs = run_langs(task, tqax)
        command = [sys.executable, "-m", "mlbench", "run", "--model", model, "--task", task, "--lang", ",".join(langs),
                   "--mode", "gen" if gen else "mc", "--data-dir", str(copy), "--backend", "hf", "--dtype", "float32",
                   "-M", "device=cpu", "--no-cache", "--output", str(ours_dir), "--overwrite"]  # fmt: skip
        command += ["-T", "prompt=all"] if task.startswith("nortruthfulqa") else []
        our_time = run_measured(command, "mlbench run")
        yamls = {}
        for key, (yaml_path, split) in lm_tasks.items():
            name = "parity_" + key.replace("@", "_")
            path = data_file(copy, task, key.split("@")[0])
            yamls[name] = WRAPPER.format(include=yaml_path, name=name, split=split, path=path)
        lm_dir = work / f"lm_eval_{task}"
        lm_dir.mkdir(parents=True, exist_ok=True)
        for name, text in yamls.items():
            (lm_dir / f"{name}.yaml").write_text(text, encoding="utf-8")
        output = lm_dir / "samples.json"
        args = {"model_args": {"pretrained": model, "dtype": "float32", "device": "cpu"}, "tasks": list(yamls),
                "include_path": str(lm_dir), "output": str(output)}  # fmt: skip
        their_time = run_measured([python, "-c", DRIVER, json.dumps(args)], "lm-eval")
        theirs = json.loads(output.read_text(encoding="utf-8"))
        for key in lm_tasks:
            lang, template = key.split("@")
            run_dir = ours_dir / model_slug(model) / task
            records = read_samples(run_dir / f"samples_{lang}.jsonl")
            mine = {
                _row(i): r
                for i, r in records.items()
                if not task.startswith("nortruthfulqa") or i.endswith(f"@{template}")
            }
            name = "parity_" + key.replace("@", "_")
            other = theirs["scored"][name]
            ok = report_left_out(f"{task} {lang} {template}", run_dir, lang, template, theirs["left_out"][name]) and ok
            if template == "mc2":  # rows left out of MC2 alone keep their MC1: not compared here
                mine = {row: r for row, r in mine.items() if "mc2" in r.metrics}
            if gen:
                scored = mlbench_scores(task, lang, template, copy, other)
                ok = report_gen(f"{task} {lang} {template}", mine, other, scored) and ok
                continue
            metric = template if task == "truthfulqax" else "mc1"
            ok = report(f"{task} {lang} {template}", mine, other, task == "aradice_truthfulqa", metric) and ok
        print(f"{task}: wall time mlbench {our_time.seconds:.1f} s, lm-eval {their_time.seconds:.1f} s")
    return ok


def report(label: str, mine: dict, other: dict, norm: bool, metric: str = "mc1") -> bool:
    if mine.keys() != other.keys():
        raise ParityError(f"{label}: the harnesses scored different rows ({sorted(mine)[:5]} vs {sorted(other)[:5]})")
    prompts_differ = [i for i in mine if mine[i].prompt != other[i]["context"]]
    pairs = [zip(mine[i].outputs[f"{metric}_loglikelihoods"], other[i]["loglikelihoods"], strict=True) for i in mine]
    ll_diff = max(abs(a - b) for pair in pairs for a, b in pair)
    metrics = [(metric, "acc")] + ([("mc1_norm", "acc_norm")] if norm else [])
    line = [f"{label}: n={len(mine)}"]
    differ = bool(prompts_differ) or ll_diff > TOLERANCE
    for ours, theirs in metrics:
        a = sum(r.metrics[ours] for r in mine.values()) / len(mine)
        b = sum(o[theirs] for o in other.values()) / len(other)
        worst = max(abs(mine[i].metrics[ours] - other[i][theirs]) for i in mine)
        differ = differ or worst > TOLERANCE
        line.append(f"{ours} {a:.4f} vs {theirs} {b:.4f}")
    line.append(f"prompts identical: {not prompts_differ}; max option ll diff {ll_diff:.1e}")
    print(" · ".join(line) + f" · {'MISMATCH' if differ else 'OK'}")
    for i in prompts_differ[:2]:
        print(f"  row {i}: mlbench {mine[i].prompt[-80:]!r}\n          lm-eval {other[i]['context'][-80:]!r}")
    return not differ


def mlbench_scores(task_name: str, lang: str, template: str, copy: Path, other: dict) -> dict[str, dict]:
    """By lm-eval's row number: mlbench's BLEU triple of the completion lm-eval logged (the
    scoring compared on the same text, whichever harness generated it), and whether
    mlbench's stop texts and token budget for the row are the ones lm-eval logged."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource
    from mlbench.records import Generation

    task = get_task(task_name)
    own = task.options_type(prompt=template) if task_name == "nortruthfulqa_gen" else None
    options = TaskOptions(source=DataSource("local", copy), own=own)
    data = task.load(lang, options)
    by_row = {_row(s.id): s for s in data.samples}
    scores = {}
    for row, logged in other.items():
        sample = by_row[row]  # both number the rows of the file from 0
        if sample.question.strip() != logged["question"]:
            raise ParityError(f"{task_name} {lang} row {row}: mlbench's question is not lm-eval's")
        request = task.gen_request(sample, data, options)
        _, metrics = task.score_gen(sample, Generation(logged["completion"], 0, "stop"))
        scores[row] = {name: float(metrics[name]) for name in (*BLEU, *ROUGE)}  # type: ignore[arg-type]
        scores[row]["same_stop"] = (list(request.stop), request.max_new_tokens) == (
            logged["until"],
            logged["max_new_tokens"],
        )
    return scores


def report_gen(label: str, mine: dict, other: dict, scored: dict[str, dict[str, float]]) -> bool:
    """One line: prompts, stop rules and completions compared, and BLEU (see the docstring)."""
    if mine.keys() != other.keys():
        raise ParityError(f"{label}: the harnesses scored different rows ({sorted(mine)[:5]} vs {sorted(other)[:5]})")
    prompts_differ = [i for i in mine if mine[i].prompt != other[i]["context"]]
    stops_differ = [i for i in other if not scored[i]["same_stop"]]
    same_text = [i for i in mine if mine[i].outputs["generation"] == other[i]["completion"]]
    # Every metric lm-eval logged for the row: BLEU, and ROUGE where the task reports it.
    logged = [m for m in (*BLEU, *ROUGE) if all(m in o for o in other.values())]
    missing = [m for m in ROUGE if m not in logged]
    bleu_gap = max(abs(scored[i][m] - other[i][m]) for i in other for m in logged)
    run_gap = max((abs(mine[i].metrics[m] - other[i][m]) for i in same_text for m in logged), default=0.0)
    ours = sum(r.metrics["bleu_acc"] for r in mine.values()) / len(mine)
    theirs = sum(o["bleu_acc"] for o in other.values()) / len(other)
    differ = (
        bool(prompts_differ or stops_differ) or len(same_text) < len(mine) or max(bleu_gap, run_gap) > BLEU_TOLERANCE
    )
    print(
        f"{label}: n={len(mine)} · bleu_acc {ours:.4f} vs {theirs:.4f} · prompts identical: {not prompts_differ}"
        f" · stop rules identical: {not stops_differ}"
        f" · completions identical: {len(same_text)}/{len(mine)} · {len(logged)} metrics (BLEU"
        f"{', ROUGE' if not missing else ''}) · max diff on lm-eval's text {bleu_gap:.1e},"
        f" on the run's {run_gap:.1e} · {'MISMATCH' if differ else 'OK'}"
    )
    for i in prompts_differ[:2]:
        print(f"  row {i}: mlbench {mine[i].prompt[-80:]!r}\n          lm-eval {other[i]['context'][-80:]!r}")
    for i in stops_differ[:1]:
        print(f"  row {i}: lm-eval stops at {other[i]['until']!r} within {other[i]['max_new_tokens']} tokens")
    for i in [i for i in mine if i not in same_text][:2]:
        print(f"  row {i}: mlbench {mine[i].outputs['generation']!r}\n          lm-eval {other[i]['completion']!r}")
    return not differ


def _row(sample_id: str) -> str:
    """lm-eval's row number of an mlbench sample id: the fixture's ids are the row numbers
    (TruthfulQA-X's id column, or NorEval's and AraDiCE's lang-0003), a template after @."""
    return str(int(sample_id.split("@")[0].split("-")[-1]))


def report_left_out(label: str, run_dir: Path, lang: str, template: str, theirs: dict[str, str]) -> bool:
    """One line when a harness leaves rows out: mlbench's (results.json's data_left_out; a
    row left out of MC2 alone counts for the MC2 task only) against the rows lm-eval's own
    process_results raises on. Different rows are a mismatch."""
    config = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))["config"]
    parts = config.get("data_left_out", {}).get(lang, [])
    counted = [p["ids"] for p in parts if p.get("metric") is None or (template == "mc2" and p["metric"] == "mc2")]
    mine = {_row(i) for ids in counted for i in ids}
    if not mine and not theirs:
        return True
    same = mine == set(theirs)
    shown = ", ".join(f"{row} ({error[:60]})" for row, error in sorted(theirs.items(), key=lambda kv: int(kv[0])))
    print(f"{label}: left out by mlbench {sorted(mine, key=int)}, by lm-eval's code {shown or 'none'}"
          f" · {'OK' if same else 'MISMATCH'}")  # fmt: skip
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--lm-eval-python")
    parser.add_argument("--real-text", type=Path, help="mlbench's local copies, for rows of real text")
    parser.add_argument("--limit", type=int, default=10, help="TruthfulQA-Multi questions per language of --real-text")
    parser.add_argument("--task", default="nortruthfulqa,aradice_truthfulqa", help="comma-separated; may be empty")
    parser.add_argument("--truthfulqax-tasks", type=Path, help="the openGPT-X fork's ogx_truthfulqax folder")
    parser.add_argument("--truthfulqax-langs", default="de,el,pt", help="TruthfulQA-X languages lm-eval runs")
    args = parser.parse_args()
    try:
        python = find_lm_eval_python(args.lm_eval_python)
        with tempfile.TemporaryDirectory(prefix="parity-templates-") as tmp:
            work = Path(tmp)
            sys.path.insert(0, str(REPO))
            from tests.benchmarks.declared.template_fixture import write_template_copy

            copy = write_template_copy(work / "copy")
            shutil.rmtree(copy / "upstream")  # the fixture's own task files: replaced by lm-eval's
            if args.real_text:
                add_real_text(args.real_text, copy, args.limit)
            add_defect_rows(copy)
            tasks = [task for task in args.task.split(",") if task]
            tqax = None
            if args.truthfulqax_tasks:
                tasks += [] if {"truthfulqax", "truthfulqax_gen"} & set(tasks) else ["truthfulqax"]
                tqax = (args.truthfulqax_tasks.resolve(), args.truthfulqax_langs.split(","))
            elif {"truthfulqax", "truthfulqax_gen"} & set(tasks):
                raise ParityError("TruthfulQA-X needs --truthfulqax-tasks (the fork's ogx_truthfulqax folder)")
            return 0 if check(args.model, copy, tasks, python, work, tqax) else 1
    except ParityError as error:
        print(f"parity_templates: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
