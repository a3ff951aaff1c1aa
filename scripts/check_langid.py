"""How well does mlbench's language-id routing recognise CaLMQA's own questions?

The CaLMQA paper ran its detector on the questions to estimate its accuracy per language
(its appendix: 100% in 14 languages; Fijian 98.67, Russian 97.33, Tongan 96.92, Samoan 92.00,
Wolof 90.00, Kirundi 35.85; Balochi, Hiligaynon and Papiamento 0). This prints ours beside
theirs. In a run, the last four languages are not judged at all (n/a).

    python scripts/check_langid.py --data-dir ../shared/datasets
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from mlbench.benchmarks.calmqa.loader import load_rows
from mlbench.data.source import DataSource
from mlbench.metrics.langid import UNRELIABLE, detect, polyglot_available

# The per-language accuracies the paper names (%); the other 14 languages are its 100% ones.
PAPER = {
    "fj": 98.67, "ru": 97.33, "to": 96.92, "sm": 92.00, "wo": 90.00, "rn": 35.85, "bal": 0.0, "hil": 0.0, "pap": 0.0,
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    args = parser.parse_args()
    rows = load_rows(DataSource("local", args.data_dir))
    right: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    started = time.perf_counter()
    for row in rows:
        total[row["lang"]] += 1
        right[row["lang"]] += detect(row["question"], row["lang"]).code == row["lang"]
    elapsed = time.perf_counter() - started
    print(f"CLD2 through {'polyglot' if polyglot_available() else 'pycld2'}; {len(rows)} questions")
    print(f"{'lang':<5} {'n':>4} {'mlbench %':>10} {'paper %':>8}")
    for lang in sorted(total, key=lambda code: (-right[code] / total[code], code)):
        paper = f"{PAPER.get(lang, 100.0):.2f}"
        note = "  (not judged in runs)" if lang in UNRELIABLE else ""
        print(f"{lang:<5} {total[lang]:>4} {100 * right[lang] / total[lang]:>10.2f} {paper:>8}{note}")
    print(f"{1000 * elapsed / len(rows):.2f} ms per question")


if __name__ == "__main__":
    main()
