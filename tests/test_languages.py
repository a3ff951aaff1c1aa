"""The language table: its codes, and the labels it gives each language detector, checked
against the detectors' own label sets; every benchmark's languages are in it."""

from __future__ import annotations

import re
from functools import cache
from typing import get_args

import pytest

from mlbench.benchmarks import all_tasks
from mlbench.languages import LANGUAGES, VARIETY_OF, Script, get_language, language_hint, match_language, pick_languages
from mlbench.metrics.langid import CLD2_FIRST, UNRELIABLE, judging_detector, our_code

# Okapi's machine-translated TruthfulQA (m_truthfulqa), listed here as well as read from
# the registry: the benchmark may not be registered yet.
OKAPI = "ar bn ca da de es eu fr gu hi hr hu hy id it kn ml mr ne nl pt ro ru sk sr sv ta te uk vi zh".split()


@cache
def py3langid_labels() -> frozenset[str]:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return frozenset(LanguageIdentifier.from_model_file(MODEL_FILE).nb_classes)


@cache
def cld2_labels() -> frozenset[str]:
    import pycld2

    return frozenset(code for _, code in pycld2.LANGUAGES)


def test_codes_names_and_iso639_3_are_unique_and_well_formed():
    langs = list(LANGUAGES.values())
    assert all(code == lang.code for code, lang in LANGUAGES.items())
    assert all(re.fullmatch("[a-z]{2,3}", lang.code) for lang in langs)
    assert all(re.fullmatch("[a-z]{3}", lang.iso639_3) for lang in langs)
    assert len({lang.iso639_3 for lang in langs}) == len(langs)
    assert len({lang.name.lower() for lang in langs}) == len(langs)
    assert all(lang.script in get_args(Script) and lang.resource in ("high", "mid", "low") for lang in langs)


def test_iso639_3_codes_agree_with_the_standard():
    pycountry = pytest.importorskip("pycountry")
    for lang in LANGUAGES.values():
        found = pycountry.languages.get(alpha_3=lang.iso639_3)
        assert found is not None, lang
        # A two-letter code is the ISO 639-1 code of the same language.
        assert len(lang.code) == 3 or getattr(found, "alpha_2", None) == lang.code, lang


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_py3langid_label_exists_and_none_means_py3langid_lacks_the_language(lang):
    label = LANGUAGES[lang].py3langid
    if label is None:
        assert lang not in py3langid_labels()
    else:
        assert label in py3langid_labels()


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_cld2_label_exists_and_none_means_cld2_lacks_the_language(lang):
    label = LANGUAGES[lang].cld2
    if label is None:
        assert lang not in cld2_labels()
    else:
        assert label in cld2_labels()


def test_detector_labels_map_back_to_our_codes():
    for lang in LANGUAGES.values():
        # A variety no detector tells apart maps back to its language (arz → ar).
        expected = VARIETY_OF.get(lang.code, lang.code)
        if lang.cld2 is not None:
            assert our_code(lang.cld2, "cld2") == expected
        if lang.py3langid is not None:
            assert our_code(lang.py3langid, "py3langid") == expected
    assert our_code("iw", "cld2") == "he" and LANGUAGES["he"].cld2 == "iw"
    assert our_code("zh-Hant", "cld2") == "zh" and our_code("yue", "py3langid") == "zh"
    assert our_code("bs", "cld2") == "bs"  # not in the table: reported as it is


def test_every_benchmark_language_is_in_the_table():
    tasks = all_tasks()
    assert {"calmqa", "truthfulqa_multi", "msqad"} <= {task.name for task in tasks}
    for task in tasks:
        assert set(task.languages) <= set(LANGUAGES), task.name


def test_every_benchmark_language_is_judged_unless_no_detector_is_reliable():
    for task in all_tasks():
        for lang in task.languages:
            assert lang in UNRELIABLE or judging_detector(lang) is not None, (task.name, lang)


