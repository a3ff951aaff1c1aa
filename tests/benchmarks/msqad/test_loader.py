"""The MSQAD loader on the fixture data (tests/fixture_data.py) and on small files we write.

The real release's counts are checked in tests/full_data/test_loaders_full.py."""

from __future__ import annotations

import json

import pytest

from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS, available_topics, load_msqad
from mlbench.errors import MlbenchError

TOPIC_ROWS = {
    "Crisis and Conflict": 6,
    "Disability Rights": 6,
    "Rights of Older People": 30,
}


def test_the_fixture_release_in_every_language(fixture_datasets):
    assert available_topics(fixture_datasets) == tuple(TOPIC_ROWS)
    ids = None
    for lang in LANGUAGE_COLUMNS:
        questions = load_msqad(fixture_datasets, lang)
        assert len(questions.samples) == sum(TOPIC_ROWS.values()) and questions.counts == {}
        mine = [s.id for s in questions.samples]
        assert ids is None or mine == ids  # rows are parallel: the same ids in every language
        ids = mine
        sample = questions.samples[0]
        assert sample.lang == lang and sample.question and sample.best_answer and sample.incorrect_answers
        assert sample.id == "Crisis and Conflict:0" and sample.meta["topic"] == "Crisis and Conflict"
    korean = load_msqad(fixture_datasets, "ko").samples[0].question
    assert any("\uac00" <= ch <= "\ud7a3" for ch in korean)  # Hangul, read through the byte-order mark
    assert (fixture_datasets / "msqad" / "Crisis and Conflict.json").read_bytes().startswith(b"\xef\xbb\xbf")


def test_topics_filter_and_an_unknown_topic_is_an_error(fixture_datasets):
    older = load_msqad(fixture_datasets, "de", ("Rights of Older People",))
    assert len(older.samples) == TOPIC_ROWS["Rights of Older People"]
    assert {s.meta["topic"] for s in older.samples} == {"Rights of Older People"}
    with pytest.raises(MlbenchError, match="no topic 'Refugees'.*found: Crisis and Conflict"):
        load_msqad(fixture_datasets, "de", ("Refugees",))


def _row(**overrides):
    row = {"news_url": "u", "title": "t", "subtitle": "s", "generated_keywords": "k"}
    for name in LANGUAGE_COLUMNS.values():
        row.update({f"{name}_question": f"{name} q?", f"{name}_acceptable_response": "ok",
                    f"{name}_non-acceptable_response": "bad"})  # fmt: skip
    return {**row, **overrides}


def _write(folder, topic, rows, bom=True):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{topic}.json").write_text(
        json.dumps(rows, ensure_ascii=False), encoding="utf-8-sig" if bom else "utf-8"
    )


def test_a_clone_of_the_release_is_read_and_empty_questions_are_counted(tmp_path):
    _write(tmp_path / "MSQAD" / "gpt-3.5-turbo-0125", "Women's Rights", [_row(), _row(Hindi_question="  "), _row()])
    hindi = load_msqad(tmp_path, "hi")
    assert [s.id for s in hindi.samples] == ["Women's Rights:0", "Women's Rights:2"]
    assert hindi.counts == {"skipped_empty_question": 1}
    assert len(load_msqad(tmp_path, "en").samples) == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a readable MSQAD topic file"),
        (json.dumps({"rows": []}), "expected a JSON array"),
        (json.dumps([_row(German_question=None) | {"German_question": 3}]), "German_question is not text"),
        (json.dumps([{k: v for k, v in _row().items() if k != "Korean_question"}]), "row 0 has no Korean_question"),
    ],
)
def test_malformed_files_are_one_line_errors(tmp_path, content, message):
    folder = tmp_path / "msqad"
    folder.mkdir()
    (folder / "Torture.json").write_text(content, encoding="utf-8")
    with pytest.raises(MlbenchError, match=message):
        load_msqad(tmp_path, "en")


def test_a_folder_without_topic_files_says_where_they_belong(tmp_path):
    with pytest.raises(MlbenchError, match="no MSQAD topic files: expected .*msqad/<Topic>.json"):
        load_msqad(tmp_path, "en")
