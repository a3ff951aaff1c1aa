"""scripts/parity_okapi.py without lm-eval: the rows of real text it writes in the Okapi
layout are read by the declared m_truthfulqa as lm-eval's YAMLs would read them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.declarative.data import read_language

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def parity_okapi():
    sys.path.insert(0, str(SCRIPTS))  # it imports parity_lm_eval as a sibling
    try:
        import parity_okapi

        yield parity_okapi
    finally:
        sys.path.remove(str(SCRIPTS))


def write_copies(root: Path) -> Path:
    """A folder shaped like mlbench's local copies: TruthfulQA-Multi JSON and one MSQAD topic."""
    for lang in ("es", "ca", "eu"):
        rows = [
            {"question": f"{lang} q{i}?", "mc1_targets": {"choices": ["yes", "no"], "labels": [1, 0]},
             "mc2_targets": {"choices": ["yes", "sure", "no"], "labels": [1, 1, 0]}}
            for i in range(3)
        ]  # fmt: skip
        (root / "truthfulqa-multi" / lang).mkdir(parents=True)
        (root / "truthfulqa-multi" / lang / "validation.json").write_text(json.dumps(rows), encoding="utf-8")
    names = ("Chinese", "Hindi", "German")
    article = {f"{n}_{part}": f"{n} {part}" for n in names for part in ("question", "acceptable_response")}
    article |= {f"{n}_non-acceptable_response": f"{n} bad" for n in names}
    (root / "msqad").mkdir()
    (root / "msqad" / "Topic.json").write_text(json.dumps([article] * 2), encoding="utf-8-sig")
    return root


def test_real_text_rows_are_written_in_the_okapi_layout(parity_okapi, tmp_path):
    copy = tmp_path / "copy"
    langs = parity_okapi.write_real_text(write_copies(tmp_path / "copies"), copy, limit=2)
    assert langs == ["es", "ca", "eu", "zh", "hi", "de"]
    spec = get_task("m_truthfulqa").spec
    es = read_language(spec, "es", copy).samples
    assert [s.question for s in es] == ["es q0?", "es q1?"] and es[0].mc2_labels == (1, 1, 0)
    hi = read_language(spec, "hi", copy).samples
    assert hi[0].mc1_choices == ("Hindi acceptable_response", "Hindi bad") and hi[0].id == "hi-0000"
    yaml = parity_okapi.OKAPI_TASK_YAML.format(tasks_dir="T", lang="hi", metric="mc2", path="P")
    assert "include: T/okapi/truthfulqa_multilingual/truthfulqa_hi_mc2.yaml" in yaml and "val: P" in yaml
