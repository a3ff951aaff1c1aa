"""lm-eval 0.4.x output written for the tests: ``<out>/<org>__<model>/results_<stamp>.json``
and ``samples_<task>_<stamp>.jsonl``, one line per document as lm-eval logs it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STAMP = "2025-01-02T03-04-05.678901"
MODEL = "acme/tiny-lm"


def gen_line(doc: dict[str, Any], prompt: str, completion: str, bleu: dict[str, float]) -> dict[str, Any]:
    return {
        "doc_id": int(doc["id"]) - 1,
        "doc": doc,
        "target": "A: " + doc["best_answer"],
        "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["!\n\n", "Q:", ".\n\n"]}}},
        "resps": [[completion]],
        "filtered_resps": [completion],
        **bleu,
    }


def mc_line(doc: dict[str, Any], context: str, choices: list[str], lls: list[float]) -> dict[str, Any]:
    return {
        "doc_id": int(doc["id"]) - 1,
        "doc": doc,
        "target": 0,
        "arguments": {f"gen_args_{i}": {"arg_0": context, "arg_1": " " + choice} for i, choice in enumerate(choices)},
        # lm-eval ≥ 0.4.3 writes responses as text (its sanitize_list).
        "resps": [[[str(ll), "False"]] for ll in lls],
        "filtered_resps": [[str(ll), "False"] for ll in lls],
        "acc": 0.0,
    }


def write_run(
    folder: Path, lines_by_task: dict[str, list[Any]], reported: dict[str, Any] | None = None, fewshot: int = 6
) -> Path:
    """One lm-eval run of ``MODEL`` over the tasks, ``fewshot``-shot; a line that is a str
    is written as is (a damaged line)."""
    run_dir = folder / MODEL.replace("/", "__")
    run_dir.mkdir(parents=True, exist_ok=True)
    for task, lines in lines_by_task.items():
        text = "".join(
            (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n" for line in lines
        )
        (run_dir / f"samples_{task}_{STAMP}.jsonl").write_text(text, encoding="utf-8")
    results = {
        "results": reported or {task: {"alias": task} for task in lines_by_task},
        "configs": {task: {"task": task, "num_fewshot": fewshot} for task in lines_by_task},
        "n-shot": {task: fewshot for task in lines_by_task},
        "config": {
            "model": "hf",
            "model_args": f"pretrained={MODEL}",
            "model_sha": "abc123",
            "model_dtype": "torch.float32",
        },
        "git_hash": "deadbee",
        "lm_eval_version": "0.4.13",
        "model_name": MODEL,
        "chat_template": None,
        "fewshot_as_multiturn": False,
    }
    (run_dir / f"results_{STAMP}.json").write_text(json.dumps(results), encoding="utf-8")
    return run_dir
