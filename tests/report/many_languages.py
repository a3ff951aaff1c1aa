"""Runs of a 32-language benchmark (Okapi's m_truthfulqa's 31 languages and English) for
two models: what the report and the explorer must stay readable at."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .synthetic_runs import write_run

LANGS32 = ("en ar bn ca da de es eu fr gu hi hr hu hy id it kn ml mr ne nl pt ro ru sk sr sv ta te uk vi zh").split()
MODELS = ("org/first-model", "org/second-model")


def write_32_languages(root: Path, *, questions: int = 12, samples: bool = False) -> Path:
    """Both models over ``LANGS32``: mc1 (0/1) and mc2 per question, a little lower the
    further a language is down the list, so that the languages' scores differ."""
    ids = [f"q{i:02d}" for i in range(questions)]
    for seed, model in enumerate(MODELS):
        rng = np.random.default_rng(seed)
        values = {}
        for k, lang in enumerate(LANGS32):
            mc2 = np.clip(rng.beta(4, 3, size=questions) - 0.01 * k, 0, 1)
            values[lang] = {
                "mc1": dict(zip(ids, (mc2 > 0.5).astype(float).tolist())),
                "mc2": dict(zip(ids, mc2.tolist())),
            }
        write_run(root, model, "m_truthfulqa_like", values, samples=samples)
    return root
