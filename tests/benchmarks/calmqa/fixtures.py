"""The CaLMQA fixture: a small ``--data-dir`` folder ``calmqa/`` in the layout
its upstream release ships, written for the tests (nothing copied from the benchmark's data).
``tests/fixture_data.py`` finds this module and calls ``write_fixtures``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmarks.msqad.fixtures import slug

DATA_FOLDER = "calmqa"  # its folder under --data-dir

CALMQA_LANGUAGES = ("English", "Spanish", "Chinese", "German", "Fijian", "Balochi", "Kirundi", "Tongan")

# Culturally agnostic questions: one English question asked in every language (shared id).
AGNOSTIC = [
    {
        "English": "Why is the sky blue?",
        "Spanish": "¿Por qué el cielo es azul?",
        "Chinese": "为什么天空是蓝色的？",
        "German": "Warum ist der Himmel blau?",
        "Fijian": "Na cava e karakarawa kina na lomalagi?",
        "Balochi": "آسمان چیا نیلیں اِنت؟",
        "Kirundi": "Kubera iki ijuru ari ubururu?",
        "Tongan": "Ko e hā ʻoku lanu moana ai ʻa e langí?",
    },
    {
        "English": "Why do onions make people cry?",
        "Spanish": "¿Por qué las cebollas nos hacen llorar?",
        "Chinese": "为什么切洋葱会让人流泪？",
        "German": "Warum muss man beim Zwiebelschneiden weinen?",
        "Fijian": "Na cava e tagi kina na tamata ni sele aniani?",
        "Balochi": "پیاز چیا مردمان گریوینیت؟",
        "Kirundi": "Kubera iki ibitunguru bituma abantu barira?",
        "Tongan": "Ko e hā ʻoku tangi ai ʻa e kakaí ʻi hono tuʻusi ʻo e ʻaniani?",
    },
    {
        "English": "Why do we yawn when we are tired?",
        "Spanish": "¿Por qué bostezamos cuando estamos cansados?",
        "Chinese": "为什么我们累的时候会打哈欠？",
        "German": "Warum gähnen wir, wenn wir müde sind?",
        "Fijian": "Na cava eda mamawa kina ni da oca?",
        "Balochi": "ما وختے کہ ماندگ بیئن چیا اَنگاس کنئن؟",
        "Kirundi": "Kubera iki twayura iyo tunaniwe?",
        "Tongan": "Ko e hā ʻoku tau mamao ai ʻi he taimi ʻoku tau helaʻia ai?",
    },
]
# Human answers of some agnostic questions: (question index, language) → texts.
AGNOSTIC_ANSWERS = {
    (0, "English"): ["Sunlight is scattered by the molecules of the air, and blue light is scattered much more than "
                     "red light, so the sky looks blue from every direction."],
    (1, "English"): ["Cutting an onion breaks its cells and releases a sulphur compound that turns into a gas; the gas "
                     "irritates the eyes, which make tears to wash it away."],
    (0, "Spanish"): ["La luz del sol se dispersa en el aire y la luz azul se dispersa mucho más que la roja, por eso "
                     "el cielo se ve azul."],
}  # fmt: skip

# Culturally specific questions: (language, category, question, English question, human answers).
SPECIFIC = [
    ("English", "religion, beliefs, customs, and traditions",
     "Why do people in England eat pancakes on Shrove Tuesday?",
     "Why do people in England eat pancakes on Shrove Tuesday?",
     ["Shrove Tuesday is the last day before Lent. Households used up their eggs, milk and fat before the fast, and "
      "pancakes were an easy way to do it.",
      "The custom goes back to the Middle Ages; pancake races are still held in some towns."]),
    ("English", "governance and society",
     "Why did pubs in England have to close at 11 pm for most of the last century?",
     "Why did pubs in England have to close at 11 pm for most of the last century?", []),
    ("Fijian", "religion, beliefs, customs, and traditions", "Na cava e gunu kina na yaqona ena veigauna vakavanua?",
     "Why is kava drunk at traditional ceremonies?",
     ["Na yaqona e vakaraitaka na veidokai kei na veiwekani ni vanua, ka sa dau gunu ena veisevusevu."]),
    ("Fijian", "food and drinks", "E vakarautaki vakacava na lovo?", "How is a lovo prepared?", []),
    ("Balochi", "language, art and literature", "بلوچی دوچ ءِ تاریخ چے اِنت؟",
     "What is the history of Balochi embroidery?", []),
    ("Balochi", "food and drinks", "سجی چون پچّگ بیت؟", "How is sajji cooked?", []),
    ("Kirundi", "religion, beliefs, customs, and traditions",
     "Kubera iki ingoma ari ikimenyetso c'igihugu mu Burundi?", "Why are drums a national symbol in Burundi?", []),
    ("Kirundi", "economy and industry", "Ni gute ikawa y'Uburundi igurishwa hanze y'igihugu?",
     "How is Burundian coffee sold abroad?", []),
    ("Spanish", "religion, beliefs, customs, and traditions", "¿Por qué se comen doce uvas en Nochevieja en España?",
     "Why do people in Spain eat twelve grapes on New Year's Eve?",
     ["Es una tradición que se popularizó a principios del siglo XX: se come una uva con cada campanada de "
      "medianoche para atraer la buena suerte en los doce meses del año."]),
    ("Chinese", "religion, beliefs, customs, and traditions", "为什么中国人在中秋节吃月饼？",
     "Why do Chinese people eat mooncakes at the Mid-Autumn Festival?", []),
    ("German", "food and drinks", "Warum gibt es in Deutschland so viele verschiedene Brotsorten?",
     "Why are there so many kinds of bread in Germany?", []),
    ("Tongan", "religion, beliefs, customs, and traditions", "Ko e hā ʻoku tui ai ʻe he kakai Tongá ʻa e taʻovala?",
     "Why do Tongans wear the ta'ovala?", []),
]  # fmt: skip


def _human_answers(texts: list[str], language: str) -> list[dict]:
    return [{"name": "human", "language": language, "text": text} for text in texts]


def calmqa_rows() -> list[dict]:
    rows = []
    for language in CALMQA_LANGUAGES:
        for n, question in enumerate(AGNOSTIC):
            rows.append({
                "name": f"non_cultural:{n}", "kind": "culturally_agnostic", "file_language": language,
                "question_language": "English", "category": None, "source": "ELI5", "collector": "Author",
                "url": f"https://example.org/eli5/{slug(question['English'])}", "human_evaluated": False,
                "question_text": question[language], "question_english": question["English"],
                "human_answers": _human_answers(AGNOSTIC_ANSWERS.get((n, language), []), language),
            })  # fmt: skip
        specific = [entry for entry in SPECIFIC if entry[0] == language]
        for n, (_, category, text, english, answers) in enumerate(specific):
            rows.append({
                "name": f"{language}:{n}", "kind": "culturally_specific", "file_language": language,
                "question_language": language, "category": category, "source": "worker", "collector": "Worker",
                "url": None, "human_evaluated": bool(answers), "question_text": text, "question_english": english,
                "human_answers": _human_answers(answers, language),
            })  # fmt: skip
    return rows


def write_calmqa(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(row, ensure_ascii=False) for row in calmqa_rows()]
    (folder / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------


def write_fixtures(folder: Path) -> None:
    write_calmqa(folder)
