"""Synthetic runs for the report tests, written through the same functions a real run
uses (aggregate → write_language → merge_run), so results.json, results_<lang>.json and
the per-question values have their real shape; and runs as older versions left them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

# The registry fills the metric catalog, whose descriptors and headline merge_run writes into
# results.json: imported here, the runs get their task's headline whichever test runs first.
import mlbench.benchmarks  # noqa: F401
from mlbench.records import RunResult, SampleRecord
from mlbench.results import merge_run, model_slug, write_language
from mlbench.results.aggregation import aggregate

LANGS = ("en", "es", "ca", "gl", "eu")


def write_run(
    root: Path,
    model: str,
    task: str,
    values: dict[str, dict[str, dict[str, float]]],
    *,
    samples: bool = False,
    config_hash: str = "synthetic",
) -> Path:
    """``values``: language → metric → question id → value. With ``samples``, also the
    samples files a run appends (id and metrics only)."""
    records = {
        lang: [SampleRecord(q, lang, metrics={m: col[q] for m, col in by_metric.items() if q in col}) for q in ids]
        for lang, by_metric in values.items()
        for ids in [sorted({q for column in by_metric.values() for q in column})]
    }
    order = list(dict.fromkeys(m for by_metric in values.values() for m in by_metric))
    return write_records(root, model, task, records, order, config_hash=config_hash, samples=samples)


def write_records(
    root: Path,
    model: str,
    task: str,
    records: dict[str, list[SampleRecord]],
    order: list[str],
    *,
    config_hash: str = "synthetic",
    samples: bool = False,
    langs: tuple[str, ...] = LANGS,
    settings: dict[str, str] | None = None,
) -> Path:
    """Each language's ``records`` written as a run writes them (metrics in ``order``);
    with ``samples``, also its samples file; ``settings``: more of what results.json records."""
    run_dir = root / model_slug(model) / task
    run_dir.mkdir(parents=True, exist_ok=True)
    for lang, written in records.items():
        for record in written:
            record.config_hash = config_hash
        config = {"seed": 0, "timings_s": {lang: 0.5}, "fewshot": 6, **(settings or {})}
        write_language(run_dir, aggregate(lang, written, order, 0), config, config_hash, [r.id for r in written])
        if samples:
            lines = [json.dumps(r.to_json()) for r in written]
            (run_dir / f"samples_{lang}.jsonl").write_text("\n".join(lines) + "\n")
    merge_run(run_dir, RunResult(model, task, {"seed": 0, **(settings or {})}, {}), config_hash, order, langs)
    return run_dir


def without_per_question_in_results_json(run_dir: Path) -> None:
    """``run_dir`` as versions before results.json held the per-question values wrote it
    (they were in results_<lang>.json only)."""
    path = run_dir / "results.json"
    data = json.loads(path.read_text())
    del data["per_question"]
    path.write_text(json.dumps(data, indent=2))


def planted_values(seed: int, *, gap_lang: str | None, n: int = 200) -> dict[str, dict[str, dict[str, float]]]:
    """mc1 (yes/no), mc2 (continuous) and bleu_max (0-100, many ties) per language.
    Every language repeats English's values with symmetric noise, except ``gap_lang``,
    which answers 40% fewer questions right (mc1) and 0.2 lower in mc2."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i:03d}" for i in range(n)]
    mc1 = (rng.random(n) < 0.6).astype(float)
    mc2 = rng.beta(4, 3, size=n)
    bleu = rng.integers(0, 6, size=n) * 10.0
    out = {}
    for lang in LANGS:
        flip = rng.random(n) < 0.1  # as many right → wrong as wrong → right, on average
        lang_mc1 = np.where(flip, 1 - mc1, mc1)
        lang_mc2 = np.clip(mc2 + rng.normal(0, 0.05, size=n), 0, 1)
        if lang == gap_lang:
            lang_mc1 = np.where(rng.random(n) < 0.4, 0.0, lang_mc1)
            lang_mc2 = np.clip(lang_mc2 - 0.2, 0, 1)
        lang_bleu = bleu if lang == "en" else np.where(rng.random(n) < 0.2, rng.integers(0, 6, size=n) * 10.0, bleu)
        out[lang] = {
            "mc1": dict(zip(ids, lang_mc1.tolist())),
            "mc2": dict(zip(ids, lang_mc2.tolist())),
            "bleu_max": dict(zip(ids, lang_bleu.tolist())),
        }
    return out
