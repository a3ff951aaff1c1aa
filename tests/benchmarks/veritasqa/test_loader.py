import csv

import pytest

from mlbench.benchmarks.veritasqa.loader import load_veritasqa, split_answers
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError

LANGS = ("en", "es", "ca", "gl")


# On the fixture data (tests/fixture_data.py); the real release (353 questions) is checked
# in tests/full_data/test_loaders_full.py.


@pytest.fixture(scope="module")
def data(fixture_datasets):
    return {lang: load_veritasqa(lang, DataSource("local", fixture_datasets)) for lang in LANGS}


def test_questions_per_language_with_aligned_ids(data):
    ids = [s.id for s in data["en"]]
    assert len(ids) == 12 and ids[0] == "veritas_001" and ids[-1] == "veritas_012"
    for lang in LANGS:
        assert [s.id for s in data[lang]] == ids
        assert all(s.lang == lang for s in data[lang])


def test_answers_split_on_semicolons(fixture_datasets, data):
    with (fixture_datasets / "veritasqa" / "veritasqa_ca.csv").open(encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    sample = data["ca"][0]
    assert sample.correct_answers == tuple(a.strip() for a in row["Correct Answers"].split(";"))
    assert len(sample.correct_answers) == 3 and len(sample.incorrect_answers) == 4
    assert sample.incorrect_answers[0] == "La llet fa que el cos produeixi més mocs"
    # Commas inside an answer stay in it (the CSV quotes the field).
    assert sample.best_answer == "No passa res d'especial, la llet no empitjora el refredat"
    assert sample.meta["category"] == "Health and Body"


def test_split_answers():
    assert split_answers("a; b ;c;; ") == ("a", "b", "c")


def test_missing_column(tmp_path):
    (tmp_path / "veritasqa_en.csv").write_text("id,Question\nveritas_001,Why?\n")
    with pytest.raises(MlbenchError, match="missing column"):
        load_veritasqa("en", DataSource("local", tmp_path))


def test_bad_row_names_file_and_line(tmp_path):
    (tmp_path / "veritasqa_en.csv").write_text(
        "id,Question,Best Answer,Correct Answers,Incorrect Answers\n"
        "veritas_001,Why?,Because.,Because.,No.\n"
        "veritas_002,,Because.,Because.,No.\n"
    )
    with pytest.raises(MlbenchError, match=r"veritasqa_en.csv:3: empty or missing question"):
        load_veritasqa("en", DataSource("local", tmp_path))


def test_missing_file(tmp_path):
    with pytest.raises(MlbenchError, match="veritasqa_es.csv"):
        load_veritasqa("es", DataSource("local", tmp_path))
