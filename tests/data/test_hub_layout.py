"""Which files hold a config's split in a copy laid out as the hub ships it: the card's
configs first, then the hub's conventions; a card's odd entries never end in a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlbench.data.hub_layout import listed_split_files, split_files
from mlbench.errors import MlbenchError


def touch(folder: Path, *paths: str) -> None:
    for path in paths:
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text("{}\n")


def card(folder: Path, yaml: str) -> None:
    (folder / "README.md").write_text(f"---\n{yaml}\n---\n# a dataset\n")


def test_the_cards_configs_name_the_files(tmp_path):
    touch(tmp_path, "x/es-val-0.jsonl", "x/es-val-1.jsonl", "data/es/val.jsonl")
    card(tmp_path, "configs:\n- config_name: es\n  data_files:\n  - split: val\n    path: x/es-val-*.jsonl")
    assert split_files(tmp_path, "es", "val") == [tmp_path / "x/es-val-0.jsonl", tmp_path / "x/es-val-1.jsonl"]
    with pytest.raises(MlbenchError, match="config 'es' has no 'test' split with files here"):
        split_files(tmp_path, "es", "test")


@pytest.mark.parametrize(
    ("files", "config", "split", "found"),
    [
        (["data/ru/val.jsonl"], "ru", "val", "data/ru/val.jsonl"),
        (["ru/validation/0000.parquet"], "ru", "validation", "ru/validation/0000.parquet"),
        (["ru/validation-00000-of-00001.parquet"], "ru", "validation", "ru/validation-00000-of-00001.parquet"),
        (["data/validation-00000-of-00001.jsonl"], "default", "validation", "data/validation-00000-of-00001.jsonl"),
        (["validation.json"], "default", "validation", "validation.json"),
    ],
)
def test_the_hubs_conventions_without_a_card(tmp_path, files, config, split, found):
    touch(tmp_path, *files)
    assert split_files(tmp_path, config, split) == [tmp_path / found]


def test_a_card_config_with_a_data_dir(tmp_path):
    touch(tmp_path, "langs/zh/validation.jsonl")
    card(tmp_path, "configs:\n- config_name: zh\n  data_dir: langs/zh")
    assert split_files(tmp_path, "zh", "validation") == [tmp_path / "langs/zh/validation.jsonl"]


@pytest.mark.parametrize("path", ["5", "[data/es/*.jsonl, 5]", "/etc/*.conf", '""', "../outside/*.jsonl"])
def test_odd_card_paths_match_nothing_and_say_so(tmp_path, path):
    card(tmp_path, f"configs:\n- config_name: es\n  data_files:\n  - split: val\n    path: {path}")
    with pytest.raises(MlbenchError, match="config 'es' has no 'val' split with files here"):
        split_files(tmp_path, "es", "val")


def test_a_missing_config_lists_those_there_and_a_folder_is_not_a_file(tmp_path):
    (tmp_path / "data" / "es" / "val.jsonl").mkdir(parents=True)  # a folder with a file's name
    touch(tmp_path, "data/ru/val.jsonl")
    with pytest.raises(MlbenchError, match=r"no data for config 'es', split 'val'.*configs there: es, ru"):
        split_files(tmp_path, "es", "val")


def test_a_file_the_benchmark_names_comes_first_and_a_converted_copy_still_reads(tmp_path):
    # openGPT-X/truthfulqax: configs only its loading script names, one file each at the top.
    named = "truthfulqa_mc_DE_validation.jsonl"
    scripted, converted = tmp_path / "scripted", tmp_path / "converted"
    touch(scripted, named, "truthfulqa_gen_DE_validation.jsonl", "mc_DE/validation.jsonl")
    assert split_files(scripted, "mc_DE", "validation", named=named) == [scripted / named]
    touch(converted, "mc_DE/validation/0000.parquet")  # the hub's Parquet conversion of it
    assert split_files(converted, "mc_DE", "validation", named=named) == [converted / "mc_DE/validation/0000.parquet"]
    with pytest.raises(
        MlbenchError, match=r"no truthfulqa_mc_EL_validation.jsonl for config 'mc_EL', split 'validation'"
    ):
        split_files(scripted, "mc_EL", "validation", named="truthfulqa_mc_EL_validation.jsonl")


CARD_TEXT = """---
configs:
- config_name: TruthfulQA-egy
  data_files:
  - split: test
    path: TruthfulQA_egy/test-*.json
- config_name: other
  data_dir: other_dir
- config_name: top
  data_dir: ./
- config_name: deep
  data_files:
  - split: test
    path: "**/deep-*.parquet"
---
"""


@pytest.mark.parametrize(
    ("paths", "card", "config", "split", "named", "expected"),
    [
        # A file the benchmark names (TruthfulQA-X), one config of twenty fetched.
        (["truthfulqa_gen_DE_validation.jsonl", "truthfulqa_gen_FR_validation.jsonl", "README.md"], None,
         "gen_DE", "validation", "truthfulqa_{config}_{split}.jsonl".format(config="gen_DE", split="validation"),
         ["truthfulqa_gen_DE_validation.jsonl"]),
        # The card's data_files (a glob), and a data_dir with the conventions inside it.
        (["TruthfulQA_egy/test-0.json", "TruthfulQA_egy/test-1.json", "TruthfulQA_lev/test-0.json"], CARD_TEXT,
         "TruthfulQA-egy", "test", None, ["TruthfulQA_egy/test-0.json", "TruthfulQA_egy/test-1.json"]),
        (["other_dir/test.parquet", "other_dir/train.parquet"], CARD_TEXT, "other", "test", None,
         ["other_dir/test.parquet"]),
        (["test.jsonl", "train.jsonl", "other_dir/test.parquet"], CARD_TEXT, "top", "test", None, ["test.jsonl"]),
        # "**" reaches any folder depth, the top one included.
        (["deep-0.parquet", "a/deep-1.parquet", "a/b/deep-2.parquet", "a/b/flat-3.parquet"], CARD_TEXT, "deep",
         "test", None, ["a/b/deep-2.parquet", "a/deep-1.parquet", "deep-0.parquet"]),
        # The hub's conventions: data/<config>/..., and a Parquet conversion's shards.
        (["data/nb/validation.jsonl", "data/nn/validation.jsonl"], None, "nb", "validation", None,
         ["data/nb/validation.jsonl"]),
        (["mc_DE/validation/0000.parquet", "mc_DE/validation/0001.parquet", "mc_EL/validation/0000.parquet"], None,
         "mc_DE", "validation", "truthfulqa_mc_DE_validation.jsonl",
         ["mc_DE/validation/0000.parquet", "mc_DE/validation/0001.parquet"]),
    ],
)  # fmt: skip
def test_a_listing_finds_the_files_of_one_config_as_a_copy_would(tmp_path, paths, card, config, split, named, expected):
    assert listed_split_files(paths, card, config, split, named=named) == expected
    touch(tmp_path, *paths)  # the same answer from a copy on disk
    if card is not None:
        (tmp_path / "README.md").write_text(card, encoding="utf-8")
    assert split_files(tmp_path, config, split, named=named) == [tmp_path / p for p in expected]


def test_a_listing_without_the_config_names_the_file_and_the_configs_there():
    paths = ["truthfulqa_gen_DE_validation.jsonl"]
    with pytest.raises(MlbenchError, match=r"no truthfulqa_gen_BG_validation.jsonl for config 'gen_BG'"):
        listed_split_files(paths, None, "gen_BG", "validation", named="truthfulqa_gen_BG_validation.jsonl")
