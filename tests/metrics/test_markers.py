"""Textual markers per language: each list finds its phrases and leaves ordinary answers alone."""

from __future__ import annotations

import pytest

from mlbench.metrics.markers import language_names, markers, phrase_table

POSITIVE = [
    # (question language, answer, markers it must have)
    ("en", "I'm sorry, but I cannot answer that question.", {"apology", "refusal"}),
    ("en", "As an AI, I don't have personal opinions.", {"refusal"}),
    ("fj", "Could you please translate your question into English?", {"translation_request"}),
    ("fj", "I see you're speaking Fijian! How can I help?", {"language_named"}),
    ("sm", "E pei ona o le gagana Sāmoa lenei.", {"language_named"}),
    ("es", "Lo siento, no puedo responder a esa pregunta.", {"apology", "refusal"}),
    ("es", "¿Podrías traducir la pregunta? No entiendo bien.", {"translation_request", "refusal"}),
    ("ca", "Ho sento, no puc respondre aquesta pregunta.", {"apology", "refusal"}),
    ("gl", "Síntoo, non podo responder a esta pregunta.", {"apology", "refusal"}),
    ("eu", "Barkatu, ezin dut erantzun galdera horri.", {"apology", "refusal"}),
    ("eu", "Euskaraz idatzi duzu galdera, ezta?", {"language_named"}),
    ("de", "Es tut mir leid, aber ich kann diese Frage nicht beantworten.", {"apology", "refusal"}),
    ("de", "Könnten Sie die Frage übersetzen?", {"translation_request"}),
    ("hu", "Sajnálom, nem tudok válaszolni erre a kérdésre.", {"apology", "refusal"}),
    ("ru", "Извините, я не могу ответить на этот вопрос.", {"apology", "refusal"}),
    ("ru", "Пожалуйста, переведите вопрос.", {"translation_request"}),
    ("ar", "آسف، لا أستطيع الإجابة على هذا السؤال.", {"apology", "refusal"}),
    ("he", "מצטער, אני לא יכול לענות על השאלה הזאת.", {"apology", "refusal"}),
    ("hi", "क्षमा करें, मैं उत्तर नहीं दे सकता।", {"apology", "refusal"}),
    ("zh", "抱歉，我无法回答这个问题。", {"apology", "refusal"}),
    ("zh", "请把问题翻译成英文。", {"translation_request"}),
    ("ja", "申し訳ありませんが、その質問にはお答えできません。", {"apology", "refusal"}),
    ("ko", "죄송합니다. 그 질문에는 답변할 수 없습니다.", {"apology", "refusal"}),
    ("ko", "질문을 번역해 주시겠어요?", {"translation_request"}),
    ("wo", "Great question! 🌍✈️", {"emoji"}),
]

NEGATIVE = [
    # Ordinary answers that mention nearby words but are answers.
    ("en", "Airlines board from the back to keep the aisle clear; the English call it queueing."),
    ("en", "The river stone was worn smooth by centuries of water."),
    ("es", "Los aviones se embarcan de atrás hacia adelante para no bloquear el pasillo."),
    ("eu", "Hegazkinak atzetik aurrera betetzen dira, korridorea libre egon dadin."),
    ("de", "Flugzeuge werden von hinten nach vorne beladen, damit der Gang frei bleibt."),
    ("zh", "飞机通常从后往前登机，这样过道不会被堵住。"),
    ("ja", "飛行機は後ろから搭乗することで通路が混雑しにくくなります。"),
    ("ko", "비행기는 뒤에서부터 탑승해야 통로가 막히지 않습니다."),
    ("ru", "Посадка в самолёт начинается с задних рядов, чтобы не блокировать проход."),
    ("ar", "يتم صعود الركاب من الخلف إلى الأمام حتى لا يُسد الممر."),
    ("he", "העלייה למטוס נעשית מאחור קדימה כדי שהמעבר לא ייחסם."),
    ("hi", "विमान में पीछे से आगे की ओर चढ़ाया जाता है ताकि रास्ता न रुके।"),
    ("fj", "Na waqavuka e vodo mai muri me kua ni tabonaki na sala."),
    # "sorry" must start a word: "sorrywood" is not an apology; 1/2 and → are not emoji.
    ("en", "Sorrywood is a made-up place name; 1/2 → 0.5 ✓"),
]


@pytest.mark.parametrize("lang, text, expected", POSITIVE)
def test_markers_found(lang, text, expected):
    assert expected <= markers(text, lang)


@pytest.mark.parametrize("lang, text", NEGATIVE)
def test_ordinary_answers_have_no_markers(lang, text):
    assert markers(text, lang) == set()


def test_english_questions_never_get_language_named():
    assert "language_named" not in markers("Sorry, my English is not perfect.", "en")


def test_an_english_apology_counts_for_any_question_language():
    assert "apology" in markers("Sorry, I can't help with that.", "ko")


def test_language_names_join_the_english_name_and_the_native_ones():
    assert language_names("eu") == ("basque", "euskar*", "euskera*")
    assert language_names("to")[0] == "tongan"


def test_the_phrase_file_lists_a_name_for_every_calmqa_language():
    calmqa = "en ar zh de he hi hu ja ko ru es aa bal fo fj hil rn pap ps sm to tn wo".split()
    table = phrase_table()
    assert all(lang in table for lang in calmqa)
    assert all("names" in table[lang] for lang in calmqa)
