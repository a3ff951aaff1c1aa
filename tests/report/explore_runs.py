"""Runs for the explorer's tests: two tiny models (other seeds) on the sample set, MC and
generation in en and es, and a user's questions whose text carries markup payloads."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import run_model

PAYLOAD_SCRIPT = "<script>alert('script')</script>"
PAYLOAD_IMG = "<img src=x onerror=alert('img')>"
RUN = "--task truthfulqa_multi --lang en,es --sample --mode all --backend hf --no-cache --limit 8 --max-new-tokens 12"


def payload_file(path: Path) -> Path:
    rows = [
        {"id": f"x{i}", "lang": lang, "question": f"{PAYLOAD_SCRIPT} question {i} {PAYLOAD_IMG}?",
         "best_answer": f"Yes {PAYLOAD_IMG}.", "correct_answers": [f"Yes {PAYLOAD_IMG}."],
         "incorrect_answers": [f"No {PAYLOAD_SCRIPT}."]}
        for i in range(3) for lang in ("en", "es")
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def make_explore_runs(out: Path, first: Path, second: Path) -> Path:
    for model in (first, second):
        result = run_model(model, out, RUN)
        assert result.exit_code == 0, result.output
    data = payload_file(out.parent / "payload.jsonl")
    result = run_model(first, out, "--task veritasqa --no-cache --mode mc --lang en,es", "--data-file", data)
    assert result.exit_code == 0, result.output
    return out
