"""CaLMQA: both data schemas, kinds, the zero-shot prompt and the overall score by hand."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.calmqa.loader import language_code, load_calmqa, normalize_row, question_kind
from mlbench.benchmarks.calmqa.task import overall_scores
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.records import Generation, SampleRecord

# Rows in the release's layout (questions written for these tests).
RELEASE_ROWS = [
    {
        "name": "non_cultural:0", "kind": "culturally_agnostic", "file_language": "English", "category": None,
        "question_text": "Why do onions make people cry?", "question_english": "Why do onions make people cry?",
        "human_answers": [{"name": "x", "text": "Cutting them releases a gas that irritates the eyes."}],
    },
    {
        "name": "non_cultural:0", "kind": "culturally_agnostic", "file_language": "Fijian", "category": None,
        "question_text": "Na cava e tagi kina na tamata ni sele aniani?",
        "question_english": "Why do onions make people cry?", "human_answers": [],
    },
    {
        "name": "Fijian:3", "kind": "culturally_specific", "file_language": "Fijian", "category": "food and drinks",
        "question_text": "E vakarautaki vakacava na lovo?", "question_english": "How is a lovo prepared?",
        "human_answers": [],
    },
    {
        "name": "English:7", "kind": "culturally_specific", "file_language": "English", "category": "history",
        "question_text": "Why is Guy Fawkes Night held?", "question_english": "Why is Guy Fawkes Night held?",
        "human_answers": [{"text": "It marks the failed plot of 1605."}, {"text": "Bonfires recall the plot."}],
    },
]  # fmt: skip


@pytest.fixture
def data_dir(tmp_path):
    (tmp_path / "calmqa").mkdir()
    lines = "\n".join(json.dumps(row, ensure_ascii=False) for row in RELEASE_ROWS)
    (tmp_path / "calmqa" / "questions.jsonl").write_text(lines + "\n", encoding="utf-8")
    return tmp_path


def test_local_layout_loads_per_language_and_kind(data_dir):
    source = DataSource("local", data_dir)
    fijian = load_calmqa("fj", source).samples
    assert [s.id for s in fijian] == ["non_cultural:0", "Fijian:3"]
    assert [s.meta["kind"] for s in fijian] == ["agnostic", "specific"]
    assert [s.id for s in load_calmqa("fj", source, "specific").samples] == ["Fijian:3"]
    english = {s.id: s for s in load_calmqa("en", source).samples}
    # Several human answers are all kept as the evidence.
    assert english["English:7"].best_answer == "It marks the failed plot of 1605.\n\nBonfires recall the plot."
    assert fijian[1].best_answer == "" and fijian[1].meta["category"] == "food and drinks"


def test_hub_rows_map_to_the_same_fields():
    hub_row = {
        "language": "Fijian",
        "question_type": "culturally agnostic",
        "question": "Na cava e tagi kina na tamata ni sele aniani?",
        "question_english": "Why do onions make people cry?",
        "answer": None,
    }
    fijian = normalize_row(hub_row, "hub row 1")
    english = normalize_row({**hub_row, "language": "English", "question": "Why do onions make people cry?"}, "r2")
    assert (fijian["lang"], fijian["kind"], fijian["references"]) == ("fj", "agnostic", [])
    # The hub has no ids: a translated (agnostic) question shares its id across languages.
    assert fijian["id"] == english["id"] and fijian["id"].startswith("agnostic:")
    specific = normalize_row({**hub_row, "question_type": "culturally specific", "answer": "Ko ..."}, "r3")
    assert specific["id"] != fijian["id"] and specific["references"] == ["Ko ..."]


@pytest.mark.parametrize(
    "name, code", [("Kirundi", "rn"), ("Balochi", "bal"), ("Baluchi", "bal"), ("Tswana", "tn"), ("pap", "pap")]
)
def test_language_names(name, code):
    assert language_code(name) == code


def test_kinds():
    assert question_kind("culturally_specific") == "specific"
    assert question_kind("culturally agnostic") == "agnostic"
    assert question_kind("cultural") is None


@pytest.mark.parametrize(
    "row, message",
    [
        ({**RELEASE_ROWS[0], "file_language": "Klingon"}, "unknown language 'Klingon'"),
        ({**RELEASE_ROWS[0], "question_text": "  "}, "empty question"),
        ({**RELEASE_ROWS[0], "kind": "other"}, "neither culturally specific nor agnostic"),
    ],
)
def test_malformed_rows_are_errors(row, message):
    with pytest.raises(MlbenchError, match=message):
        normalize_row(row, "file:1")


def test_a_broken_line_names_file_and_line(tmp_path):
    (tmp_path / "calmqa").mkdir()
    (tmp_path / "calmqa" / "questions.jsonl").write_text(json.dumps(RELEASE_ROWS[0]) + "\n{broken\n")
    with pytest.raises(MlbenchError, match=r"questions.jsonl:2: invalid JSON"):
        load_calmqa("en", DataSource("local", tmp_path))


def test_the_fixture_release_loads_in_every_language(fixture_datasets):
    # The full release (1,094 + 874 questions in 23 languages): tests/full_data.
    task = get_task("calmqa")
    source = DataSource("local", fixture_datasets)
    counts = Counter()
    repeated = {}
    agnostic_ids = {}
    for lang in task.languages:
        questions = load_calmqa(lang, source)
        counts.update((lang, sample.meta["kind"]) for sample in questions.samples)
        agnostic_ids[lang] = [s.id for s in questions.samples if s.meta["kind"] == "agnostic"]
        if questions.counts:
            repeated[lang] = questions.counts
    assert len(task.languages) == 23
    # Three agnostic questions asked in eight languages, and 12 culturally specific ones.
    assert sum(n for (_, kind), n in counts.items() if kind == "agnostic") == 3 * 8
    assert sum(n for (_, kind), n in counts.items() if kind == "specific") == 12
    assert {lang for lang, _ in counts} == {"en", "es", "zh", "de", "fj", "bal", "rn", "to"}
    assert counts[("fj", "specific")] == counts[("bal", "specific")] == counts[("rn", "specific")] == 2
    # Agnostic ids are shared across languages; no question repeats another.
    shared_ids = {tuple(ids) for ids in agnostic_ids.values() if ids}
    assert shared_ids == {("non_cultural:0", "non_cultural:1", "non_cultural:2")}
    assert repeated == {}
    english = {s.id: s for s in load_calmqa("en", source).samples}
    assert english["non_cultural:0"].best_answer and english["non_cultural:2"].best_answer == ""
    assert english["English:0"].correct_answers and len(english["English:0"].correct_answers) == 2


def test_prompt_is_the_question_alone():
    task = get_task("calmqa")
    sample = load_sample()
    plain = task.gen_request(sample, None, TaskOptions())
    # The authors' template is "[question]\n" (data/prompts/generation-prompt.txt).
    assert plain.prompt.text == sample.question + "\n" and plain.max_new_tokens == 2048 and plain.temperature == 0.0
    chat = task.gen_request(sample, None, TaskOptions(chat_template=True, max_new_tokens=300))
    assert [(m.role, m.content) for m in chat.prompt.messages] == [("user", sample.question + "\n")]
    assert chat.max_new_tokens == 300
    outputs, metrics = task.score_gen(sample, Generation("  Na lovo ...  ", 4, "length"))
    assert outputs == {"answer": "Na lovo ...", "empty": False, "finish_reason": "length"} and metrics == {}


def load_sample():
    from mlbench.benchmarks.calmqa.loader import to_sample

    return to_sample(normalize_row(RELEASE_ROWS[2], "row"))


def test_protocol_checks():
    task = get_task("calmqa")
    with pytest.raises(MlbenchError, match="zero-shot"):
        task.validate(TaskOptions(fewshot=2))
    with pytest.raises(MlbenchError, match="no embedded sample set"):
        task.validate(TaskOptions(DataSource("sample")))


def record(issue=False, relevance=None, support=None):
    judges = {}
    if relevance is not None:
        judges["relevance"] = {"label": relevance} if relevance != "skipped" else {"skipped": "surface issue"}
    if support is not None:
        judges["claim_support"] = support
    return SampleRecord("q", surface={"issue": issue}, judges=judges)


HUMAN = "human"


@pytest.mark.parametrize(
    "sample, expected",
    [
        # Before any judge: no overall score, not even from the surface failures.
        (record(issue=True), {}),
        (record(), {}),
        # Surface issue: 0 overall, judges skipped.
        (
            record(issue=True, relevance="skipped", support={"skipped": "surface", "evidence": HUMAN}),
            {"overall_without_factuality": 0.0, "overall": 0.0},
        ),
        # Surface issue, no evidence for the question: factuality-free score only.
        (
            record(issue=True, relevance="skipped", support={"skipped": "surface", "evidence": None}),
            {"overall_without_factuality": 0.0},
        ),
        # Clean, relevant, 2 of 3 claims supported.
        (
            record(relevance="relevant", support={"supported": 2 / 3, "claims": [{}, {}, {}], "evidence": HUMAN}),
            {"factuality": 2 / 3, "overall_without_factuality": 1.0, "overall": 2 / 3},
        ),
        # Clean but irrelevant: 0 overall whatever the claims say.
        (
            record(relevance="irrelevant", support={"supported": 1.0, "claims": [{}], "evidence": "search"}),
            {"factuality": 1.0, "overall_without_factuality": 0.0, "overall": 0.0},
        ),
        # No verifiable claim: factuality 0, as the paper scores it.
        (
            record(relevance="relevant", support={"supported": None, "claims": [], "evidence": HUMAN}),
            {"factuality": 0.0, "overall_without_factuality": 1.0, "overall": 0.0},
        ),
        # Claims there but no verdict readable: n/a, not 0.
        (
            record(
                relevance="relevant", support={"supported": None, "claims": [{}], "unreadable": 1, "evidence": HUMAN}
            ),
            {"overall_without_factuality": 1.0},
        ),
        # Clean, relevant, no evidence source at all: factuality n/a.
        (
            record(relevance="relevant", support={"skipped": "no evidence", "evidence": None}),
            {"overall_without_factuality": 1.0},
        ),
        # A failed judge call gives nothing to multiply.
        (
            record(relevance="relevant", support={"judge_error": "HTTP 500", "evidence": HUMAN}),
            {"overall_without_factuality": 1.0},
        ),
    ],
)
def test_overall_scores_by_hand(sample, expected):
    assert overall_scores(sample) == pytest.approx(expected)


def test_a_failed_generation_has_no_scores():
    assert overall_scores(SampleRecord("q", outputs={"error": "gen: boom"})) == {}


def test_prompt_makes_runs_of_newlines_one_as_the_authors_generate_py():
    task = get_task("calmqa")
    sample = replace(load_sample(), question="Tell me about lovo.\n\nWhy is it cooked underground?")
    prompt = task.gen_request(sample, None, TaskOptions()).prompt.text
    assert prompt == "Tell me about lovo.\nWhy is it cooked underground?\n"
    assert task.mode_settings("gen", TaskOptions()) == {"prompt": "authors"}
