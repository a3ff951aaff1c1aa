"""Language identification on sentences we wrote (tests/fixtures/langid_sentences.jsonl):
6 per language in 25 languages the detectors know, and in the 4 they cannot tell apart."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from mlbench.metrics import langid
from mlbench.metrics.langid import UNRELIABLE
from mlbench.metrics.surface import detect_language

SENTENCES = Path(__file__).parent.parent / "fixtures" / "langid_sentences.jsonl"


def sentences() -> list[dict[str, str]]:
    return [json.loads(line) for line in SENTENCES.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_test_set_covers_what_the_protocol_names():
    by_lang = defaultdict(list)
    for row in sentences():
        by_lang[row["lang"]].append(row["text"])
    required = {"eu", "gl", "ca", "fj", "sm", "to", "wo", "ps", "hi", "zh", "ja", "ko", "he", "ar"}
    assert required <= set(by_lang)
    assert len(set(by_lang) - UNRELIABLE) >= 20
    assert all(len(texts) >= 5 for texts in by_lang.values())


def test_at_least_95_percent_right_on_supported_languages():
    rows = [row for row in sentences() if row["lang"] not in UNRELIABLE]
    results = [(row, detect_language(row["text"], row["lang"])) for row in rows]
    wrong = [(row["lang"], result.detected, row["text"][:40]) for row, result in results if result.status != "ok"]
    assert 1 - len(wrong) / len(rows) >= 0.95, wrong


@pytest.mark.parametrize("lang", sorted(UNRELIABLE))
def test_unsupported_languages_are_not_judged(lang):
    rows = [row for row in sentences() if row["lang"] == lang]
    assert len(rows) >= 5
    for row in rows:
        result = detect_language(row["text"], lang)
        assert (result.status, result.detected) == ("n/a", None)
        assert "reliable" in result.reason


def test_an_english_answer_to_a_basque_question_is_wrong_language():
    answer = "Airplanes are usually boarded from the back so that passengers do not block the aisle."
    result = detect_language(answer, "eu")
    assert (result.status, result.detected, result.detector) == ("wrong", "en", "py3langid")
    assert 0.5 < result.confidence <= 1.0


def test_routing_follows_the_paper():
    # Fijian goes to CLD2 (py3langid alone takes it for Swahili or Lingala); Basque to py3langid.
    fijian = next(row["text"] for row in sentences() if row["lang"] == "fj")
    assert detect_language(fijian, "fj").detector in ("polyglot", "cld2")
    assert langid.detect_py3langid(fijian).code != "fj"
    basque = next(row["text"] for row in sentences() if row["lang"] == "eu")
    assert detect_language(basque, "eu").detector == "py3langid"


def test_cld2_falls_back_to_py3langid_when_it_cannot_tell(monkeypatch):
    monkeypatch.setattr(langid, "detect_cld2", lambda text: langid.Detection("un", 0.0, "cld2"))
    result = langid.detect("Ceci est une phrase assez longue écrite en français.", "fj")
    assert (result.code, result.detector) == ("fr", "py3langid")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Bai, hala da.", "shorter than 20"),
        ("```python\nprint(sum(range(10)))\nfor i in range(3): print(i)\n```", "code, numbers"),
        ("1999 – 2005: 3.5%, 42 km, 17:30, 2 × 8 = 16", "code, numbers"),
        ("https://example.org/a/very/long/path/to/a/page", "code, numbers"),
    ],
)
def test_short_and_code_only_answers_are_not_judged(text, reason):
    result = detect_language(text, "eu")
    assert result.status == "n/a" and reason in result.reason


def test_cld2_codes_are_mapped_to_ours():
    hebrew = next(row["text"] for row in sentences() if row["lang"] == "he")
    assert langid.detect_cld2(hebrew).code == "he"  # CLD2 says "iw"
    assert langid.detect_cld2("這是一個用繁體字寫成的句子，我們用它來測試語言識別。").code == "zh"  # "zh-Hant"


def test_control_characters_do_not_break_cld2():
    text = "Fiji e dua na matanitu\x07 e tu e na Pasifika\x80 ka levu kina na yanuyanu."
    assert langid.detect_cld2(text).code == "fj"


def test_polyglot_and_pycld2_give_identical_answers():
    # The paper used polyglot's detector; without polyglot we call CLD2 directly. Both
    # paths must agree on every sentence, including the unreliable languages.
    assert langid.polyglot_available(), "polyglot is part of the dev install (make install)"
    detector = langid._polyglot_detector()
    texts = [langid.clean_for_detection(row["text"]) for row in sentences()]
    texts += [
        "這是一個用繁體字寫成的句子，我們用它來測試語言識別。",
        "ok",
        "12345 67890",
        "Xq zv",
    ]  # too little text: both must say "un" the same way
    for text in texts:
        via_polyglot = langid._via_polyglot(detector, text)
        via_pycld2 = langid._via_pycld2(text)
        assert (via_polyglot.code, via_polyglot.confidence) == (via_pycld2.code, via_pycld2.confidence), text
