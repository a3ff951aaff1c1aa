"""In the released TruthfulQA-Multi primers, best_answer is the first MC1 and MC2 choice, so
lm-eval's few-shot prompt (first choice) and mlbench's (best_answer) are the same text."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent.parent / "scripts"


@pytest.mark.parametrize("lang", ["en", "es", "ca", "gl", "eu"])
def test_lm_eval_primer_equals_mlbench_primer(full_data_dir, lang):
    sys.path.insert(0, str(SCRIPTS))  # validate_real imports parity_lm_eval as a sibling
    try:
        spec = importlib.util.spec_from_file_location("validate_real", SCRIPTS / "validate_real.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    module.check_primer(full_data_dir, lang)  # raises when the first choices differ
