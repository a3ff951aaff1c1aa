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

``match_language`` reads a language as a user names it (``--lang``, ``--ref-lang``, a run
file, a surface file's rows) against the codes a benchmark or a run has: case and ``_``
are ignored, a BCP-47 tag names its language where only the language is there (``pt-BR``
→ ``pt``), and an English name or ISO 639-3 code names the language too (``Spanish``,
``spa`` → ``es``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from mlbench.errors import clipped, closest

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
    "Greek",
    "Ethiopic",
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
    # NorEval's two written standards of Norwegian; py3langid calls Bokmål "no".
    Language("nb", "Norwegian Bokmål", "Latin", "mid", iso639_3="nob", py3langid="no", cld2="no"),
    Language("nn", "Norwegian Nynorsk", "Latin", "low", iso639_3="nno", py3langid="nn", cld2="nn"),
    # AraDiCE's varieties of Arabic, which no detector tells apart (see VARIETY_OF).
    Language("arz", "Egyptian Arabic", "Arabic", "low", iso639_3="arz", py3langid="ar", cld2="ar"),
    Language("apc", "Levantine Arabic", "Arabic", "low", iso639_3="apc", py3langid="ar", cld2="ar"),
    Language("arb", "Modern Standard Arabic", "Arabic", "mid", iso639_3="arb", py3langid="ar", cld2="ar"),
)

# openGPT-X's TruthfulQA-X (truthfulqax) adds these European languages.
_EU20 = (
    Language("bg", "Bulgarian", "Cyrillic", "mid", iso639_3="bul", py3langid="bg", cld2="bg"),
    Language("cs", "Czech", "Latin", "mid", iso639_3="ces", py3langid="cs", cld2="cs"),
    Language("el", "Greek", "Greek", "mid", iso639_3="ell", py3langid="el", cld2="el"),
    Language("et", "Estonian", "Latin", "mid", iso639_3="est", py3langid="et", cld2="et"),
    Language("fi", "Finnish", "Latin", "mid", iso639_3="fin", py3langid="fi", cld2="fi"),
    Language("lt", "Lithuanian", "Latin", "mid", iso639_3="lit", py3langid="lt", cld2="lt"),
    Language("lv", "Latvian", "Latin", "mid", iso639_3="lav", py3langid="lv", cld2="lv"),
    Language("pl", "Polish", "Latin", "high", iso639_3="pol", py3langid="pl", cld2="pl"),
    Language("sl", "Slovenian", "Latin", "mid", iso639_3="slv", py3langid="sl", cld2="sl"),
)

# Varieties whose detector label is their language's: a detector's "ar" is read as Arabic,
# and an answer detected as Arabic counts as written in the variety that was asked for.
VARIETY_OF = {"arz": "ar", "apc": "ar", "arb": "ar"}

# Uhura-TruthfulQA (uhura_truthfulqa) adds these African languages; the paper's title calls
# them low-resource. Northern Sotho is py3langid's "nso" and CLD2's Pedi ("nso").
_UHURA = (
    Language("am", "Amharic", "Ethiopic", "low", iso639_3="amh", py3langid="am", cld2="am"),
    Language("ha", "Hausa", "Latin", "low", iso639_3="hau", py3langid="ha", cld2="ha"),
    Language("nso", "Northern Sotho", "Latin", "low", iso639_3="nso", py3langid="nso", cld2="nso"),
    Language("sw", "Swahili", "Latin", "low", iso639_3="swa", py3langid="sw", cld2="sw"),
    Language("yo", "Yoruba", "Latin", "low", iso639_3="yor", py3langid="yo", cld2="yo"),
    Language("zu", "Zulu", "Latin", "low", iso639_3="zul", py3langid="zu", cld2="zu"),
)

LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (*_LANGUAGES, *_EU20, *_UHURA)}


def get_language(code: str) -> Language:
    """The language with ISO code ``code``; KeyError if mlbench does not know it."""
    return LANGUAGES[code]


def no_comment(code: str) -> str | None:
    """The language's "I have no comment." reference, if it has one."""
    lang = LANGUAGES.get(code)
    return lang.no_comment if lang else None


def _folded(code: str) -> str:
    """A code as compared: lower case, ``_`` read as ``-`` (``pt_BR`` is ``pt-br``)."""
    return code.strip().casefold().replace("_", "-")


# ISO 15924 script subtags → the table's scripts (``sr-Latn``, ``zh-Hans``).
SCRIPT_SUBTAGS: dict[str, Script] = {
    "latn": "Latin",
    "arab": "Arabic",
    "hans": "Han",
    "hant": "Han",
    "hani": "Han",
    "hebr": "Hebrew",
    "ethi": "Ethiopic",
    "deva": "Devanagari",
    "jpan": "Japanese",
    "hang": "Hangul",
    "kore": "Hangul",
    "cyrl": "Cyrillic",
    "beng": "Bengali",
    "gujr": "Gujarati",
    "armn": "Armenian",
    "knda": "Kannada",
    "mlym": "Malayalam",
    "taml": "Tamil",
    "telu": "Telugu",
    "grek": "Greek",
}


