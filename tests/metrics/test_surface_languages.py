"""The language check for the languages of Okapi's TruthfulQA, and for languages no
detector knows: those answers are not judged, never wrong."""

from __future__ import annotations

import dataclasses

import pytest

from mlbench.languages import LANGUAGES
from mlbench.metrics import langid
from mlbench.metrics.surface import detect_language, surface_block, surface_metrics

ARMENIAN = "Շատերը կարծում են, որ Չինական մեծ պարիսպը երևում է տիեզերքից, բայց դա ճիշտ չէ."
ENGLISH = "Many people believe that the Great Wall of China can be seen from space, but that is not true."

# One answer we wrote per language added for Okapi's TruthfulQA.
SENTENCES = {
    "bn": "অনেকে মনে করেন যে চীনের মহাপ্রাচীর মহাকাশ থেকে দেখা যায়, কিন্তু এটি সত্য নয়।",
    "da": "Mange tror, at Den Kinesiske Mur kan ses fra rummet, men det er ikke rigtigt.",
    "fr": "La plupart des gens pensent que la Grande Muraille de Chine est visible depuis l'espace, mais c'est faux.",
    "gu": "ઘણા લોકો માને છે કે ચીનની મહાન દીવાલ અવકાશમાંથી દેખાય છે, પરંતુ તે સાચું નથી.",
    "hr": "Mnogi ljudi vjeruju da se Kineski zid može vidjeti iz svemira, ali to nije istina.",
    "hy": ARMENIAN,
    "id": "Banyak orang percaya bahwa Tembok Besar Tiongkok dapat dilihat dari luar angkasa, tetapi itu tidak benar.",
    "it": "Molte persone credono che la Grande Muraglia cinese sia visibile dallo spazio, ma non è vero.",
    "kn": "ಚೀನಾದ ಮಹಾ ಗೋಡೆ ಬಾಹ್ಯಾಕಾಶದಿಂದ ಕಾಣುತ್ತದೆ ಎಂದು ಅನೇಕರು ನಂಬುತ್ತಾರೆ, ಆದರೆ ಅದು ನಿಜವಲ್ಲ.",
    "ml": "ചൈനയിലെ വന്മതിൽ ബഹിരാകാശത്തുനിന്ന് കാണാമെന്ന് പലരും വിശ്വസിക്കുന്നു, പക്ഷേ അത് ശരിയല്ല.",
    "mr": "आरसा फुटल्याने सात वर्षे दुर्दैव येते याचा कोणताही वैज्ञानिक पुरावा नाही.",
    "ne": "ऐना फुट्दा सात वर्षसम्म दुर्भाग्य आउँछ भन्ने कुनै वैज्ञानिक प्रमाण छैन।",
    "nl": "Veel mensen denken dat de Chinese Muur vanuit de ruimte te zien is, maar dat klopt niet.",
    "pt": "Muitas pessoas acreditam que a Grande Muralha da China é visível do espaço, mas isso não é verdade.",
    "ro": "Mulți oameni cred că Marele Zid Chinezesc se vede din spațiu, dar acest lucru nu este adevărat.",
    "sk": "Mnoho ľudí si myslí, že Veľký čínsky múr je vidieť z vesmíru, ale nie je to pravda.",
    "sr": "Многи људи верују да се Кинески зид може видети из свемира, али то није тачно.",
    "sv": "Många tror att Kinesiska muren syns från rymden, men det stämmer inte.",
    "ta": "சீனப் பெருஞ்சுவர் விண்வெளியிலிருந்து தெரியும் என்று பலர் நம்புகிறார்கள், ஆனால் அது உண்மையல்ல.",
    "te": "చైనా మహా కుడ్యం అంతరిక్షం నుండి కనిపిస్తుందని చాలా మంది నమ్ముతారు, కానీ అది నిజం కాదు.",
    "uk": "Багато людей вважають, що Велику китайську стіну видно з космосу, але це не так.",
    "vi": "Nhiều người tin rằng Vạn Lý Trường Thành có thể nhìn thấy từ không gian, nhưng điều đó không đúng.",
}


def test_a_french_answer_to_a_french_question_is_ok():
    result = detect_language(SENTENCES["fr"], "fr")
    assert (result.status, result.detected, result.detector) == ("ok", "fr", "py3langid")


def test_an_english_answer_to_a_bengali_question_is_wrong():
    result = detect_language(ENGLISH, "bn")
    assert (result.status, result.detected) == ("wrong", "en")


@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_an_answer_in_each_new_language_is_recognised(lang):
    result = detect_language(SENTENCES[lang], lang)
    assert (result.status, result.detected) == ("ok", lang)


@pytest.mark.parametrize("lang", ["sr", "uk", "hy", "ta"])
def test_an_answer_in_another_language_is_wrong(lang):
    # Serbian and Ukrainian share the Cyrillic script with Russian; Armenian and Tamil have
    # scripts of their own, which an English answer does not use.
    other = SENTENCES["uk"] if lang == "sr" else SENTENCES["sr"] if lang == "uk" else ENGLISH
    assert detect_language(other, lang).status == "wrong"


def test_an_unknown_language_code_is_not_judged_and_does_not_crash():
    result = detect_language(ARMENIAN, "xx")
    assert (result.status, result.detected) == ("n/a", None)
    assert "'xx'" in result.reason
    block = surface_block(ARMENIAN, "xx")
    assert block["issue"] is False and block["language"]["status"] == "n/a"
    assert "wrong_language" not in surface_metrics(block, "xx")


def test_a_language_no_detector_knows_is_not_judged(monkeypatch):
    # Armenian as it would be if neither detector had a label for it.
    unknown = dataclasses.replace(LANGUAGES["hy"], py3langid=None, cld2=None)
    monkeypatch.setitem(LANGUAGES, "hy", unknown)
    for text in (ARMENIAN, ENGLISH):
        result = detect_language(text, "hy")
        assert (result.status, result.detected) == ("n/a", None)
        assert result.reason == "no language detector knows Armenian"


def test_a_language_only_cld2_knows_goes_to_cld2_without_a_py3langid_fallback(monkeypatch):
    only_cld2 = dataclasses.replace(LANGUAGES["hy"], py3langid=None)
    monkeypatch.setitem(LANGUAGES, "hy", only_cld2)
    assert langid.judging_detector("hy") == "cld2"
    result = detect_language(ARMENIAN, "hy")
    assert (result.status, result.detected) == ("ok", "hy") and result.detector in ("polyglot", "cld2")
    assert detect_language(ENGLISH, "hy").status == "wrong"
    # When CLD2 cannot tell, py3langid is not asked: it could never say Armenian.
    monkeypatch.setattr(langid, "detect_cld2", lambda text: langid.Detection("un", 0.0, "cld2"))
    result = detect_language(ENGLISH, "hy")
    assert (result.status, result.reason) == ("n/a", "the detector could not tell")


def test_a_paper_language_still_falls_back_to_py3langid(monkeypatch):
    # Unchanged for CaLMQA's CLD2 languages: py3langid decides when CLD2 cannot.
    monkeypatch.setattr(langid, "detect_cld2", lambda text: langid.Detection("un", 0.0, "cld2"))
    result = detect_language(ENGLISH, "fj")
    assert (result.status, result.detected, result.detector) == ("wrong", "en", "py3langid")
