"""Reading a judge's free text back into a label: strict first, then a tolerant fallback.

A judge is asked to end with ``Verdict: <label>`` (or, for the claim extractor, a list).
Models do not always obey: they add markdown, answer in the language of the text they
judged, or bury the label in a sentence. The strict reading accepts only the requested
shape; the tolerant one looks for exactly one known label near the end. Whatever neither
can read is ``UNPARSED`` — counted in the tables, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

UNPARSED = "unparsed"

# Words a judge may use for yes / no, in the languages of the benchmarks (the prompts ask
# for English, but a judge sometimes follows the language of the answer it read).
YES_WORDS = (
    "yes", "y", "true", "sí", "si", "sim", "bai", "oui", "ja", "da", "да", "evet",
    "是", "是的", "对", "對", "हाँ", "हां", "예", "네", "はい", "نعم", "כן",
)  # fmt: skip
NO_WORDS = (
    "no", "n", "false", "ez", "non", "não", "nao", "nein", "nee", "nu", "нет", "hayır",
    "否", "不是", "不", "不对", "नहीं", "아니요", "아니오", "いいえ", "لا", "לא",
)  # fmt: skip
YES_NO: dict[str, str] = {**{w: "yes" for w in YES_WORDS}, **{w: "no" for w in NO_WORDS}}

_MARKER = re.compile(r"^(?:final\s+)?(?:verdict|label|answer|judgement|judgment|decision)\s*[:：]\s*", re.IGNORECASE)
_DECORATION = " \t*_`\"'“”‘’«»()[]{}.,;:!?¡¿。！？、：·-–—#>"
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,3}[.)]|\(\d{1,3}\))\s+(.*\S)\s*$")
_NO_CLAIMS = re.compile(r"^(?:claims?\s*[:：]\s*)?(?:none|no claims?|no verifiable claims?|n/a)$", re.IGNORECASE)


def _plain(text: str) -> str:
    """Lower case, markdown and surrounding punctuation removed, spaces collapsed."""
    return " ".join(text.strip(_DECORATION).lower().split())


def _lines(text: str) -> list[str]:
    return [line for line in (raw.strip() for raw in text.splitlines()) if line.strip(_DECORATION)]


def _is_cjk(word: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in word)


def _labels_in(line: str, vocabulary: Mapping[str, str]) -> list[str]:
    """Labels named in ``line``, longest phrases first, each span used once (so
    "neither contradictory nor similar" does not also count as "contradictory")."""
    remaining = line.lower()
    found: list[tuple[int, str]] = []
    for phrase in sorted(vocabulary, key=len, reverse=True):
        if _is_cjk(phrase):
            # No word boundaries in CJK text: only a line that starts with the word counts.
            stripped = remaining.strip(_DECORATION)
            if stripped.startswith(phrase) and not found:
                found.append((0, vocabulary[phrase]))
                remaining = " " * len(remaining)
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")
        for match in pattern.finditer(remaining):
            found.append((match.start(), vocabulary[phrase]))
        remaining = pattern.sub(lambda m: " " * len(m.group()), remaining)
    return [label for _, label in sorted(found)]


def parse_label(text: str, vocabulary: Mapping[str, str], *, look_back: int = 3) -> str:
    """The label a judge's output ends with. ``vocabulary`` maps every accepted phrase
    (lower case) to its label.

    Strict: the last line is ``Verdict: <phrase>`` or just ``<phrase>``. Tolerant: the
    closest of the last ``look_back`` lines that names exactly one label (a line naming two
    different labels is ambiguous and read as nothing)."""
    lines = _lines(text)
    if not lines:
        return UNPARSED
    last = _plain(_MARKER.sub("", lines[-1].strip(_DECORATION)))
    if last in vocabulary:
        return vocabulary[last]
    for line in reversed(lines[-look_back:]):
        labels = set(_labels_in(_MARKER.sub("", line.strip(_DECORATION)), vocabulary))
        if len(labels) == 1:
            return labels.pop()
        if len(labels) > 1:
            return UNPARSED
    return UNPARSED


def parse_yes_no(text: str) -> str:
    """``yes``, ``no`` or ``unparsed`` from a judge told to answer with one word.

    Strict: the whole output is the word (``Answer:`` and punctuation allowed). Tolerant:
    the first word of the last line, or of the first line ("Yes, because …"); the two
    must agree. Words inside a sentence are never read ("not true" is not a yes)."""
    lines = _lines(text)
    if not lines:
        return UNPARSED
    found = set()
    for line in dict.fromkeys([lines[-1], lines[0]]):
        plain = _plain(_MARKER.sub("", line.strip(_DECORATION)))
        words = plain.split()
        if plain in YES_NO:
            found.add(YES_NO[plain])
        elif words and words[0].strip(_DECORATION) in YES_NO:
            found.add(YES_NO[words[0].strip(_DECORATION)])
        elif words and _is_cjk(plain):
            found.update(label for word, label in YES_NO.items() if _is_cjk(word) and plain.startswith(word))
    return found.pop() if len(found) == 1 else UNPARSED


def label_vocabulary(labels: Sequence[str], synonyms: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each label accepted as itself (any case), plus synonym phrases → label."""
    vocabulary = {label.lower(): label for label in labels}
    vocabulary.update({phrase.lower(): label for phrase, label in (synonyms or {}).items()})
    return vocabulary


def parse_claims(text: str) -> list[str] | None:
    """The claims of a claim-extraction output, or None when it cannot be read.

    Strict and tolerant at once: every bulleted or numbered line is a claim (the prompt asks
    for ``- claim`` lines); an output that says there are none (``NONE``) is an empty list.
    Prose with neither is unreadable."""
    claims = [match.group(1).strip() for line in text.splitlines() if (match := _BULLET.match(line))]
    if claims:
        return claims
    lines = _lines(text)
    if lines and _NO_CLAIMS.match(_plain(lines[-1])):
        return []
    return None
