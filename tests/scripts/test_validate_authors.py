"""scripts/validate_authors.py on logs in the authors' layout (lm-eval's samples and
results files of truthfulqa-multi_gen_<lang>): every logged document that is mlbench's
copy gets mlbench's prompt and BLEU, and the script says so and exits 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.engine.lm_eval_import.test_import_lm_eval import gen_logs  # noqa: F401  (the fixture)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "validate_authors.py"


def test_the_authors_logs_are_compared_prompt_and_bleu(gen_logs, fixture_datasets):  # noqa: F811
    logs, lines = gen_logs
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--logs", str(logs), "--data-dir", str(fixture_datasets)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"all: 1 logs, {len(lines)} samples, {len(lines)} of them mlbench's copy of the question" in done.stdout
    assert f"prompts equal: {len(lines)}; BLEU triples within 1e-06: {len(lines)}" in done.stdout
