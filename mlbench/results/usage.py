"""A run's API usage in its result files, and the words that show it.

Each ``results_<lang>.json`` holds ``config.usage = {lang: block}``, summed from the
language's samples when the language is written (and again after a judge adds its own),
so a resumed or rejudged run counts every sample once, as it is saved. ``results.json``
holds every language's block and ``config.usage_total``. A block::

    {"model": {"prompt_tokens": 1200, "completion_tokens": 80, "estimated": false,
               "cost_usd": 0.0038},
     "judges": {"truth": {"prompt_tokens": ..., "completion_tokens": ..., "cost_usd": ...}}}

``cost_usd`` is there only where the user gave prices (``-M/-J prompt_price`` and
``completion_price``, USD per million tokens), read from the run's recorded settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mlbench.records import SampleRecord
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.usage import Prices, Usage, summed

COST = "cost_usd"
USAGE_KEYS = ("usage", "usage_total")  # a config's usage: replaced whole, never updated in place


def prices_in(settings: JsonValue) -> Prices | None:
    """The prices recorded in a model's (``config.engine``) or a judge's settings."""
    if not isinstance(settings, dict):
        return None
    return Prices.given(_price(settings.get("prompt_price")), _price(settings.get("completion_price")))


def _price(value: JsonValue) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def part(usage: Usage, prices: Prices | None) -> JsonObject:
    """One model's or judge's tokens, with their cost when priced."""
    return {**usage.to_json(), **({COST: round(prices.cost(usage), 6)} if prices else {})}


def usage_block(records: Iterable[SampleRecord], config: JsonObject) -> JsonObject | None:
    """The usage of a language's samples (None: no API request was counted), priced with
    what ``config`` (the language's settings) records for the model and each judge kind."""
    records = list(records)
    block: JsonObject = {}
    model = summed(r.usage for r in records)
    if model is not None:
        block["model"] = part(model, prices_in(config.get("engine")))
    judges = settings if isinstance(settings := config.get("judges"), dict) else {}
    kinds = dict.fromkeys(kind for r in records for kind in r.judge_usage)
    judged = {kind: summed(r.judge_usage.get(kind) for r in records) for kind in kinds}
    if judged:
        block["judges"] = {k: part(u, prices_in(judges.get(k))) for k, u in judged.items() if u is not None}
    return block or None


def language_usage(lang: str, records: Iterable[SampleRecord], config: JsonObject) -> JsonObject:
    """What a language's settings get: ``{"usage": {lang: block}}``, or nothing."""
    block = usage_block(records, config)
    return {"usage": {lang: block}} if block else {}


def _add(parts: list[JsonValue]) -> JsonObject:
    """The sum of model (or judge) parts; a cost only when every part has one."""
    total = summed(Usage.from_json(p) for p in parts) or Usage()
    costs = [cost for p in parts if isinstance(p, dict) and isinstance(cost := p.get(COST), int | float)]
    return {**total.to_json(), **({COST: round(sum(costs), 6)} if len(costs) == len(parts) else {})}


def _block(value: JsonValue) -> JsonObject:
    """``value`` as a usage block; ValueError when it is not an object."""
    if not isinstance(value, dict):
        raise ValueError("usage is not an object")
    return value


def _judges(block: JsonObject) -> JsonObject:
    judges = block.get("judges") or {}
    if not isinstance(judges, dict):
        raise ValueError("usage.judges is not an object")
    return judges


def total_block(given: Iterable[JsonValue]) -> JsonObject:
    """The blocks of several languages (or runs) added up; ValueError on another shape."""
    blocks = [_block(b) for b in given]
    total: JsonObject = {}
    models = [b["model"] for b in blocks if "model" in b]
    if models:
        total["model"] = _add(models)
    kinds = dict.fromkeys(k for b in blocks for k in _judges(b))
    if kinds:
        total["judges"] = {k: _add([_judges(b)[k] for b in blocks if k in _judges(b)]) for k in kinds}
    return total


def check_usage(config: JsonObject) -> None:
    """ValueError when a saved config's ``usage`` or ``usage_total`` has another shape than
    this module writes, so that a reader names the file instead of failing later."""
    usage, total = config.get("usage", {}), config.get("usage_total", {})
    if not isinstance(usage, dict) or not isinstance(total, dict):
        raise ValueError("usage and usage_total must be objects")
    for block in [_block(b) for b in [*usage.values(), total]]:
        total_block([block])
        for part in [block.get("model"), *_judges(block).values()]:
            cost = part.get(COST, 0) if isinstance(part, dict) else 0
            if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
                raise ValueError(f"usage.{COST} is not a number >= 0")


def run_usage(per_language: Mapping[str, JsonValue], ordered: Iterable[str]) -> JsonObject:
    """What results.json's config gets from its languages' blocks: each, and the total."""
    blocks = {lang: per_language[lang] for lang in ordered if isinstance(per_language.get(lang), dict)}
    return {"usage": blocks, "usage_total": total_block(blocks.values())} if blocks else {}


# -- words ----------------------------------------------------------------------------


def money(cost: float) -> str:
    return f"${cost:,.2f}" if cost >= 0.01 or cost == 0 else f"${cost:.4f}"


def part_text(block: JsonObject, short: bool = False) -> str:
    """``12,345 prompt + 678 completion tokens, $0.04`` (``~`` before an estimate)."""
    mark = "~" if block.get("estimated") else ""
    tokens = f"{block.get('prompt_tokens', 0):,} + {block.get('completion_tokens', 0):,}"
    text = f"{mark}{tokens}" if short else f"{mark}{tokens.replace(' +', ' prompt +')} completion tokens"
    cost = block.get(COST)
    return f"{text}, {money(cost)}" if isinstance(cost, int | float) else text


def judges_part(block: JsonObject) -> JsonObject | None:
    """Every judge kind's usage added up (None: no judge counted)."""
    judges = block.get("judges")
    return _add(list(judges.values())) if isinstance(judges, dict) and judges else None


def usage_line(config: JsonObject) -> str | None:
    """The run summary's lines (each under 80 columns at most counts): ``API usage: 12,345
    prompt + 678 completion tokens, $0.04`` and ``judge usage: ...`` (None: a run that
    counted no tokens); ``(~ estimated)`` ends a line whose counts are partly ours."""
    total = config.get("usage_total")
    if not isinstance(total, dict) or not total:
        return None
    parts = [("API usage", total.get("model")), ("judge usage", judges_part(total))]
    lines = [
        f"{label}: {part_text(block)}{' (~ estimated)' if block.get('estimated') else ''}"
        for label, block in parts
        if isinstance(block, dict)
    ]
    return "\n".join(lines) or None
