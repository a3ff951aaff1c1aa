"""CaLMQA from a local snapshot of the hub repository: ClassLabel integers decoded with the
dataset's own label names, plain strings kept, and the default source read through
``mlbench.data.source_folder``. Snapshots are built here, in the hub's layout."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.calmqa.loader import load_calmqa, load_rows, read_hub_folder
from mlbench.benchmarks.calmqa.options import CalmqaOptions
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError

# The hub's label names, in label order (0-22 and 0-1).
LANGUAGES = [
    "Afar", "Arabic", "Balochi", "Chinese", "English", "Faroese", "Fijian", "German", "Hebrew", "Hiligaynon",
    "Hindi", "Hungarian", "Japanese", "Kirundi", "Korean", "Papiamento", "Pashto", "Russian", "Samoan",
    "Spanish", "Tongan", "Tswana", "Wolof",
]  # fmt: skip
KINDS = ["culturally agnostic", "culturally specific"]
FIJIAN, ENGLISH, AGNOSTIC, SPECIFIC = LANGUAGES.index("Fijian"), LANGUAGES.index("English"), 0, 1

ROWS = {
    "language": [FIJIAN, ENGLISH, FIJIAN],
    "question_type": [AGNOSTIC, AGNOSTIC, SPECIFIC],
    "question": ["Na cava e tagi kina na tamata?", "Why do onions make people cry?", "E vakarautaki vakacava na lovo?"],
    "question_english": ["Why do onions make people cry?", "Why do onions make people cry?", "How is a lovo made?"],
    "answer": [None, "Cutting them releases a gas.", "Food is cooked under hot stones."],
}
TEXT_COLUMNS = ("question", "question_english", "answer")


def features(language: datasets.features.FeatureType, kind: datasets.features.FeatureType) -> datasets.Features:
    return datasets.Features(
        {"language": language, "question_type": kind, **{c: datasets.Value("string") for c in TEXT_COLUMNS}}
    )


HUB_FEATURES = features(datasets.ClassLabel(names=LANGUAGES), datasets.ClassLabel(names=KINDS))


@pytest.fixture(autouse=True)
def private_datasets_cache(tmp_path, monkeypatch):
    # load_dataset converts a folder into its own cache: keep that out of the user's.
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-datasets-cache")


def write_snapshot(folder: Path, rows: dict[str, list], schema: datasets.Features) -> Path:
    """A folder laid out as the hub repository is (``data/train-*.parquet``)."""
    path = folder / "data" / "train-00000-of-00001.parquet"
    path.parent.mkdir(parents=True)
    datasets.Dataset.from_dict(rows, features=schema).to_parquet(path)
    return folder


def test_class_labels_survive_the_parquet_round_trip(tmp_path):
    # The loader relies on load_dataset handing back the ClassLabel features that
    # to_parquet stores in the file's schema metadata (no README needed).
    folder = write_snapshot(tmp_path / "snapshot", ROWS, HUB_FEATURES)
    loaded = datasets.load_dataset(str(folder), split="train")
    assert isinstance(loaded.features["language"], datasets.ClassLabel)
    assert loaded.features["language"].names == LANGUAGES and loaded[0]["language"] == FIJIAN


def hub_card(labels: dict[str, list[str]]) -> str:
    """A README.md with the ``dataset_info`` features YAML the hub writes for a dataset."""
    lines = ["---", "dataset_info:", "  features:"]
    for column, names in labels.items():
        lines += [f"  - name: {column}", "    dtype:", "      class_label:", "        names:"]
        lines += [f"          '{index}': {name}" for index, name in enumerate(names)]
    lines += [f"  - name: {column}\n    dtype: string" for column in TEXT_COLUMNS]
    lines += ["configs:", "- config_name: default", "  data_files:", "  - {split: train, path: data/train-*}", "---"]
    return "\n".join(lines) + "\n"


def test_class_labels_come_from_the_dataset_card_too(tmp_path):
    # Parquet written without datasets' schema metadata: the labels live in the card only.
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "snapshot"
    (folder / "data").mkdir(parents=True)
    pq.write_table(pa.table(ROWS), folder / "data" / "train-00000-of-00001.parquet")
    # Labels in an order of our own, so that the hub's known order would decode them wrongly.
    (folder / "README.md").write_text(hub_card({"language": LANGUAGES[::-1], "question_type": KINDS}))
    rows = read_hub_folder(folder)
    assert [(r["lang"], r["kind"]) for r in rows] == [("ps", "agnostic"), ("sm", "agnostic"), ("ps", "specific")]


def test_class_label_integers_become_languages_and_kinds(tmp_path):
    rows = read_hub_folder(write_snapshot(tmp_path / "snapshot", ROWS, HUB_FEATURES))
    assert [(r["lang"], r["kind"]) for r in rows] == [("fj", "agnostic"), ("en", "agnostic"), ("fj", "specific")]
    assert [r["references"] for r in rows] == [[], ROWS["answer"][1:2], ROWS["answer"][2:]]
    # A translated (agnostic) question keeps one id across languages; a specific one has its own.
    assert rows[0]["id"] == rows[1]["id"] and rows[0]["id"].startswith("agnostic:")
    assert rows[2]["id"].startswith("specific:") and rows[2]["question_english"] == "How is a lovo made?"


def test_the_labels_come_from_the_datasets_own_features(tmp_path):
    # Label 0 is Tongan here: a decoder using the hub's known order would say Afar.
    schema = features(datasets.ClassLabel(names=["Tongan", "Samoan"]), datasets.ClassLabel(names=KINDS[::-1]))
    rows = {**{c: v[:1] for c, v in ROWS.items()}, "language": [0], "question_type": [0]}
    [row] = read_hub_folder(write_snapshot(tmp_path / "snapshot", rows, schema))
    assert (row["lang"], row["kind"]) == ("to", "specific")


def test_plain_strings_still_work(tmp_path):
    kinds = ["culturally agnostic", "culturally agnostic", "culturally_specific"]
    rows = {**ROWS, "language": ["Fijian", "English", "Kirundi"], "question_type": kinds}
    schema = features(datasets.Value("string"), datasets.Value("string"))
    loaded = read_hub_folder(write_snapshot(tmp_path / "snapshot", rows, schema))
    assert [(r["lang"], r["kind"]) for r in loaded] == [("fj", "agnostic"), ("en", "agnostic"), ("rn", "specific")]


def test_plain_integers_fall_back_to_the_hubs_label_order(tmp_path):
    schema = features(datasets.Value("int64"), datasets.Value("int64"))
    loaded = read_hub_folder(write_snapshot(tmp_path / "snapshot", ROWS, schema))
    assert [(r["lang"], r["kind"]) for r in loaded] == [("fj", "agnostic"), ("en", "agnostic"), ("fj", "specific")]


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("language", 23, "row 2: language label 23 is not one of the 23 known labels"),
        ("question_type", -1, "row 2: question_type label -1 is not one of the 2 known labels"),
    ],
)
def test_an_unknown_label_is_a_one_line_error(tmp_path, column, value, message):
    schema = features(datasets.Value("int64"), datasets.Value("int64"))
    rows = {**ROWS, column: [ROWS[column][0], value, ROWS[column][2]]}
    with pytest.raises(MlbenchError, match=message) as error:
        read_hub_folder(write_snapshot(tmp_path / "snapshot", rows, schema))
    assert "\n" not in str(error.value)


def test_a_folder_without_data_is_a_one_line_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(MlbenchError, match="not a readable snapshot of shanearora/CaLMQA") as error:
        read_hub_folder(tmp_path / "empty")
    assert "\n" not in str(error.value)


@pytest.fixture
def hub_snapshot(tmp_path, monkeypatch):
    """The default source, pointed at a snapshot built here (as the datastore would)."""
    folder = tmp_path / "snapshot"
    asked: list[str] = []

    def source_folder(name: str) -> Path:
        asked.append(name)
        return folder

    monkeypatch.setattr("mlbench.data.source_folder", source_folder)
    return folder, asked


def test_the_default_source_reads_the_datastores_snapshot(hub_snapshot):
    folder, asked = hub_snapshot
    write_snapshot(folder, ROWS, HUB_FEATURES)
    assert [r["lang"] for r in load_rows(DataSource("hub"))] == ["fj", "en", "fj"]
    assert asked == ["calmqa"]
    data = get_task("calmqa").load("fj", TaskOptions(own=CalmqaOptions(kind="specific")))
    assert [s.question for s in data.samples] == ["E vakarautaki vakacava na lovo?"] and data.counts == {}


def test_repeated_hub_questions_are_kept_under_distinct_ids(hub_snapshot):
    # The hub has no ids: two specific questions with one text hash to one id.
    folder, _ = hub_snapshot
    rows = {column: [*values, values[2]] for column, values in ROWS.items()}
    rows["answer"][3] = "A second answer."
    write_snapshot(folder, rows, HUB_FEATURES)
    questions = load_calmqa("fj", DataSource("hub"))
    ids = [s.id for s in questions.samples]
    assert len(ids) == 3 and ids[2] == f"{ids[1]}#2"
    assert [s.best_answer for s in questions.samples[1:]] == ["Food is cooked under hot stones.", "A second answer."]
    assert questions.counts == {"duplicate_question_kept": 1, "duplicate_id_renamed": 1}
    # The task reports the counts with the language's results.
    assert get_task("calmqa").load("fj", TaskOptions()).counts == questions.counts
    assert load_calmqa("en", DataSource("hub")).counts == {}
