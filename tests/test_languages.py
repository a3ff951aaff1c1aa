"""The language table: its codes, and the labels it gives each language detector, checked
against the detectors' own label sets; every benchmark's languages are in it."""

from __future__ import annotations

import re
from functools import cache
from typing import get_args

import pytest

from mlbench.benchmarks import all_tasks
from mlbench.languages import LANGUAGES, Script, get_language
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
        if lang.cld2 is not None:
            assert our_code(lang.cld2, "cld2") == lang.code
        if lang.py3langid is not None:
            assert our_code(lang.py3langid, "py3langid") == lang.code
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
        expected = "cld2" if lang in CLD2_FIRST else "py3langid"
        if lang in ("bal", "hil", "pap"):
            expected = None
        assert judging_detector(lang) == expected, lang
    assert judging_detector("xx") is None