def test_the_okapi_languages_are_in_the_table_and_judged():
    assert len(OKAPI) == len(set(OKAPI)) == 31
    missing = [code for code in OKAPI if code not in LANGUAGES]
    assert not missing
    registered = {task.name: task for task in all_tasks()}
    if "m_truthfulqa" in registered:
        assert sorted(registered["m_truthfulqa"].languages) == sorted(OKAPI)
    assert all(judging_detector(code) == "py3langid" for code in OKAPI if code not in CLD2_FIRST)


def test_scripts_of_the_new_languages():
    scripts = {code: get_language(code).script for code in ("bn", "gu", "hy", "kn", "ml", "ta", "te", "mr", "ne", "sr")}
    assert scripts == {
        "bn": "Bengali",
        "gu": "Gujarati",
        "hy": "Armenian",
        "kn": "Kannada",
        "ml": "Malayalam",
        "ta": "Tamil",
        "te": "Telugu",
        "mr": "Devanagari",
        "ne": "Devanagari",
        "sr": "Cyrillic",  # Okapi's translations
    }


def test_routing_of_the_existing_languages_is_the_papers():
    # CaLMQA's split: CLD2 for these (bal and hil: no detector knows them, and they are
    # not judged anyway), py3langid for the rest.
    for lang in LANGUAGES:
        # An Arabic variety is routed as Arabic is.
        expected = "cld2" if VARIETY_OF.get(lang, lang) in CLD2_FIRST else "py3langid"
        if lang in ("bal", "hil", "pap"):
            expected = None
        assert judging_detector(lang) == expected, lang
    assert judging_detector("xx") is None


# --- a language as a user names it ----------------------------------------------------------

TRUTHFULQA_MULTI = ("en", "es", "ca", "gl", "eu")


@pytest.mark.parametrize(
    ("given", "available", "expected"),
    [
        ("en", TRUTHFULQA_MULTI, "en"),
        ("EN", TRUTHFULQA_MULTI, "en"),  # case
        (" Es ", TRUTHFULQA_MULTI, "es"),
        ("es-ES", TRUTHFULQA_MULTI, "es"),  # a BCP-47 tag names its language
        ("es_ES", TRUTHFULQA_MULTI, "es"),  # ``_`` read as ``-``
        ("pt-BR", (*OKAPI, "en"), "pt"),
        ("pt_br", (*OKAPI, "en"), "pt"),
        ("zh-CN", (*OKAPI, "zh"), "zh"),
        ("zh-Hans", ("zh", "en"), "zh"),
        ("pt_br", ("pt-BR", "pt-PT"), "pt-BR"),  # a benchmark's own tags are kept
        ("PT-br", ("pt-BR", "pt-PT"), "pt-BR"),
        ("zh", ("zh-Hans", "en"), "zh-Hans"),  # the language's one tag there
        ("pt", ("pt-BR", "pt-PT"), None),  # two tags: which one is the user's to say
        ("Spanish", TRUTHFULQA_MULTI, "es"),  # the English name
        ("basque", TRUTHFULQA_MULTI, "eu"),
        ("spa", TRUTHFULQA_MULTI, "es"),  # ISO 639-3
        ("pap", ("pap", "en"), "pap"),
        ("pt-BR", TRUTHFULQA_MULTI, None),  # the benchmark lacks the language
        ("esp", TRUTHFULQA_MULTI, None),
        ("", TRUTHFULQA_MULTI, None),
    ],
)
def test_a_language_is_read_as_the_code_there_is(given, available, expected):
    assert match_language(given, available) == expected


@pytest.mark.parametrize(
    ("given", "available", "hint"),
    [
        ("esp", TRUTHFULQA_MULTI, " (did you mean es?)"),
        ("Basqe", TRUTHFULQA_MULTI, " (did you mean eu?)"),  # by the language's name
        ("pt-BR", TRUTHFULQA_MULTI, " (Portuguese)"),  # known to mlbench, not to the benchmark
        ("pt", ("pt-BR", "pt-PT", "en"), " (did you mean one of pt-BR, pt-PT?)"),
        ("qq", TRUTHFULQA_MULTI, ""),
    ],
)
def test_a_language_that_is_not_there_gets_a_hint(given, available, hint):
    assert language_hint(given, available) == hint


