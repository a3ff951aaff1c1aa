"""Which language is a text in? CaLMQA's detector routing (docs/protocols.md#calmqa).

CLD2 for the languages it knows better (Afar, Fijian, Tongan, Hindi, Russian, ...), with
py3langid as the fallback when CLD2 cannot decide; py3langid for every other language it
knows, CLD2 alone for one only CLD2 knows, and none for a language neither knows (the
surface check then leaves the answer unjudged). Which label each detector uses for a
language is in mlbench/languages.py.
CLD2 is reached through polyglot's detector when polyglot is installed (what the paper
used) and through ``pycld2`` otherwise: polyglot's detector is a thin layer over the same
library, and the two give the same answer (tests/metrics/test_langid.py checks it).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from mlbench.languages import LANGUAGES, VARIETY_OF

# Expected languages whose answers CLD2 judges (the paper's split).
CLD2_FIRST = frozenset({"aa", "hil", "tn", "fj", "sm", "to", "rn", "wo", "hi", "fo", "ps", "ru", "ar", "bal"})
# No detector tells these apart from their neighbours (paper: 0% for Balochi, Hiligaynon
# and Papiamento, 36% for Kirundi, taken for Kinyarwanda): their answers are not judged.
UNRELIABLE = frozenset({"bal", "hil", "pap", "rn"})
# Detector codes → ours beyond the table's labels (mlbench/languages.py, which maps CLD2's
# "iw" to "he"): CLD2's second label for Chinese and its old code for Javanese, which
# mlbench has no entry for; py3langid splits off Wu and Cantonese, which for an answer to
# a Chinese question is a misreading of written Chinese. (polyglot reports CLD2's codes
# through ICU locales: "zh-Hant" comes back as "zh_Hant".)
ALIASES = {"zh-Hant": "zh", "zh_Hant": "zh", "jw": "jv", "wuu": "zh", "yue": "zh"}
UNKNOWN = {"un", "xx", "zxx"}
# Label → our code for each detector, from the table.
_LABELLED = [lang for lang in LANGUAGES.values() if lang.code not in VARIETY_OF]  # a variety shares its label
_FROM_CLD2 = {lang.cld2: lang.code for lang in _LABELLED if lang.cld2 is not None}
_FROM_PY3LANGID = {lang.py3langid: lang.code for lang in _LABELLED if lang.py3langid is not None}

DetectorName = Literal["cld2", "py3langid"]


@dataclass(frozen=True)
class Detection:
    code: str  # our code, or "un" when the detector could not tell
    confidence: float  # 0..1
    detector: str  # "polyglot", "cld2" or "py3langid"


def clean_for_detection(text: str) -> str:
    """The text without control characters and lone surrogates, which CLD2 rejects as
    invalid UTF-8 (and polyglot with it)."""
    kept = (ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs"))
    return re.sub(r"\s+", " ", "".join(kept)).strip()


def our_code(label: str, detector: DetectorName) -> str:
    """The code mlbench uses for what ``detector`` reports as ``label`` (itself when
    mlbench has no entry for it)."""
    table = _FROM_CLD2 if detector == "cld2" else _FROM_PY3LANGID
    return table.get(label) or ALIASES.get(label, label)


def judging_detector(expected: str) -> DetectorName | None:
    """The detector whose verdict decides whether an answer is in ``expected``: CLD2 for
    the paper's CLD2_FIRST languages, else py3langid where it knows the language, else
    CLD2 where only it does; None where neither knows it or mlbench does not know the code."""
    lang = LANGUAGES.get(expected)
    if lang is None:
        return None
    if VARIETY_OF.get(expected, expected) in CLD2_FIRST:
        return "cld2" if lang.cld2 is not None else None
    if lang.py3langid is not None:
        return "py3langid"
    return "cld2" if lang.cld2 is not None else None


def detect(text: str, expected: str) -> Detection:
    """The language of ``text`` by the detector docs/protocols.md#calmqa-surface assigns to ``expected``."""
    if VARIETY_OF.get(expected, expected) in CLD2_FIRST:
        found = detect_cld2(text)
        if found.code not in UNKNOWN:
            return found
        return detect_py3langid(text)
    if judging_detector(expected) == "cld2":
        # No py3langid fallback: it cannot name this language, so its guess would turn
        # every answer CLD2 is unsure of into a wrong-language one.
        return detect_cld2(text)
    return detect_py3langid(text)


def detect_cld2(text: str) -> Detection:
    """CLD2's reliable answer, else its best effort, else "un" (polyglot's rule)."""
    text = clean_for_detection(text)
    polyglot = _polyglot_detector()
    if polyglot is not None:
        return _via_polyglot(polyglot, text)
    return _via_pycld2(text)


def _via_pycld2(text: str) -> Detection:
    import pycld2

    reliable, _, top = pycld2.detect(text.encode("utf-8"), bestEffort=False)
    if not reliable:
        reliable, _, top = pycld2.detect(text.encode("utf-8"), bestEffort=True)
    if not reliable:
        return Detection("un", 0.0, "cld2")
    _, code, percent, _ = top[0]
    return Detection(our_code(code, "cld2"), percent / 100, "cld2")


def _via_polyglot(detector_class: Any, text: str) -> Detection:
    from polyglot.detect.base import UnknownLanguage

    try:
        detector = detector_class(text, quiet=False)
    except UnknownLanguage:
        return Detection("un", 0.0, "polyglot")
    language = detector.language
    return Detection(our_code(language.code, "cld2"), language.confidence / 100, "polyglot")


@lru_cache(maxsize=1)
def _polyglot_detector() -> Any:
    try:
        import logging

        from polyglot.detect import Detector

        # polyglot logs a warning for every best-effort guess; that is its normal path here.
        logging.getLogger("polyglot.detect.base").setLevel(logging.ERROR)
        return Detector
    except Exception:  # noqa: BLE001 - missing, or PyICU built against another ICU
        return None


def polyglot_available() -> bool:
    return _polyglot_detector() is not None


def detect_py3langid(text: str) -> Detection:
    code, probability = _py3langid().classify(clean_for_detection(text))
    return Detection(our_code(code, "py3langid"), float(probability), "py3langid")


@lru_cache(maxsize=1)
def _py3langid() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    # Normalised probabilities, so that the confidence reads as one.
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
