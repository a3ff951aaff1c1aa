"""Surface issues of a generated answer (docs/protocols.md#calmqa, applied to every generative task):
wrong language, repetition, and textual markers of a non-answer.

An answer has a surface issue when it is in the wrong language or repeats itself; the
markers (apology, refusal, ...) are reported beside, not counted in the issue.

>>> repetition("one two three four five " * 3)
False
>>> detect_language("Short.", "eu").status
'n/a'
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal, cast

from mlbench.languages import LANGUAGES, VARIETY_OF
from mlbench.metrics.descriptor import share
from mlbench.metrics.langid import UNKNOWN, UNRELIABLE, detect, judging_detector
from mlbench.metrics.markers import MARKERS, markers
from mlbench.metrics.o200k import o200k_encoding
from mlbench.records.jsontypes import JsonObject

__all__ = [
    "LangResult",
    "detect_language",
    "markers",
    "repetition",
    "surface_block",
    "surface_metrics",
    "SURFACE_METRICS",
    "SURFACE_DESCRIPTORS",
]

MIN_CHARACTERS = 20  # shorter answers say too little to identify their language
REPEAT_WINDOW = 20  # tokens in a repeated sequence
REPEAT_COUNT = 4  # occurrences that make it a repetition

# Per-sample metrics (0/1), in table order. Markers carry a prefix: "refusal" is also a
# benchmark's own judged metric (MSQAD).
SURFACE_METRICS = (
    "wrong_language",
    "repetition",
    "surface_issue",
    *(f"marker_{m}" for m in MARKERS),
)

# What each of them is (see descriptor.py): an issue is a flaw, so lower is better. A
# marker is reported beside the issues without a direction: a refusal or an apology is
# the right answer to some questions (MSQAD's adversarial prompts).
_MARKER_TEXT = {
    "apology": "the answer apologises",
    "refusal": "the answer declines to answer",
    "language_named": "the answer names the question's language",
    "translation_request": "the answer asks for a translation",
    "emoji": "the answer contains emoji",
}
SURFACE_DESCRIPTORS = (
    share(
        "wrong_language",
        "1 when the answer is not in the question's language",
        binary=True,
        higher_is_better=False,
        language_checked=True,
        label="wrong language",
    ),
    share("repetition", "1 when the answer repeats a 20-token run 4 times", binary=True, higher_is_better=False),
    share(
        "surface_issue",
        "1 for a wrong-language or repetitive answer",
        binary=True,
        higher_is_better=False,
        language_checked=True,
        label="any issue",
    ),
    *(
        share(f"marker_{m}", f"1 when {_MARKER_TEXT[m]}", binary=True, higher_is_better=None, label=m.replace("_", " "))
        for m in MARKERS
    ),
)

_FENCED_CODE = re.compile(r"```.*?(```|$)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"https?://\S+|www\.\S+")


@dataclass(frozen=True)
class LangResult:
    """``status``: ``ok`` (the expected language), ``wrong``, or ``n/a`` (not judged:
    ``reason`` says why)."""

    status: Literal["ok", "wrong", "n/a"]
    expected: str
    detected: str | None = None
    confidence: float | None = None
    detector: str | None = None
    reason: str | None = None

    def to_json(self) -> JsonObject:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def prose(text: str) -> str:
    """The answer without code blocks and URLs, which are not in any human language."""
    return _URL.sub(" ", _INLINE_CODE.sub(" ", _FENCED_CODE.sub(" ", text))).strip()


def detect_language(text: str, expected: str) -> LangResult:
    """Is ``text`` in ``expected``? ``n/a`` where no detector can tell that language (or
    mlbench does not know the code), or the answer is too short or only code and numbers."""
    if expected in UNRELIABLE:
        return LangResult("n/a", expected, reason="no reliable detector for this language")
    if expected not in LANGUAGES:
        return LangResult("n/a", expected, reason=f"mlbench does not know the language code {expected!r}")
    if judging_detector(expected) is None:
        # A detector that cannot name the language would call every answer wrong.
        return LangResult("n/a", expected, reason=f"no language detector knows {LANGUAGES[expected].name}")
    if len(text.strip()) < MIN_CHARACTERS:
        return LangResult("n/a", expected, reason=f"shorter than {MIN_CHARACTERS} characters")
    body = prose(text)
    if sum(ch.isalpha() for ch in body) < MIN_CHARACTERS:
        return LangResult("n/a", expected, reason="code, numbers or links only")
    found = detect(body, expected)
    if found.code in UNKNOWN:
        return LangResult("n/a", expected, reason="the detector could not tell", detector=found.detector)
    status: Literal["ok", "wrong"] = "ok" if found.code in (expected, VARIETY_OF.get(expected)) else "wrong"
    return LangResult(status, expected, found.code, round(found.confidence, 4), found.detector)


def repetition(text: str, window: int = REPEAT_WINDOW, count: int = REPEAT_COUNT) -> bool:
    """True when some run of ``window`` o200k_base tokens occurs ``count`` or more times
    (occurrences may overlap)."""
    tokens = o200k_encoding().encode(text, disallowed_special=())
    if len(tokens) < window:
        return False
    runs = Counter(tuple(tokens[i : i + window]) for i in range(len(tokens) - window + 1))
    return max(runs.values()) >= count


def surface_block(text: str, lang: str) -> JsonObject:
    """The ``surface`` block saved with a generated sample."""
    language = detect_language(text, lang)
    repeated = repetition(text)
    return {
        "language": language.to_json(),
        "repetition": repeated,
        "markers": [*sorted(markers(text, lang))],
        "issue": language.status == "wrong" or repeated,
    }


def surface_metrics(block: JsonObject, lang: str) -> dict[str, float]:
    """Per-sample 0/1 values of SURFACE_METRICS (``block``: as ``surface_block`` builds it).
    ``wrong_language`` is absent where the language was not judged (n/a), and
    ``marker_language_named`` for English questions."""
    # cast: surface_block's shape (two flags, the language's result, the marker names).
    values = {
        "repetition": float(cast(bool, block["repetition"])),
        "surface_issue": float(cast(bool, block["issue"])),
    }
    language = cast(JsonObject, block["language"])
    if language["status"] != "n/a":
        values["wrong_language"] = float(language["status"] == "wrong")
    found = set(cast("list[str]", block["markers"]))
    for marker in MARKERS:
        if marker == "language_named" and lang == "en":
            continue
        values[f"marker_{marker}"] = float(marker in found)
    return {name: values[name] for name in SURFACE_METRICS if name in values}