def test_picking_languages_keeps_their_order_says_each_mapped_tag_and_lists_the_unknown():
    notes: list[str] = []
    picked, unknown = pick_languages(["ES", "en-GB", "es", "pt-BR", "esp"], TRUTHFULQA_MULTI, "--lang", notes.append)
    assert picked == ["es", "en"]
    assert unknown == ["pt-BR (Portuguese)", "esp (did you mean es?)"]
    assert notes == ["--lang en-GB: using en"]  # ES → es is a change of case: nothing to say


@pytest.mark.parametrize(
    ("given", "available", "expected"),
    [
        ("pt-PT", ("en", "pt-BR"), None),  # another region is another variety: refused
        ("sr-Cyrl", ("sr-Latn",), None),  # another script likewise
        ("sr-Latn", tuple(LANGUAGES), None),  # our sr is Cyrillic: Latin answers are not it
        ("sr-Cyrl", tuple(LANGUAGES), "sr"),  # the script the table writes sr in
        ("sr-Latn-RS", ("sr-Latn", "en"), "sr-Latn"),  # a region dropped, the script kept
        ("zh-Hant-TW", ("zh", "en"), "zh"),
        ("pt-419", ("pt", "en"), "pt"),  # a numeric region
        ("zh-CN", ("zh-Hans",), None),  # only a bare language may become a benchmark's tag
        ("pt", ("pt-BR", "en"), "pt-BR"),
        ("spa-ES", TRUTHFULQA_MULTI, "es"),
    ],
)
def test_a_tag_is_never_read_as_another_region_or_script(given, available, expected):
    assert match_language(given, available) == expected


@pytest.mark.parametrize(
    ("given", "available", "hint"),
    [
        ("pt-PT", ("en", "pt-BR"), " (Portuguese: there is only pt-BR)"),
        ("sr-Latn", ("sr", "en"), " (Serbian in Latin script: there is only sr, in Cyrillic script)"),
        ("sr-Cyrl", ("sr-Latn",), " (Serbian in Cyrillic script: there is only sr-Latn)"),
    ],
)
def test_a_refused_tag_names_what_there_is(given, available, hint):
    assert language_hint(given, available) == hint


def test_a_surface_file_in_latin_serbian_is_refused_not_scored_as_cyrillic():
    from mlbench.errors import MlbenchError
    from mlbench.results.surface_file import checked_lang

    assert checked_lang("sr-Cyrl", "--lang") == "sr" and checked_lang("pt-BR", "--lang") == "pt"
    with pytest.raises(MlbenchError, match=r"^--lang: language 'sr-Latn' cannot be checked \(Serbian in Latin"):
        checked_lang("sr-Latn", "--lang")


def test_an_arabic_variety_is_judged_by_arabic_detection():
    from mlbench.metrics.surface import detect_language

    answer = "كان دوايت دي آيزنهاور رئيس الولايات المتحدة سنة 1955م وكان ينتمي للحزب الجمهوري"
    for variety in ("arz", "apc", "arb"):
        assert detect_language(answer, variety).status == "ok"
    assert detect_language("Dwight D. Eisenhower was the president of the United States in 1955.", "arz").status == (
        "wrong"
    )


def test_bokmal_and_nynorsk_are_told_apart():
    from mlbench.metrics.surface import detect_language

    bokmal = "Hva er riktig svar på spørsmålet? Jeg vet ikke hva jeg skal si om dette her."
    nynorsk = "Kva av følgande alternativ er rett svar på spørsmålet? Eg veit ikkje kva eg skal seie."
    assert detect_language(bokmal, "nb").status == "ok" and detect_language(nynorsk, "nn").status == "ok"
    assert detect_language(nynorsk, "nb").status == "wrong"
