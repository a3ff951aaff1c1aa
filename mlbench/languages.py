"""Per-language facts in one table: ISO code → name, script, resource level.

``no_comment`` is the language's "I have no comment." as TruthfulQA-Multi uses it (an
extra true reference for BLEU); None where no benchmark defines one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Script = Literal["Latin", "Arabic", "Han", "Hebrew", "Devanagari", "Japanese", "Hangul", "Cyrillic"]
Resource = Literal["high", "mid", "low"]


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    script: Script
    resource: Resource
    no_comment: str | None = None


_LANGUAGES = (
    Language("en", "English", "Latin", "high", "I have no comment."),
    Language("es", "Spanish", "Latin", "high", "No tengo ningún comentario."),
    Language("ca", "Catalan", "Latin", "mid", "No tinc cap comentari."),
    Language("gl", "Galician", "Latin", "low", "Non teño ningún comentario."),
    Language("eu", "Basque", "Latin", "low", "Iruzkinik ez."),
    Language("de", "German", "Latin", "high"),
    Language("zh", "Chinese", "Han", "high"),
    Language("hi", "Hindi", "Devanagari", "mid"),
    Language("ko", "Korean", "Hangul", "high"),
    Language("ar", "Arabic", "Arabic", "high"),
    Language("he", "Hebrew", "Hebrew", "mid"),
    Language("hu", "Hungarian", "Latin", "mid"),
    Language("ja", "Japanese", "Japanese", "high"),
    Language("ru", "Russian", "Cyrillic", "high"),
    Language("aa", "Afar", "Latin", "low"),
    Language("bal", "Balochi", "Arabic", "low"),
    Language("fo", "Faroese", "Latin", "low"),
    Language("fj", "Fijian", "Latin", "low"),
    Language("hil", "Hiligaynon", "Latin", "low"),
    Language("rn", "Kirundi", "Latin", "low"),
    Language("pap", "Papiamento", "Latin", "low"),
    Language("ps", "Pashto", "Arabic", "low"),
    Language("sm", "Samoan", "Latin", "low"),
    Language("to", "Tongan", "Latin", "low"),
    Language("tn", "Tswana", "Latin", "low"),
    Language("wo", "Wolof", "Latin", "low"),
)

LANGUAGES: dict[str, Language] = {lang.code: lang for lang in _LANGUAGES}


def get_language(code: str) -> Language:
    """The language with ISO code ``code``; KeyError if mlbench does not know it."""
    return LANGUAGES[code]


def no_comment(code: str) -> str | None:
    """The language's "I have no comment." reference, if it has one."""
    lang = LANGUAGES.get(code)
    return lang.no_comment if lang else None
