"""Textual markers of a non-answer: apology, refusal, naming the question's language,
asking for a translation, emoji (docs/protocols.md#calmqa). The phrase lists live in
``data/surface/markers.toml``; this module only matches them.

>>> sorted(markers("I'm sorry, could you translate your question?", "eu"))
['apology', 'translation_request']
>>> sorted(markers("Barkatu, ez dut ulertzen zer galdetzen duzun.", "eu"))
['apology', 'refusal']
>>> sorted(markers("I see you're speaking Basque! 😊", "eu"))
['emoji', 'language_named']
"""

from __future__ import annotations

import re
import sys
from functools import cache, lru_cache

from mlbench.languages import LANGUAGES
from mlbench.resources import resource_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MARKERS = ("apology", "refusal", "language_named", "translation_request", "emoji")
PHRASE_MARKERS = ("apology", "refusal", "translation_request")
# The phrase lists of markers.toml each marker reads: a request declined outright
# ("I'm sorry, but I can't") is a refusal too.
MARKER_LISTS = {
    "apology": ("apology",),
    "refusal": ("refusal", "decline"),
    "translation_request": ("translation_request",),
}
# The lists that make a language's own non-answer phrases ("decline" only serves MSQAD's
# refusal patterns and exists only beside them).
PHRASE_LISTS = ("apology", "refusal", "translation_request")

# Emoji: the pictographs beyond the Basic Multilingual Plane, the few BMP symbols drawn as
# emoji by default (Unicode's Emoji_Presentation), and any symbol followed by the emoji
# variation selector. Arrows, check marks and stars that plain text uses are not emoji.
EMOJI = re.compile(
    "[\U0001f000-\U0001faff]"
    "|[\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693"
    "\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd"
    "\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf"
    "\u2b1b\u2b1c\u2b50\u2b55]"
    "|[\u2190-\u2bff]\ufe0f"
)
# Scripts written without spaces between words: their phrases match anywhere.
_NO_SPACES = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=1)
def phrase_table() -> dict[str, dict[str, list[str]]]:
    """Per language code: ``names`` and the phrase lists, lower-cased."""
    raw = tomllib.loads((resource_dir("data") / "surface" / "markers.toml").read_text(encoding="utf-8"))
    return {lang: {key: [p.lower() for p in phrases] for key, phrases in entry.items()} for lang, entry in raw.items()}


@cache
def _pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    if not phrases:
        return None
    return re.compile("|".join(_phrase_regex(p) for p in phrases))


def _phrase_regex(phrase: str) -> str:
    stem = phrase.endswith("*")
    body = re.escape(phrase.rstrip("*"))
    if _NO_SPACES.match(phrase):
        return body
    return r"(?<!\w)" + body + ("" if stem else r"(?!\w)")


def language_names(lang: str) -> tuple[str, ...]:
    """The language's English name and what it calls itself, lower-cased."""
    english = LANGUAGES[lang].name.lower() if lang in LANGUAGES else None
    native = phrase_table().get(lang, {}).get("names", [])
    return tuple(dict.fromkeys(filter(None, [english, *native])))


def has_own_phrases(lang: str) -> bool:
    """Whether markers.toml has apology, refusal or translation-request phrases in ``lang``
    itself; answers to questions in any other language are checked with the English
    lists only."""
    entry = phrase_table().get(lang, {})
    return any(entry.get(key) for key in PHRASE_LISTS)


def own_phrase_languages() -> tuple[str, ...]:
    """The languages with phrase lists of their own (English included), sorted."""
    return tuple(sorted(lang for lang in phrase_table() if has_own_phrases(lang)))


def phrases(lang: str, phrase_list: str) -> tuple[str, ...]:
    """The phrases of ``phrase_list`` (a key of markers.toml) an answer to a ``lang``
    question is checked against: English ones, and the language's own."""
    table = phrase_table()
    own = table.get(lang, {}).get(phrase_list, []) if lang != "en" else []
    return tuple(dict.fromkeys([*table["en"].get(phrase_list, []), *own]))


def _normalized(text: str) -> str:
    # Models write the typographic apostrophe as often as the ASCII one ("I can’t").
    return text.lower().replace("\u2019", "'")


def _marker_phrases(lang: str, marker: str) -> tuple[str, ...]:
    return tuple(p for key in MARKER_LISTS[marker] for p in phrases(lang, key))


def first_phrase(text: str, lang: str, phrase_list: str) -> str | None:
    """The first phrase of ``phrase_list`` found in ``text`` (as written there, lower-cased),
    or None."""
    pattern = _pattern(phrases(lang, phrase_list))
    found = pattern.search(_normalized(text)) if pattern is not None else None
    return found.group(0) if found else None


def markers(text: str, lang: str) -> set[str]:
    """The markers found in an answer to a question asked in ``lang``.

    ``language_named`` is not checked for English questions: naming English is ordinary
    there, not a sign that the model noticed a foreign language.
    """
    lowered = _normalized(text)
    found = {m for m in PHRASE_MARKERS if (p := _pattern(_marker_phrases(lang, m))) is not None and p.search(lowered)}
    if lang != "en" and (p := _pattern(language_names(lang))) is not None and p.search(lowered):
        found.add("language_named")
    if EMOJI.search(text):
        found.add("emoji")
    return found
