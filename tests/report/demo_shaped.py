"""A results folder shaped like `make demo`'s: one model on truthfulqa_multi (five
languages, 16 metrics) and veritasqa (four languages, 19 metrics), every metric the demo
saves, Basque's and the markers' as the demo has them (``marker_language_named`` never in
English, so it has no gap to test)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mlbench.metrics.catalog import describe

from .synthetic_runs import write_run

SURFACE = [
    "wrong_language",
    "repetition",
    "surface_issue",
    "marker_apology",
    "marker_refusal",
    "marker_translation_request",
    "marker_emoji",
]
JUDGED = ["truthful", "informative", "truthful_informative"]
TASKS = {
    "truthfulqa_multi": (
        ("en", "es", "ca", "gl", "eu"),
        ["mc1", "mc2", "bleu_max", "bleu_acc", "bleu_diff", *SURFACE, *JUDGED, "marker_language_named"],
    ),
    "veritasqa": (
        ("en", "es", "ca", "gl"),
        ["mc1", "mc2", "mc3", "lprob_max", "lprob_diff", "bleu_max", "bleu_acc", "bleu_diff"]
        + [*SURFACE, *JUDGED, "marker_language_named"],
    ),
}
MODEL = "tiny-model"


def _column(metric: str, rng: np.random.Generator, ids: list[str]) -> dict[str, float]:
    about = describe(metric)
    if about.binary:
        values = (rng.random(len(ids)) < 0.4).astype(float)
    elif about.kind == "logprob":
        values = rng.normal(-120, 20, len(ids))
    elif about.kind == "score":
        values = rng.integers(0, 6, len(ids)) * 0.1
    else:
        values = rng.random(len(ids))
    return dict(zip(ids, values.tolist()))


def write_demo_shaped(root: Path, *, questions: int = 20) -> Path:
    """The two tasks' runs under ``root``; returns ``root``."""
    ids = [f"q{i:02d}" for i in range(questions)]
    for seed, (task, (langs, metrics)) in enumerate(TASKS.items()):
        rng = np.random.default_rng(seed)
        values = {
            lang: {m: _column(m, rng, ids) for m in metrics if not (m == "marker_language_named" and lang == "en")}
            for lang in langs
        }
        write_run(root, MODEL, task, values)
    return root
