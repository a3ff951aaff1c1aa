"""How big and how quick `mlbench explore` is on a full benchmark: a synthetic TruthfulQA-Multi
run of 817 questions × 5 languages × 2 models, each sample with its question, a generated
answer, a reference, 8 scored options, metrics, two judges' verdicts (one with a written
rationale) and surface flags. Prints the file size, the build time (end to end, the CLI
in a fresh process) and, from headless Chromium, the time to first render and to apply a
"right in en, wrong in eu" filter. Targets (issue 30): under 15 MB, build under 5 s, first
render under 1.5 s, filter under 200 ms. Not a timed test: figures for the note.

    python scripts/bench_explore.py [--questions 817] [--work DIR] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mlbench.records import RunResult, SampleRecord  # noqa: E402
from mlbench.results import append_samples, merge_run, write_language  # noqa: E402
from mlbench.results.aggregation import aggregate  # noqa: E402

LANGS = ("en", "es", "ca", "gl", "eu")
METRICS = ["mc1", "mc2", "bleu_max", "bleu_acc", "truthful", "informative", "repetition", "wrong_language"]
WORDS = "the model says that water boils at one hundred degrees at sea level but not on a mountain".split()


def _text(rng: np.random.Generator, n: int) -> str:
    return " ".join(rng.choice(WORDS, size=n))


def _record(rng: np.random.Generator, question: int, lang: str) -> SampleRecord:
    options = [{"text": _text(rng, 9), "logprob": float(-rng.gamma(4, 3)), "correct": i < 3} for i in range(8)]
    values = {"mc1": float(rng.random() < 0.4), "mc2": float(rng.random()), "bleu_max": float(rng.random() * 40),
              "bleu_acc": float(rng.random() < 0.5), "truthful": float(rng.random() < 0.6),
              "informative": float(rng.random() < 0.8), "repetition": float(rng.random() < 0.05),
              "wrong_language": float(rng.random() < 0.1)}  # fmt: skip
    return SampleRecord(
        str(question),
        lang,
        prompt=None,
        outputs={"answer": _text(rng, 40), "options": options},
        metrics=values,
        config_hash="bench",
        question=_text(rng, 14) + "?",
        reference=_text(rng, 12),
        surface={"language": {"status": "ok", "expected": lang}, "repetition": False, "markers": [], "issue": False},
        judges={
            "truth": {"label": "yes" if values["truthful"] else "no", "score": float(rng.random())},
            "relevance": {"label": "relevant", "output": _text(rng, 60)},
        },
    )


def build(root: Path, questions: int) -> None:
    rng = np.random.default_rng(0)
    for model in ("org/model-a", "org/model-b"):
        run_dir = root / model.replace("/", "__") / "truthfulqa_multi"
        run_dir.mkdir(parents=True)
        for lang in LANGS:
            records = [_record(rng, q, lang) for q in range(questions)]
            append_samples(run_dir / f"samples_{lang}.jsonl", records)
            config = {"model": model, "backend": "hf", "seed": 0, "timings_s": {lang: 1.0}}
            write_language(run_dir, aggregate(lang, records, METRICS, 0), config, "bench", [r.id for r in records])
        merge_run(run_dir, RunResult(model, "truthfulqa_multi", {"model": model, "backend": "hf"}, {}), "bench",
                  METRICS, LANGS)  # fmt: skip


def measure_browser(page: Path, chromium: str) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=args)
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        tab.goto(page.as_uri())
        tab.wait_for_selector("body[data-ready]")
        # From the start of navigation to the first questions on screen.
        first_render = tab.evaluate("performance.now()") / 1000
        filter_s = tab.evaluate(
            """() => {
                const started = performance.now();
                for (const [name, value] of [["metric", "mc1"], ["right", "en"], ["wrong", "eu"]]) {
                    const box = document.querySelector(`select[name=${name}]`);
                    box.value = value;
                    box.dispatchEvent(new Event("change"));
                }
                return (performance.now() - started) / 3 / 1000;
            }"""
        )
        print(f"shown after the filter: {tab.text_content('#count')}")
        browser.close()
    return first_render, filter_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=817)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    root = args.work or Path(tempfile.mkdtemp(prefix="bench-explore-"))
    build(root / "results", args.questions)
    page = root / "explorer.html"
    started = time.perf_counter()
    command = [sys.executable, "-m", "mlbench", "explore", str(root / "results"), "-o", str(page)]
    subprocess.run(command, check=True, capture_output=True)
    build_s = time.perf_counter() - started
    size_mb = page.stat().st_size / 1e6
    first_render, filter_s = measure_browser(page, args.chromium)
    cells = args.questions * len(LANGS) * 2
    print(f"{args.questions} questions × {len(LANGS)} languages × 2 models = {cells:,} cells")
    print(f"file size        {size_mb:6.1f} MB   (target < 15 MB)")
    print(f"build (CLI)      {build_s:6.2f} s    (target < 5 s, start-up included)")
    print(f"first render     {first_render:6.2f} s    (target < 1.5 s)")
    print(f"apply a filter   {filter_s * 1000:6.0f} ms   (target < 200 ms; mean of 3 changes)")


if __name__ == "__main__":
    main()