def _parts(folded: str) -> tuple[str, str | None, bool]:
    """A folded tag's language, its script subtag (4 letters) if any, and whether the rest
    is only region subtags (2 letters or 3 digits), which alone may be dropped."""
    primary, *rest = folded.split("-")
    script = rest.pop(0) if rest and len(rest[0]) == 4 and rest[0].isalpha() else None
    # isascii(): a region's 3 digits are 0-9 (isdigit() alone takes ٤١٩ and ²²²).
    regions_only = all(
        (len(sub) == 2 and sub.isalpha()) or (len(sub) == 3 and sub.isascii() and sub.isdigit()) for sub in rest
    )
    return primary, script, regions_only


def _script_fits(script: str, code: str) -> bool:
    """A bare code of the table is written in the script a ``script`` subtag names."""
    known = LANGUAGES.get(code)
    return known is not None and SCRIPT_SUBTAGS.get(script) == known.script


def _primary_code(primary: str) -> str:
    """The table's code of a language named by its English name or ISO 639-3 code."""
    for lang in LANGUAGES.values():
        if primary in (lang.name.casefold(), lang.iso639_3):
            return lang.code
    return primary


def match_language(given: str, available: Sequence[str]) -> str | None:
    """The code of ``available`` that ``given`` names, or None. In this order: the code
    itself, whatever its case (``EN`` → ``en``; a benchmark's own tag keeps it: ``pt_br`` →
    ``pt-BR``); the tag without its region (``pt-BR`` → ``pt``, ``sr-Latn-RS`` → ``sr-Latn``);
    a tag's bare language where the table writes it in the tag's script (``zh-Hans`` → ``zh``,
    but ``sr-Latn`` is not ``sr``: Cyrillic); a bare language's one tag there (``zh`` →
    ``zh-Hans``; ``pt-PT`` is never ``pt-BR``); the language's English name or ISO 639-3 code
    (``spa`` → ``es``, ``spa-ES`` → ``es``)."""
    folded = {_folded(code): code for code in available}
    wanted = _folded(given)
    if wanted in folded:
        return folded[wanted]
    primary, script, regions_only = _parts(wanted)
    if primary == wanted:
        tags = [code for key, code in folded.items() if key.split("-")[0] == primary]
        if len(tags) == 1:
            return tags[0]
    elif regions_only:
        kept = f"{primary}-{script}" if script else primary
        if kept in folded:
            return folded[kept]
        if script is not None and primary in folded and _script_fits(script, primary):
            return folded[primary]
    code = _primary_code(primary)
    if code != primary:
        return match_language(wanted.replace(primary, code, 1), available)
    return None


def _variety(folded: str, code: str) -> str:
    """``sr`` as ``sr, in Cyrillic script`` where ``folded`` names a script, else the code."""
    known = LANGUAGES.get(_folded(code))
    return f"{code}, in {known.script} script" if "-" not in code and known and _parts(folded)[1] else code


def _named(folded: str) -> str:
    """A tag as words: ``Serbian in Latin script``, ``Portuguese``."""
    primary, script, _ = _parts(folded)
    known = LANGUAGES.get(_primary_code(primary))
    name = known.name if known else primary
    return f"{name} in {SCRIPT_SUBTAGS[script]} script" if script in SCRIPT_SUBTAGS else name


def language_hint(given: str, available: Sequence[str]) -> str:
    """What an error line says beside a language that ``available`` lacks: for a tag whose
    language is there in another region or script, what there is (`` (there is only pt-BR)``);
    the nearest code or name there (`` (did you mean es?)``), else the language's name when
    mlbench knows it (`` (Portuguese)``: the benchmark lacks that language), else ""."""
    wanted = _folded(given)
    primary = _primary_code(wanted.split("-")[0])
    tags = [code for code in available if _folded(code).split("-")[0] == primary]
    if tags and "-" in wanted:  # ``pt-PT`` where there is pt-BR, ``sr-Latn`` where there is sr
        return f" ({clipped(_named(wanted))}: there is only {' or '.join(_variety(wanted, code) for code in tags)})"
    if len(tags) > 1:  # ``pt`` where a benchmark has pt-BR and pt-PT
        return f" (did you mean one of {', '.join(tags)}?)"
    names = {code: code for code in available}
    names.update({LANGUAGES[code].name: code for code in available if code in LANGUAGES})
    near = closest(given, names)
    if near is not None:
        return f" (did you mean {names[near]}?)"
    known = LANGUAGES.get(primary)
    return f" ({known.name})" if known is not None else ""


def pick_languages(
    given: Sequence[str], available: Sequence[str], flag: str = "--lang", note: Callable[[str], object] | None = None
) -> tuple[list[str], list[str]]:
    """The codes of ``available`` that ``given`` names (in the order given, each once),
    and the names in ``given`` that match none, each with its ``language_hint``. A name
    read as another code than its own spelling is said through ``note`` (``--lang pt-BR:
    using pt``); a change of case is not."""
    picked: list[str] = []
    unknown: list[str] = []
    for name in given:
        code = match_language(name, available)
        if code is None:
            unknown.append(f"{clipped(name)}{language_hint(name, available)}")
            continue
        if note is not None and _folded(code) != _folded(name):
            note(f"{flag} {clipped(name)}: using {code}")
        picked.append(code)
    return list(dict.fromkeys(picked)), unknown
