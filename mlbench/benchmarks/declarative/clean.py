"""The text clean-up steps a declared benchmark may name (``[clean]``), each one small and
exact, so that a benchmark's own pre-processing is written as a list of steps rather than
code. The question, and the answers of the answer-list layout, are already stripped of
surrounding whitespace when read (option lists are kept as given); the steps then run in
the order the file lists them.

The four steps after ``strip`` are those of the Okapi TruthfulQA pre-processing that
lm-eval's ``truthfulqa_multilingual`` tasks apply to each question, in that order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_BRACKETED = re.compile(r"\[.*?\]")

CLEAN_STEPS: dict[str, Callable[[str], str]] = {
    "strip": str.strip,  # whitespace at both ends
    "title_period": lambda text: text.replace(" [title]", ". "),
    "drop_brackets": lambda text: _BRACKETED.sub("", text),  # every [...] span, shortest match
    # Each pair of spaces becomes one, in one pass as str.replace does it: three become two.
    "squeeze_spaces": lambda text: text.replace("  ", " "),
}


def clean_text(text: str, steps: tuple[str, ...]) -> str:
    """``text`` after ``steps`` (names of CLEAN_STEPS, checked when the file was read)."""
    for step in steps:
        text = CLEAN_STEPS[step](text)
    return text
