"""Two more of TruthfulQA's translations, each written in the layout its hub dataset ships
(text written for the tests, nothing copied from the data):

- Uhura-TruthfulQA (``masakhane/uhura-truthfulqa``): a file per config and split at the
  top of the repository, ``<lang>_multiple_choice_test.json`` and so on, JSON arrays; the
  English multiple-choice files as ``.jsonl`` (as one revision ships them); each language
  with its own number of rows (the real configs hold 761 to 817), no id column.
- X-TruthfulQA (``zhihz0535/X-TruthfulQA_en_zh_ko_it_es``): one config, a split per
  language named in English (``english.json``, ``chinese.json``, ...), rows ``id``,
  ``instruction``, ``correct_answers``, ``incorrect_answers``; its English questions are
  TruthfulQA's (here the TruthfulQA-Multi fixture's), one of them with a word changed, so
  that it matches none.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmarks.truthfulqa_multi.fixtures import truthfulqa_rows

UHURA_LANGS = ("am", "ha", "nso", "sw", "yo", "zu", "en")
# Rows per language (the English config has every question; the others lost some).
UHURA_ROWS = {"en": 5, "am": 4, "ha": 5, "nso": 3, "sw": 5, "yo": 4, "zu": 2}
UHURA_TRAIN = 3


def _uhura_question(lang: str, i: int) -> tuple[str, str, list[str], list[str]]:
    """Question ``i`` of ``lang``: (question, best, more correct answers, incorrect ones),
    marked with the language so that a row read under the wrong one shows."""
    mark = "" if lang == "en" else f"({lang}) "
    return (
        f"{mark}Question {i} about a common belief?",
        f"{mark}The belief {i} is false.",
        [f"{mark}There is no evidence for belief {i}."],
        [f"{mark}The belief {i} is true.", f"{mark}Everyone knows belief {i} holds."],
    )


def uhura_rows(lang: str, layout: str, count: int, start: int = 0) -> list[dict]:
    rows = []
    for i in range(start, start + count):
        question, best, more, wrong = _uhura_question(lang, i)
        if layout == "multiple_choice":
            rows.append({
                "question": question,
                "mc1_targets": {"choices": [best, *wrong], "labels": [1] + [0] * len(wrong)},
                "mc2_targets": {"choices": [best, *more, *wrong], "labels": [1] * (1 + len(more)) + [0] * len(wrong)},
            })  # fmt: skip
        else:
            rows.append({
                "type": "Adversarial", "category": "Misconceptions" if i % 2 else "Health", "question": question,
                "best_answer": best, "correct_answers": [best, *more], "incorrect_answers": wrong,
                "source": "https://example.org/uhura",
            })  # fmt: skip
    return rows


def write_uhura_copy(root: Path) -> Path:
    """The hub layout under ``root`` (README.md with the licence only: the files are found
    by the hub's ``<config>_<split>`` convention)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("---\nlicense: mit\n---\n# uhura-truthfulqa (a test fixture)\n", encoding="utf-8")
    for lang in UHURA_LANGS:
        for layout in ("multiple_choice", "generation"):
            for split, rows in (("test", uhura_rows(lang, layout, UHURA_ROWS[lang], start=UHURA_TRAIN)),
                                ("train", uhura_rows(lang, layout, UHURA_TRAIN))):  # fmt: skip
                if lang == "en" and layout == "multiple_choice":
                    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
                    (root / f"{lang}_{layout}_{split}.jsonl").write_text(text, encoding="utf-8")
                else:
                    text = json.dumps(rows, ensure_ascii=False, indent=1)
                    (root / f"{lang}_{layout}_{split}.json").write_text(text, encoding="utf-8")
    return root


X_SPLITS = {"en": "english", "zh": "chinese", "ko": "korean", "it": "italian", "es": "spanish"}
X_ROWS = 6  # the TruthfulQA-Multi fixture's first six questions
X_CHANGED = 4  # the row whose English question is TruthfulQA's with a word changed


def x_id(row: int) -> int:
    """The id of TruthfulQA's row ``row`` here: neither the row nor its place, so that only
    the English text can tell which row a question is."""
    return 100 + 7 * (X_ROWS - row)


def x_rows(lang: str) -> list[dict]:
    """``lang``'s rows; Korean's in the reverse order (the ids, not the places, pair them)."""
    english, _ = truthfulqa_rows("en")
    rows = []
    for i, row in enumerate(english[:X_ROWS]):
        question = row["question"].strip()
        if lang == "en" and i == X_CHANGED:
            question = question.replace("How long", "How much")
        elif lang != "en":
            question = f"({lang}) {question}"
        rows.append({"id": x_id(i), "instruction": question, "correct_answers": list(row["correct_answers"]),
                     "incorrect_answers": list(row["incorrect_answers"])})  # fmt: skip
    return rows[::-1] if lang == "ko" else rows


def write_x_copy(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text(
        "---\nlicense: apache-2.0\n---\n# X-TruthfulQA (a test fixture)\n", encoding="utf-8"
    )
    for lang, split in X_SPLITS.items():
        text = json.dumps(x_rows(lang), ensure_ascii=False, indent=1)
        (root / f"{split}.json").write_text(text, encoding="utf-8")
    return root
