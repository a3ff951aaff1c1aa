"""Per-language facts in one table: ISO code → name, script, resource level, ISO 639-3
code and the label each language detector gives the language.

``resource`` is a rough measure of how much text a language has on the web, and so how
well models are trained on it: ``high`` (a major share of web text: English, French,
Chinese, ...), ``mid`` (a national language with a solid web presence), ``low`` (little
web text; tables mark these with a dagger). CaLMQA's languages follow the paper's split;
the rest are our judgement, informed by each language's share of Common Crawl (the
measure Okapi groups its languages by).

``py3langid`` and ``cld2`` are the labels the two detectors of the surface checks
(mlbench/metrics/langid.py) report for the language; None where the detector does not
know it. tests/test_languages.py checks them against the detectors' own label sets.

``no_comment`` is the language's "I have no comment." as TruthfulQA-Multi uses it (an
extra true reference for BLEU); None where no benchmark defines one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Script = Literal[
    "Latin",
    "Arabic",
    "Han",
    "Hebrew",
    "Devanagari",
    "Japanese",
    "Hangul",
    "Cyrillic",
    "Bengali",
    "Gujarati",
    "Armenian",
    "Kannada",
    "Malayalam",
    "Tamil",
    "Telugu",
]
Resource = Literal["high", "mid", "low"]


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    script: Script
    resource: Resource
    no_comment: str | None = None
    # Keyword-only, so that the positional fields above keep their places; no defaults,
    # so that a new language must say what each detector calls it (None: unknown to it).
    iso639_3: str = field(kw_only=True)
    py3langid: str | None = field(kw_only=True)
    cld2: str | None = field(kw_only=True)


_LANGUAGES = (
    Language("en", "English", "Latin", "high", "I have no comment.", iso639_3="eng", py3langid="en", cld2="en"),
    Language(
        "es", "Spanish", "Latin", "high", "No tengo ningún comentario.", iso639_3="spa", py3langid="es", cld2="es"
    ),
    Language("ca", "Catalan", "Latin", "mid", "No tinc cap comentari.", iso639_3="cat", py3langid="ca", cld2="ca"),
    Language(
        "gl", "Galician", "Latin", "low", "Non teño ningún comentario.", iso639_3="glg", py3langid="gl", cld2="gl"
    ),
    Language("eu", "Basque", "Latin", "low", "Iruzkinik ez.", iso639_3="eus", py3langid="eu", cld2="eu"),
    Language("de", "German", "Latin", "high", iso639_3="deu", py3langid="de", cld2="de"),
    Language("zh", "Chinese", "Han", "high", iso639_3="zho", py3langid="zh", cld2="zh"),
    Language("hi", "Hindi", "Devanagari", "mid", iso639_3="hin", py3langid="hi", cld2="hi"),
    Language("ko", "Korean", "Hangul", "high", iso639_3="kor", py3langid="ko", cld2="ko"),
    Language("ar", "Arabic", "Arabic", "high", iso639_3="ara", py3langid="ar", cld2="ar"),
    # CLD2 keeps Hebrew's withdrawn ISO 639-1 code.
    Language("he", "Hebrew", "Hebrew", "mid", iso639_3="heb", py3langid="he", cld2="iw"),
    Language("hu", "Hungarian", "Latin", "mid", iso639_3="hun", py3langid="hu", cld2="hu"),
    Language("ja", "Japanese", "Japanese", "high", iso639_3="jpn", py3langid="ja", cld2="ja"),
    Language("ru", "Russian", "Cyrillic", "high", iso639_3="rus", py3langid="ru", cld2="ru"),
    Language("aa", "Afar", "Latin", "low", iso639_3="aar", py3langid=None, cld2="aa"),
    Language("bal", "Balochi", "Arabic", "low", iso639_3="bal", py3langid=None, cld2=None),
    Language("fo", "Faroese", "Latin", "low", iso639_3="fao", py3langid="fo", cld2="fo"),
    Language("fj", "Fijian", "Latin", "low", iso639_3="fij", py3langid=None, cld2="fj"),
    Language("hil", "Hiligaynon", "Latin", "low", iso639_3="hil", py3langid=None, cld2=None),
    Language("rn", "Kirundi", "Latin", "low", iso639_3="run", py3langid=None, cld2="rn"),
    Language("pap", "Papiamento", "Latin", "low", iso639_3="pap", py3langid=None, cld2=None),
    Language("ps", "Pashto", "Arabic", "low", iso639_3="pus", py3langid="ps", cld2="ps"),
    Language("sm", "Samoan", "Latin", "low", iso639_3="smo", py3langid=None, cld2="sm"),
    Language("to", "Tongan", "Latin", "low", iso639_3="ton", py3langid=None, cld2="to"),
    Language("tn", "Tswana", "Latin", "low", iso639_3="tsn", py3langid=None, cld2="tn"),
    Language("wo", "Wolof", "Latin", "low", iso639_3="wol", py3langid=None, cld2="wo"),
    # Okapi's machine-translated TruthfulQA (m_truthfulqa) adds these.
    Language("bn", "Bengali", "Bengali", "low", iso639_3="ben", py3langid="bn", cld2="bn"),
    Language("da", "Danish", "Latin", "mid", iso639_3="dan", py3langid="da", cld2="da"),
    Language("fr", "French", "Latin", "high", iso639_3="fra", py3langid="fr", cld2="fr"),
    Language("gu", "Gujarati", "Gujarati", "low", iso639_3="guj", py3langid="gu", cld2="gu"),
    Language("hr", "Croatian", "Latin", "mid", iso639_3="hrv", py3langid="hr", cld2="hr"),
    Language("hy", "Armenian", "Armenian", "low", iso639_3="hye", py3langid="hy", cld2="hy"),
    Language("id", "Indonesian", "Latin", "mid", iso639_3="ind", py3langid="id", cld2="id"),
    Language("it", "Italian", "Latin", "high", iso639_3="ita", py3langid="it", cld2="it"),
    Language("kn", "Kannada", "Kannada", "low", iso639_3="kan", py3langid="kn", cld2="kn"),
    Language("ml", "Malayalam", "Malayalam", "low", iso639_3="mal", py3langid="ml", cld2="ml"),
    Language("mr", "Marathi", "Devanagari", "low", iso639_3="mar", py3langid="mr", cld2="mr"),
    Language("ne", "Nepali", "Devanagari", "low", iso639_3="nep", py3langid="ne", cld2="ne"),
    Language("nl", "Dutch", "Latin", "high", iso639_3="nld", py3langid="nl", cld2="nl"),
    Language("pt", "Portuguese", "Latin", "high", iso639_3="por", py3langid="pt", cld2="pt"),
    Language("ro", "Romanian", "Latin", "mid", iso639_3="ron", py3langid="ro", cld2="ro"),
    Language("sk", "Slovak", "Latin", "mid", iso639_3="slk", py3langid="sk", cld2="sk"),
    # Serbian is written in both Cyrillic and Latin; Okapi's translations use Cyrillic.
    Language("sr", "Serbian", "Cyrillic", "mid", iso639_3="srp", py3langid="sr", cld2="sr"),
    Language("sv", "Swedish", "Latin", "mid", iso639_3="swe", py3langid="sv", cld2="sv"),
    Language("ta", "Tamil", "Tamil", "low", iso639_3="tam", py3langid="ta", cld2="ta"),
    Language("te", "Telugu", "Telugu", "low", iso639_3="tel", py3langid="te", cld2="te"),
    Language("uk", "Ukrainian", "Cyrillic", "mid", iso639_3="ukr", py3langid="uk", cld2="uk"),
    Language("vi", "Vietnamese", "Latin", "high", iso639_3="vie", py3langid="vi", cld2="vi"),
)

LANGUAGES: dict[str, Language] = {lang.code: lang for lang in _LANGUAGES}


def get_language(code: str) -> Language:
    """The language with ISO code ``code``; KeyError if mlbench does not know it."""
    return LANGUAGES[code]


def no_comment(code: str) -> str | None:
    """The language's "I have no comment." reference, if it has one."""
    lang = LANGUAGES.get(code)
    return lang.no_comment if lang else None
