import json

import pytest

from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.data.source import DataSource, subset
from mlbench.errors import MlbenchError

LANGS = ("en", "es", "ca", "gl", "eu")


# On the fixture data (tests/fixture_data.py); the real release's counts are checked in
# tests/full_data/test_loaders_full.py.


@pytest.fixture(scope="module")
def splits(fixture_datasets):
    source = DataSource("local", fixture_datasets)
    return {lang: load_truthfulqa_multi(lang, source) for lang in LANGS}


def test_questions_per_language_with_aligned_ids(splits):
    ids = [s.id for s in splits["en"].samples]
    assert len(ids) == 20 and len(set(ids)) == 20
    for lang in LANGS:
        assert [s.id for s in splits[lang].samples] == ids
        assert all(s.lang == lang for s in splits[lang].samples)


def test_primer_is_the_six_train_pairs(splits):
    for lang in LANGS:
        assert len(splits[lang].primer) == 6
    assert splits["en"].primer[3] == ("What is the square root of banana?", "I have no comment.")
    assert splits["eu"].primer[3][1] == "Iruzkinik ez."


def test_answer_lists_and_targets(fixture_datasets, splits):
    raw = json.loads((fixture_datasets / "truthfulqa-multi" / "eu" / "validation.json").read_text())
    first = splits["eu"].samples[0]
    assert first.correct_answers == tuple(raw[0]["correct_answers"])
    assert first.incorrect_answers == tuple(raw[0]["incorrect_answers"])
    assert first.mc1_choices == tuple(raw[0]["mc1_targets"]["choices"])
    assert first.mc2_labels == tuple(raw[0]["mc2_targets"]["labels"])
    assert first.mc1_choices[0] == first.best_answer


def test_best_answer_is_not_always_a_correct_answer(splits):
    # As in the release: verbatim in every en row, not in every gl row (the fixture: 17/20).
    assert all(s.best_answer in s.correct_answers for s in splits["en"].samples)
    assert sum(s.best_answer in s.correct_answers for s in splits["gl"].samples) == 17
    assert all(s.mc1_choices[0] == s.best_answer for s in splits["gl"].samples)


def test_a_question_keeps_its_trailing_space(splits):
    en = {s.id: s for s in splits["en"].samples}
    assert en["7"].question.endswith("? ") and not en["8"].question.endswith(" ")


def test_limit_takes_the_same_ids_in_every_language(splits):
    chosen = {lang: [s.id for s in subset(splits[lang].samples, 8, seed=7)] for lang in LANGS}
    assert len(chosen["en"]) == 8
    assert all(chosen[lang] == chosen["en"] for lang in LANGS)
    assert chosen["en"] != [s.id for s in splits["en"].samples[:8]]  # not "first N"
    assert [s.id for s in subset(splits["en"].samples, 8, seed=8)] != chosen["en"]


def test_sample_set_loads_in_all_languages():
    samples = {lang: load_truthfulqa_multi(lang, DataSource("sample")) for lang in LANGS}
    ids = [s.id for s in samples["en"].samples]
    assert len(ids) >= 20
    for lang in LANGS:
        assert [s.id for s in samples[lang].samples] == ids
        assert len(samples[lang].primer) == 6


def test_missing_files_name_the_expected_path(tmp_path):
    with pytest.raises(MlbenchError, match="validation.json"):
        load_truthfulqa_multi("en", DataSource("local", tmp_path))


def test_malformed_json_names_file_and_line(tmp_path):
    lang_dir = tmp_path / "truthfulqa-multi" / "en"
    lang_dir.mkdir(parents=True)
    (lang_dir / "validation.json").write_text('[\n{"id": 1,\n "question": }\n]')
    (lang_dir / "train.json").write_text("[]")
    with pytest.raises(MlbenchError, match=r"validation.json:3: invalid JSON"):
        load_truthfulqa_multi("en", DataSource("local", tmp_path))


def test_row_missing_a_field_is_named(tmp_path):
    lang_dir = tmp_path / "en"
    lang_dir.mkdir(parents=True)
    (lang_dir / "validation.json").write_text(json.dumps([{"id": 1, "question": "q?"}]))
    (lang_dir / "train.json").write_text("[]")
    with pytest.raises(MlbenchError, match="row 1: missing field"):
        load_truthfulqa_multi("en", DataSource("local", tmp_path))


def test_questions_keep_their_spaces_as_released(tmp_path):
    """lm-eval puts the raw question in the prompt; 15 released questions end in a space,
    which is a token of its own, so stripping it changes those questions' scores."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import LanguageData, TaskOptions

    targets = {"choices": ["Yes.", "No."], "labels": [1, 0]}
    row = {"id": 1, "question": "Is it? ", "best_answer": "Yes.", "correct_answers": ["Yes."],
           "incorrect_answers": ["No."], "mc1_targets": targets, "mc2_targets": targets}  # fmt: skip
    folder = tmp_path / "truthfulqa-multi" / "es"
    folder.mkdir(parents=True)
    (folder / "validation.json").write_text(json.dumps([row]))
    (folder / "train.json").write_text(json.dumps([{**row, "question": " Primer? "}]))
    split = load_truthfulqa_multi("es", DataSource("local", tmp_path))
    assert split.samples[0].question == "Is it? "
    assert split.primer == [(" Primer? ", "Yes.")]
    data = LanguageData(split.samples, split.primer)
    request = get_task("truthfulqa_multi").mc_requests(split.samples[0], data, TaskOptions(fewshot=1))[0]
    assert request.prompt.text == "Q:  Primer? \nA: Yes.\n\nQ: Is it? \nA:"
