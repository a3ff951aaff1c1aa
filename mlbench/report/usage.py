"""The report's API usage table: per model, the prompt and completion tokens its runs and
their judges cost on OpenAI-compatible servers, and the cost where prices were given. Read
from each results.json's ``config.usage`` (``results/usage.py``), a language's block from the
run folder the report took the language from, so a language run again into a second folder
counts once; a report of runs that counted no tokens (local models) has no such table."""

from __future__ import annotations

from mlbench.records.jsontypes import JsonObject
from mlbench.report.collect import Collection
from mlbench.results.usage import COST, judges_part, money, total_block

INTRO = "API usage: tokens as the servers counted them (~: counted by mlbench where a server sent none)."
NONE = "n/a"  # no price given: no cost


def usage_by_model(collection: Collection) -> dict[str, JsonObject]:
    """Each model's usage over every task and language of the report, in report order."""
    blocks: dict[str, list[JsonObject]] = {}
    for run in collection.runs:
        for lang, entry in run.languages.items():
            usage = run.configs.get(str(entry.run_dir), {}).get("usage")
            block = usage.get(lang) if isinstance(usage, dict) else None
            if isinstance(block, dict) and block:
                blocks.setdefault(run.model, []).append(block)
    return {model: total_block(found) for model, found in blocks.items()}


def _tokens(block: JsonObject | None, side: str) -> str:
    if block is None:
        return "-"
    return f"{'~' if block.get('estimated') else ''}{block.get(side, 0):,}"


def _cost(block: JsonObject | None) -> str:
    if block is None:
        return "-"
    cost = block.get(COST)  # a number where present: total_block adds the priced parts up
    return money(cost) if isinstance(cost, int | float) else NONE


def usage_table(collection: Collection) -> tuple[list[str], list[list[str]]]:
    """The header and a row per model (no rows: nothing was counted); markdown.py and
    html.py draw it with their own table helpers, after ``INTRO``."""
    usage = usage_by_model(collection)
    judged = any("judges" in block for block in usage.values())
    header = ["model", "prompt tokens", "completion tokens", "cost"]
    header += ["judge prompt tokens", "judge completion tokens", "judge cost"] if judged else []
    rows = []
    for model, block in usage.items():
        model_part, judge = block.get("model"), judges_part(block)
        own = model_part if isinstance(model_part, dict) else None  # total_block's sum, where counted
        row = [model, _tokens(own, "prompt_tokens"), _tokens(own, "completion_tokens"), _cost(own)]
        if judged:
            row += [_tokens(judge, "prompt_tokens"), _tokens(judge, "completion_tokens"), _cost(judge)]
        rows.append(row)
    return header, rows
