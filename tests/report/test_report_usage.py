"""The report's API usage table counts each language once: from the folder the report took
the language from, not from every folder that holds a copy of it."""

import json
import os
from pathlib import Path

from mlbench.report import collect
from mlbench.report.usage import usage_by_model, usage_table

from .synthetic_runs import planted_values, write_run


def tokens(prompt: int) -> dict:
    return {"model": {"prompt_tokens": prompt, "completion_tokens": 1, "estimated": False}}


def with_usage(run_dir: Path, usage: dict) -> None:
    """``run_dir``'s results.json as a run that counted ``usage`` (language → block) writes it."""
    path = run_dir / "results.json"
    data = json.loads(path.read_text())
    blocks = list(usage.values())
    total = sum(b["model"]["prompt_tokens"] for b in blocks)
    data["config"]["usage"] = usage
    data["config"]["usage_total"] = {"model": {**tokens(total)["model"], "completion_tokens": len(blocks)}}
    path.write_text(json.dumps(data))


def test_a_language_rerun_into_a_second_folder_counts_once(tmp_path):
    values = planted_values(1, gap_lang=None)
    first = write_run(tmp_path / "a", "org/m", "truthfulqa_multi", {"en": values["en"], "es": values["es"]})
    second = write_run(tmp_path / "b", "org/m", "truthfulqa_multi", {"en": values["en"]})
    with_usage(first, {"en": tokens(1000), "es": tokens(300)})
    with_usage(second, {"en": tokens(1100)})  # en run again: its tokens replace the first en's
    os.utime(first / "results_en.json", (1, 1))  # the first folder's en is the older copy
    usage = usage_by_model(collect(tmp_path))
    assert usage == {"org/m": {"model": {"prompt_tokens": 1400, "completion_tokens": 2, "estimated": False}}}
    assert ["org/m", "1,400", "2", "n/a"] in usage_table(collect(tmp_path))[1]
