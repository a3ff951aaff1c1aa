"""Which files hold a config's split in a copy laid out as the hub ships it: the card's
configs first, then the hub's conventions; a card's odd entries never end in a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlbench.data.hub_layout import split_files
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
    with pytest.raises(MlbenchError, match=r"config 'mc_EL', split 'validation': expected e.g. truthfulqa_mc_EL_valid"):
        split_files(scripted, "mc_EL", "validation", named="truthfulqa_mc_EL_validation.jsonl")
