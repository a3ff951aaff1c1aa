"""Textual markers per language: each list finds its phrases and leaves ordinary answers alone."""

from __future__ import annotations

import pytest

from mlbench.languages import LANGUAGES
from mlbench.metrics.markers import has_own_phrases, language_names, markers, own_phrase_languages, phrase_table
from mlbench.resources import resource_dir

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
    ("fr", "Je suis désolé, je ne peux pas répondre à cette question.", {"apology", "refusal"}),
    ("it", "Mi dispiace, non posso rispondere a questa domanda.", {"apology", "refusal"}),
    ("pt", "Desculpe, não posso responder a essa pergunta.", {"apology", "refusal"}),
    ("nl", "Het spijt me, ik kan deze vraag niet beantwoorden.", {"apology", "refusal"}),
    ("nl", "Kunt u de vraag vertalen naar het Engels?", {"translation_request"}),
    ("da", "Undskyld, jeg kan ikke svare på det spørgsmål.", {"apology", "refusal"}),
    ("sv", "Förlåt, jag kan inte svara på den frågan.", {"apology", "refusal"}),
    ("sv", "Kan du översätta frågan till engelska?", {"translation_request"}),
    ("ro", "Îmi pare rău, nu pot răspunde la această întrebare.", {"apology", "refusal"}),
    ("id", "Maaf, saya tidak dapat menjawab pertanyaan itu.", {"apology", "refusal"}),
    ("id", "Bisakah Anda menerjemahkan pertanyaan ini ke bahasa Inggris?", {"translation_request"}),
    ("uk", "Вибачте, я не можу відповісти на це запитання.", {"apology", "refusal"}),
    ("uk", "Будь ласка, перекладіть запитання англійською.", {"translation_request"}),
    ("vi", "Xin lỗi, tôi không thể trả lời câu hỏi này.", {"apology", "refusal"}),
    ("sk", "Prepáčte, nemôžem odpovedať na túto otázku.", {"apology", "refusal"}),
    ("hr", "Žao mi je, ne mogu odgovoriti na ovo pitanje.", {"apology", "refusal"}),
    ("sr", "Жао ми је, не могу да одговорим на ово питање.", {"apology", "refusal"}),
    ("da", "Du skriver på dansk, ikke?", {"language_named"}),
    ("uk", "Ви пишете українською мовою.", {"language_named"}),
    ("bn", "আপনি বাংলায় প্রশ্ন করেছেন।", {"language_named"}),
    ("hy", "Դուք գրել եք հայերենով։", {"language_named"}),
    ("ta", "நீங்கள் தமிழில் கேட்டீர்கள்.", {"language_named"}),
    ("te", "మీరు తెలుగులో అడిగారు.", {"language_named"}),
    ("kn", "I see you wrote in Kannada.", {"language_named"}),
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
    ("fr", "Les avions sont embarqués par l'arrière afin que les passagers ne bloquent pas l'allée."),
    ("nl", "Vliegtuigen worden van achteren naar voren ingestapt, zodat het gangpad vrij blijft."),
    ("da", "Fly bliver normalt boardet bagfra, så passagererne ikke blokerer midtergangen."),
    ("sv", "Flygplan boardas oftast bakifrån så att passagerarna inte blockerar mittgången."),
    ("ro", "Avioanele sunt îmbarcate din spate, pentru ca pasagerii să nu blocheze culoarul."),
    ("id", "Pesawat biasanya dinaiki dari bagian belakang agar penumpang tidak menghalangi lorong."),
    ("uk", "Посадка в літак зазвичай починається з задніх рядів, щоб пасажири не блокували прохід."),
    ("vi", "Dịch vụ hàng không cho hành khách lên máy bay từ phía sau để không chặn lối đi."),
    ("bn", "বাংলাদেশের রাজধানী ঢাকা।"),  # Bangladesh is not the language
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


def test_names_of_the_okapi_languages():
    okapi = "ar bn ca da de es eu fr gu hi hr hu hy id it kn ml mr ne nl pt ro ru sk sr sv ta te uk vi zh".split()
    table = phrase_table()
    assert all(table.get(lang, {}).get("names") for lang in okapi)
    assert language_names("fr") == ("french", "français")
    assert language_names("bn")[:2] == ("bengali", "বাংলা")


def test_which_languages_have_their_own_phrase_lists():
    own = set(own_phrase_languages())
    assert {"en", "fr", "it", "pt", "nl", "da", "sv", "ro", "id", "uk", "vi", "es", "de", "zh"} <= own
    assert not own & {"bn", "hy", "ta", "te", "kn", "ml", "mr", "ne", "gu", "fj", "wo"}
    assert has_own_phrases("vi") and not has_own_phrases("hy") and not has_own_phrases("xx")


def test_the_phrase_file_names_the_languages_without_phrase_lists():
    # The comment in markers.toml that says which languages fall back to English.
    text = (resource_dir("data") / "surface" / "markers.toml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("# English lists only:"))
    listed = set(line.split(":", 1)[1].split())
    assert listed == {lang for lang in phrase_table() if not has_own_phrases(lang)}


def test_an_unknown_language_code_has_no_markers_but_does_not_crash():
    assert markers("Sorry, I cannot answer.", "xx") == {"apology", "refusal"}


def test_every_language_of_the_table_has_names_and_the_file_no_other_language():
    table = phrase_table()
    assert set(table) == set(LANGUAGES)
    assert [lang for lang in LANGUAGES if lang != "en" and not table[lang].get("names")] == []
