"""CaLMQA from the GitHub release's nested JSON (``dataset-{specific,agnostic}-<language>.json``,
written here in its layout): where --data-dir may point, human answers kept and model
answers left out, the same rows as our flattening, repeated questions, malformed files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mlbench.benchmarks.calmqa.loader import load_calmqa, load_rows
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError

ONIONS = "Why do onions make people cry?"
ONIONS_FJ = "Na cava e tagi kina na tamata ni sele aniani — ā?"
LOVO_FJ = "E vakarautaki vakacava na lovo?"
HUMAN_EN = ["Cutting them releases a gas that irritates the eyes.", "- a gas\n- the eyes water"]
HUMAN_FJ = "E vakasaqa na kakana e ruku ni vatu katakata."


def translations(texts: dict[str, str]) -> dict[str, Any]:
    return {language: {"language": language, "text": text} for language, text in texts.items()}


def question(name: str, posed_in: str, texts: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {
        "name": name, "type": 6 if name.startswith("non_cultural") else 5, "source": "worker", "collector": "7",
        "language": posed_in, "translations": translations(texts), "human_evaluated": False, **extra,
    }  # fmt: skip


def answer(name: str, language: str, texts: dict[str, str], model: str = "Human") -> dict[str, Any]:
    state = {"prompt": "...", "model_name": model, "max_output_tokens": -1, "other_state": {}}
    return {"name": name, "language": language, "translations": translations(texts), "prompting_state": state}


def release() -> dict[str, dict[str, Any]]:
    """Three release files: an English and a Fijian agnostic one, a Fijian specific one."""
    agnostic_en = {
        "question": question("non_cultural:0", "English", {"English": ONIONS}, url="https://x", category="other"),
        "answers": [
            answer("non_cultural:0:english:human", "English", {"English": HUMAN_EN[0]}),
            answer("non_cultural:0:english:human (dot points)", "English", {"English": HUMAN_EN[1]}),
            answer("non_cultural:0:language.english:gpt 4o", "English", {"English": "A model."}, "GPT 4o"),
        ],
    }
    agnostic_fj = {
        "question": question("non_cultural:0", "English", {"English": ONIONS, "Fijian": ONIONS_FJ}),
        "answers": [
            answer("non_cultural:0:language.fijian:claude opus", "Fijian", {"Fijian": "Na.", "English": "The."}, "x")
        ],
    }
    texts = {"Fijian": LOVO_FJ, "English": "How is a lovo made?"}
    specific_fj = [
        {
            "question": question("fijian:0", "Fijian", texts, category="food and drinks"),
            "answers": [
                answer("fijian:0:human", "Fijian", {"Fijian": HUMAN_FJ}),
                answer("fijian:0:language.fijian:gemma 7b", "Fijian", {"Fijian": "Sega."}, "Gemma 7B"),
            ],
        },
        # Asked twice by the collectors, under two names: both are kept.
        {"question": question("fijian:1", "Fijian", {**texts, "English": "How is lovo made?"}), "answers": []},
    ]
    return {
        "dataset-agnostic-english.json": {"entries": [agnostic_en]},
        "dataset-agnostic-fijian.json": {"entries": [agnostic_fj]},
        "dataset-specific-fijian.json": {"entries": specific_fj},
    }


def write_release(folder: Path, files: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, indent=2)
        (folder / name).write_text(text, encoding="utf-8")


# The same questions as our flattening (calmqa/questions.jsonl) writes them.
FLATTENED = [
    {
        "name": "non_cultural:0", "kind": "culturally_agnostic", "file_language": "English", "category": "other",
        "question_text": ONIONS, "question_english": ONIONS,
        "human_answers": [
            {"name": "non_cultural:0:english:human", "text": HUMAN_EN[0]},
            {"name": "non_cultural:0:english:human (dot points)", "text": HUMAN_EN[1]},
        ],
    },
    {
        "name": "non_cultural:0", "kind": "culturally_agnostic", "file_language": "Fijian", "category": None,
        "question_text": ONIONS_FJ, "question_english": ONIONS, "human_answers": [],
    },
    {
        "name": "fijian:0", "kind": "culturally_specific", "file_language": "Fijian", "category": "food and drinks",
        "question_text": LOVO_FJ, "question_english": "How is a lovo made?",
        "human_answers": [{"name": "fijian:0:human", "text": HUMAN_FJ}],
    },
    {
        "name": "fijian:1", "kind": "culturally_specific", "file_language": "Fijian", "category": None,
        "question_text": LOVO_FJ, "question_english": "How is lovo made?", "human_answers": [],
    },
]  # fmt: skip


@pytest.mark.parametrize("layout", ["data/datasets", ".", "calmqa"], ids=["clone", "datasets-folder", "calmqa"])
def test_the_release_is_found_where_data_dir_may_point(tmp_path, layout):
    write_release(tmp_path / layout, release())
    # Files of older names in the repository's history are not read.
    write_release(tmp_path / layout, {"dataset-fijian.json": "[]", "dataset-non-cultural-fijian.json": "{"})
    rows = load_rows(DataSource("local", tmp_path))
    assert [(r["id"], r["lang"], r["kind"]) for r in rows] == [
        ("non_cultural:0", "en", "agnostic"),
        ("non_cultural:0", "fj", "agnostic"),
        ("fijian:0", "fj", "specific"),
        ("fijian:1", "fj", "specific"),
    ]
    # The question in the file's language; the human answers only, never a model's.
    assert [r["question"] for r in rows] == [ONIONS, ONIONS_FJ, LOVO_FJ, LOVO_FJ]
    assert [r["references"] for r in rows] == [HUMAN_EN, [], [HUMAN_FJ], []]
    assert rows[2]["question_english"] == "How is a lovo made?" and rows[2]["category"] == "food and drinks"


def test_release_and_flattening_give_the_same_rows(tmp_path):
    write_release(tmp_path / "release", release())
    (tmp_path / "flat" / "calmqa").mkdir(parents=True)
    lines = [json.dumps(row, ensure_ascii=False) for row in FLATTENED]
    (tmp_path / "flat" / "calmqa" / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    from_release = load_rows(DataSource("local", tmp_path / "release"))
    assert len(from_release) == 4
    assert from_release == load_rows(DataSource("local", tmp_path / "flat"))


def test_repeated_questions_are_kept_and_counted(tmp_path):
    files = release()
    # A name used twice as well (the hub's ids repeat like this: they come from the text).
    files["dataset-specific-fijian.json"]["entries"][1]["question"]["name"] = "fijian:0"
    write_release(tmp_path, files)
    questions = load_calmqa("fj", DataSource("local", tmp_path))
    assert [s.id for s in questions.samples] == ["non_cultural:0", "fijian:0", "fijian:0#2"]
    assert questions.counts == {"duplicate_question_kept": 1, "duplicate_id_renamed": 1}
    # The ids do not depend on --kind.
    specific = load_calmqa("fj", DataSource("local", tmp_path), "specific")
    assert [s.id for s in specific.samples] == ["fijian:0", "fijian:0#2"] and specific.counts == questions.counts
    assert load_calmqa("fj", DataSource("local", tmp_path), "agnostic").counts == {}


def test_repeated_texts_under_distinct_names_keep_their_ids(tmp_path):
    write_release(tmp_path, release())
    questions = load_calmqa("fj", DataSource("local", tmp_path))
    assert [s.id for s in questions.samples] == ["non_cultural:0", "fijian:0", "fijian:1"]
    assert questions.counts == {"duplicate_question_kept": 1}
    assert load_calmqa("en", DataSource("local", tmp_path)).counts == {}


def broken(change):
    files = release()
    change(files["dataset-specific-fijian.json"])
    return files


def drop_fijian(data):
    del data["entries"][0]["question"]["translations"]["Fijian"]


def drop_answer_text(data):
    data["entries"][0]["answers"][0]["translations"] = {"English": {"language": "English", "text": "x"}}


def blank_question(data):
    data["entries"][0]["question"]["translations"]["Fijian"]["text"] = "  "


@pytest.mark.parametrize(
    "files, message",
    [
        ({"dataset-specific-fijian.json": "{broken"}, r"dataset-specific-fijian.json: not a readable CaLMQA release"),
        ({"dataset-specific-fijian.json": "[]"}, r"dataset-specific-fijian.json: expected a JSON object with an"),
        ({"dataset-specific-fijian.json": {"entries": [{"answers": []}]}}, r"json entry 1: expected"),
        (broken(drop_fijian), r"json entry 1 \(fijian:0\): the question has no text in Fijian"),
        (broken(drop_answer_text), r"human answer 'fijian:0:human' has no text in its own language"),
        (broken(blank_question), r"json entry 1 \(fijian:0\): empty question"),
        ({"dataset-specific-klingon.json": {"entries": []}}, r"unknown language 'klingon' in the file name"),
    ],
    ids=["json", "not-entries", "no-question", "no-translation", "answer-text", "blank", "language"],
)
def test_a_malformed_release_file_is_a_one_line_error(tmp_path, files, message):
    write_release(tmp_path, files)
    with pytest.raises(MlbenchError, match=message) as error:
        load_rows(DataSource("local", tmp_path))
    assert "\n" not in str(error.value)


def test_a_data_dir_without_calmqa_names_what_it_expected(tmp_path):
    with pytest.raises(MlbenchError, match=r"no CaLMQA questions: expected .*questions.jsonl, or the release's"):
        load_rows(DataSource("local", tmp_path))
