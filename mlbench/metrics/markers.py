"""Textual markers of a non-answer: apology, refusal, naming the question's language,
asking for a translation, emoji (SPEC.md §5). The phrase lists live in
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
from functools import cache, lru_cache

from mlbench.languages import LANGUAGES
from mlbench.resources import resource_dir

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

MARKERS = ("apology", "refusal", "language_named", "translation_request", "emoji")
PHRASE_MARKERS = ("apology", "refusal", "translation_request")

# Pictographic emoji and their modifiers; not arrows, check marks or other symbols that
# plain text uses.
EMOJI = re.compile(
    "[\U0001f300-\U0001f5ff\U0001f600-\U0001f64f\U0001f680-\U0001f6ff\U0001f900-\U0001f9ff"
    "\U0001fa70-\U0001faff\u2600-\u26ff\u2700-\u27bf\U0001f1e6-\U0001f1ff]"
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
    parts = [re.escape(p) if _NO_SPACES.match(p) else r"(?<!\w)" + re.escape(p) for p in phrases]
    return re.compile("|".join(parts))


def language_names(lang: str) -> tuple[str, ...]:
    """The language's English name and what it calls itself, lower-cased."""
    english = LANGUAGES[lang].name.lower() if lang in LANGUAGES else None
    native = phrase_table().get(lang, {}).get("names", [])
    return tuple(dict.fromkeys(filter(None, [english, *native])))


def phrases(lang: str, marker: str) -> tuple[str, ...]:
    """The phrases of ``marker`` an answer to a ``lang`` question is checked against:
    English ones, and the language's own."""
    table = phrase_table()
    own = table.get(lang, {}).get(marker, []) if lang != "en" else []
    return tuple(dict.fromkeys([*table["en"].get(marker, []), *own]))


def markers(text: str, lang: str) -> set[str]:
    """The markers found in an answer to a question asked in ``lang``.

    ``language_named`` is not checked for English questions: naming English is ordinary
    there, not a sign that the model noticed a foreign language.
    """
    lowered = text.lower()
    found = {m for m in PHRASE_MARKERS if (p := _pattern(phrases(lang, m))) is not None and p.search(lowered)}
    if lang != "en" and (p := _pattern(language_names(lang))) is not None and p.search(lowered):
        found.add("language_named")
    if EMOJI.search(text):
        found.add("emoji")
    return found
