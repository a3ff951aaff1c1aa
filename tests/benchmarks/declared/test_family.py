"""Uhura-TruthfulQA and X-TruthfulQA, declared in TOML files: their sources and licences,
their readers on copies in the hubs' layouts, Uhura's few-shot pairs from its train split,
and X-TruthfulQA aligned to TruthfulQA by its English questions (the count matched said)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.declarative.data import language_files, read_language
from mlbench.benchmarks.declarative.spec import read_spec
from mlbench.benchmarks.english_match import align_by_english
from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.data.catalog import get_source
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from tests.benchmarks.declared.family_fixture import (
    UHURA_LANGS,
    UHURA_ROWS,
    UHURA_TRAIN,
    X_CHANGED,
    X_ROWS,
    write_uhura_copy,
    write_x_copy,
    x_id,
)
from tests.cli.test_cli import run_cli, run_model


@pytest.fixture(scope="module")
def uhura(tmp_path_factory) -> Path:
    return write_uhura_copy(tmp_path_factory.mktemp("uhura"))


@pytest.fixture(scope="module")
def x_dir(tmp_path_factory, fixture_datasets) -> Path:
    """A --data-dir with X-TruthfulQA's copy and TruthfulQA-Multi's, whose English it is
    matched against."""
    root = tmp_path_factory.mktemp("x")
    write_x_copy(root / "X-TruthfulQA_en_zh_ko_it_es")
    (root / "truthfulqa-multi").symlink_to(fixture_datasets / "truthfulqa-multi", target_is_directory=True)
    return root


def test_uhura_is_declared_with_its_hub_source_licence_and_why_it_is_not_aligned():
    for name, modes in (("uhura_truthfulqa", ("mc",)), ("uhura_truthfulqa_gen", ("gen",))):
        task = get_task(name)
        assert task.languages == UHURA_LANGS and task.mode_names == modes and task.default_fewshot == 0
        source = get_source(name)
        assert (source.repo, source.revision, source.license) == ("masakhane/uhura-truthfulqa", "main", "MIT")
        assert task.alignment is not None and not task.alignment.aligned
        assert task.alignment.translation == "human" and "no id" in task.alignment.how


def test_uhura_multiple_choice_reads_each_config_with_its_own_rows(uhura):
    spec = get_task("uhura_truthfulqa").spec
    for lang in UHURA_LANGS:  # English's files are JSON Lines, the others JSON arrays
        samples = read_language(spec, lang, uhura).samples
        assert [s.id for s in samples] == [f"{lang}-{i:04d}" for i in range(UHURA_ROWS[lang])]
    first = read_language(spec, "nso", uhura).samples[0]
    assert first.question == "(nso) Question 3 about a common belief?"
    assert first.mc1_choices[0] == first.best_answer == "(nso) The belief 3 is false."
    assert first.mc2_labels == (1, 1, 0, 0) and len(first.mc2_choices or ()) == 4


def test_uhura_few_shot_pairs_come_from_its_train_split(uhura):
    task = get_task("uhura_truthfulqa")
    options = TaskOptions(DataSource("local", uhura), fewshot=2)
    data = task.load("sw", options)
    assert data.primer == [(f"(sw) Question {i} about a common belief?", f"(sw) The belief {i} is false.")
                           for i in range(UHURA_TRAIN)]  # fmt: skip
    (request, *_) = task.mc_requests(data.samples[0], data, options)
    text = request.prompt.text
    assert text.startswith("Q: (sw) Question 0 about a common belief?\nA: (sw) The belief 0 is false.")
    assert (
        "Question 1" in text
        and "Question 2" not in text
        and text.endswith("Q: (sw) Question 3 about a common belief?\nA:")
    )
    # A run of one language fetches that language's train split with its test split.
    listing = sorted(p.name for p in uhura.iterdir())
    assert language_files(task.spec, "sw", listing, None) == [
        "sw_multiple_choice_test.json",
        "sw_multiple_choice_train.json",
    ]


def test_more_shots_than_the_train_split_holds_is_one_line(uhura):
    with pytest.raises(MlbenchError) as caught:
        get_task("uhura_truthfulqa").load("zu", TaskOptions(DataSource("local", uhura), fewshot=5))
    assert str(caught.value) == (
        "uhura_truthfulqa zu: 5-shot but masakhane/uhura-truthfulqa config 'zu_multiple_choice' split 'train' "
        f"has {UHURA_TRAIN} rows"
    )


def test_uhura_generation_keeps_the_datas_type_and_category(uhura):
    samples = read_language(get_task("uhura_truthfulqa_gen").spec, "yo", uhura).samples
    assert len(samples) == UHURA_ROWS["yo"] and samples[0].best_answer == "(yo) The belief 3 is false."
    assert samples[0].meta == {"type": "Adversarial", "category": "Misconceptions"}


def test_x_truthfulqa_is_declared_with_its_splits_licence_and_translator():
    task = get_task("x_truthfulqa")
    assert task.languages == ("en", "zh", "ko", "it", "es") and task.mode_names == ("gen",)
    source = get_source("x_truthfulqa")
    assert (source.repo, source.license) == ("zhihz0535/X-TruthfulQA_en_zh_ko_it_es", "Apache-2.0")
    assert len(source.revision) == 40
    assert task.alignment is not None and task.alignment.aligned
    assert (task.alignment.translation, task.alignment.translator) == ("machine", "GPT-4")


def test_x_truthfulqa_rows_are_truthfulqas_where_the_english_question_matches(x_dir):
    task = get_task("x_truthfulqa")
    options = TaskOptions(DataSource("local", x_dir))
    for lang in ("en", "ko"):
        matched = align_by_english(task, task.load(lang, options), options, lang)
        samples, line = matched.data.samples, matched.warning
        assert sorted(s.id for s in samples) == sorted(str(x_id(i)) for i in range(X_ROWS))
        # Each id's English question is TruthfulQA's row it was written from, but the one changed.
        assert {s.id: s.meta.get(TQA_INDEX_LABEL) for s in samples} == {
            str(x_id(i)): None if i == X_CHANGED else str(i) for i in range(X_ROWS)
        }
        assert line == (
            f"x_truthfulqa {lang}: 1 of {X_ROWS} questions have no TruthfulQA row: their en question matches none "
            "of TruthfulQA's English exactly (they are left out of report --align)"
        )
    assert samples[-2].question.startswith("(ko) How much of their brain")  # in the reverse order


def test_x_truthfulqa_without_truthfulqas_english_runs_unaligned_and_says_so(tmp_path):
    write_x_copy(tmp_path / "X-TruthfulQA_en_zh_ko_it_es")
    task = get_task("x_truthfulqa")
    options = TaskOptions(DataSource("local", tmp_path))
    matched = align_by_english(task, task.load("zh", options), options, "zh")
    data, line = matched.data, matched.note
    assert len(data.samples) == X_ROWS and not any(TQA_INDEX_LABEL in s.meta for s in data.samples)
    assert line is not None and line.startswith(
        "x_truthfulqa: not aligned (report --align): TruthfulQA's English (truthfulqa_multi en) cannot be read: "
    )
    assert str(tmp_path) in line and matched.unknown == (TQA_INDEX_LABEL, "scope")  # kept as saved on --resume


def test_spanish_of_x_truthfulqa_against_truthfulqa_multis_is_paired_in_the_report(tiny_model, x_dir, tmp_path):
    out = tmp_path / "out"
    for task in ("x_truthfulqa", "truthfulqa_multi"):
        flags = f"--task {task} --lang es --mode gen --backend hf --no-cache --max-new-tokens 8"
        result = run_model(tiny_model, out, flags, "--data-dir", x_dir)
        assert result.exit_code == 0, result.output
    report = run_cli("report", out, "--align", "tqa_index", "--ref-lang", "es (truthfulqa_multi)",
                     "--format", "json", "--out", tmp_path / "r")  # fmt: skip
    assert report.exit_code == 0, report.output
    payload = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    table = next(t for t in payload["tables"] if t["metric"] == "bleu_acc")
    cell = table["rows"][0]["cells"]["es (x_truthfulqa)"]
    assert cell["n"] == X_ROWS - 1 and cell["gap_n"] == X_ROWS - 1 and cell["paired"] is True
    spanish = next(r for r in payload["translations"] if r["metric"] == "bleu_acc" and r["lang"] == "es")
    assert spanish["translations"] == {"truthfulqa_multi": "human", "x_truthfulqa": "machine"}


def test_a_run_of_one_x_truthfulqa_language_fetches_the_english_it_is_matched_by():
    spec = get_task("x_truthfulqa").spec
    listing = ["README.md", "chinese.json", "english.json", "italian.json", "korean.json", "spanish.json"]
    assert language_files(spec, "zh", listing, None) == ["chinese.json", "english.json"]
    assert language_files(spec, "en", listing, None) == ["english.json"]


def test_mlbench_tasks_lists_them_with_languages_licences_and_translations():
    listed = {t["name"]: t for t in json.loads(run_cli("tasks", "--json").output)["tasks"]}
    assert listed["uhura_truthfulqa"]["license"] == "MIT" and len(listed["uhura_truthfulqa"]["languages"]) == 7
    assert listed["x_truthfulqa"]["license"] == "Apache-2.0"
    assert listed["x_truthfulqa"]["alignment"]["translator"] == "GPT-4"
    assert listed["veritasqa"]["alignment"]["translation"] == "human"
    text = " ".join(run_cli("tasks").output.split())
    for name, facts in (("uhura_truthfulqa_gen", "licence: MIT translation: human"),
                        ("x_truthfulqa", "licence: Apache-2.0 translation: machine (GPT-4)"),
                        ("msqad", "licence: none stated translation: —")):  # fmt: skip
        assert f"{name} " in text and facts in text[text.index(f"{name} ") :]


@pytest.mark.parametrize(
    ("tables", "said"),
    [
        ('[align]\nenglish = "fr"\n', "align.english is 'fr', none of benchmark.languages"),
        ('[align]\nenglish = "en"\n[ids]\nfrom = "row"\n', "it needs parallel = true and ids that are the data's"),
        ('[fewshot]\nsplit = "test"\n', "fewshot.split is source.split"),
    ],
)
def test_a_rule_that_would_pair_or_prompt_the_wrong_rows_is_refused(tmp_path, tables, said):
    toml = tmp_path / "mine.toml"
    toml.write_text(
        '[benchmark]\nname = "mine"\nlanguages = ["en", "de"]\nmodes = ["gen"]\nparallel = true\n'
        '[source]\nhub = "me/mine"\nrevision = "main"\nconfig = "{lang}"\nsplit = "test"\n' + tables,
        encoding="utf-8",
    )
    with pytest.raises(MlbenchError, match=re.escape(said)):
        read_spec(toml)


def test_a_config_without_its_train_split_runs_zero_shot_and_refuses_shots(uhura, tmp_path):
    """A language whose config lacks the few-shot split (a defect a copy or a revision may
    have): its questions run zero-shot, and a shot asked for is one line naming the split."""
    copy = tmp_path / "uhura"
    shutil.copytree(uhura, copy)
    (copy / "yo_multiple_choice_train.json").unlink()
    task = get_task("uhura_truthfulqa")
    data = task.load("yo", TaskOptions(DataSource("local", copy)))
    assert data.primer == [] and len(data.samples) == UHURA_ROWS["yo"]
    listing = sorted(p.name for p in copy.iterdir())
    assert language_files(task.spec, "yo", listing, None) == ["yo_multiple_choice_test.json"]
    with pytest.raises(
        MlbenchError, match="1-shot but masakhane/uhura-truthfulqa config 'yo_multiple_choice' split 'train' has 0 rows"
    ):
        task.load("yo", TaskOptions(DataSource("local", copy), fewshot=1))
