"""A user's declared benchmark that reads a hub dataset (``[source]``) from a copy laid out as
the hub ships it: Parquet with nested columns named by dotted paths, ids from a hash,
clean-up steps; and each mistake one line naming the file and field, exit 2, nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.benchmarks.declared.okapi_fixture import OWN_ROWS
from tests.benchmarks.test_include import own_registry  # noqa: F401  (the benchmarks included here are forgotten after)
from tests.benchmarks.test_include_errors import one_error, tasks_error
from tests.cli.test_cli import run_model

NESTED_TOML = """[benchmark]
name = "{name}"
languages = ["es", "ru"]
modes = ["mc"]
{extra}
[source]
hub = "someone/nested_tqa"
revision = "0123456789abcdef0123456789abcdef01234567"
config = "{{lang}}"
split = "validation"

[columns]
question = "question"
mc1_choices = "mc1_targets.choices"
mc1_labels = "mc1_targets.labels"
mc2_choices = "mc2_targets.choices"
mc2_labels = "mc2_targets.labels"

[ids]
from = "hash"

[clean]
question = ["drop_brackets", "strip"]
"""


def nested(row: dict) -> dict:
    """An Okapi fixture row with the hub's nested features (``mc1_targets: {choices, labels}``)."""
    return {
        "question": row["question"],
        "mc1_targets": {"choices": row["mc1_targets_choices"], "labels": row["mc1_targets_labels"]},
        "mc2_targets": {"choices": row["mc2_targets_choices"], "labels": row["mc2_targets_labels"]},
    }


def write_nested(folder: Path, name: str, rows: dict[str, list[dict]], extra: str = "") -> Path:
    """The benchmark's TOML in ``folder`` and its data as the Parquet conversion lays it out
    (``<config>/<split>/0000.parquet``, no card) under ``folder / "copy"``."""
    for lang, lang_rows in rows.items():
        target = folder / "copy" / lang / "validation"
        target.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(lang_rows), target / "0000.parquet")
    toml = folder / "benchmark.toml"
    toml.write_text(NESTED_TOML.format(name=name, extra=extra), encoding="utf-8")
    return toml


def test_parquet_with_nested_columns_hashed_ids_and_clean_up(tiny_model, tmp_path):
    rows = {lang: [nested(r) for r in OWN_ROWS[lang]] for lang in ("es", "ru")}
    toml = write_nested(tmp_path, "nested_tqa", rows, "parallel = false")
    out = tmp_path / "out"
    flags = "--task nested_tqa --lang es,ru --backend hf --no-cache"
    result = run_model(tiny_model, out, flags, "--include", toml, "--data-dir", tmp_path / "copy")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / tiny_model.name / "nested_tqa" / "samples_ru.jsonl").open()]
    assert [r["question"] for r in records] == [
        "Что будет, если съесть семена арбуза?",
        "Какого цвета солнце из космоса?",  # "[title]" dropped as a bracketed span, then stripped
        "Где прошли Олимпийские игры 1992 года?",
    ]
    assert all(r["id"].startswith("ru-h") and len(r["id"]) == 16 for r in records)  # not parallel: the language first
    assert records[1]["outputs"]["mc2_choices"] == OWN_ROWS["ru"][1]["mc2_targets_choices"]


def test_a_parallel_benchmark_whose_rows_differ_is_refused(tiny_model, tmp_path):
    rows = {"es": [nested(r) for r in OWN_ROWS["es"]], "ru": [nested(r) for r in OWN_ROWS["ru"]]}
    toml = write_nested(tmp_path, "rows_tqa", rows)
    toml.write_text(toml.read_text().replace('from = "hash"', 'from = "row"'), encoding="utf-8")
    out = tmp_path / "out"
    result = run_model(
        tiny_model, out, "--task rows_tqa --backend hf", "--include", toml, "--data-dir", tmp_path / "copy"
    )
    line = one_error(result)
    assert "config 'ru' split 'validation' is not parallel to" in line and "missing ids 0003" in line
    assert not list(out.rglob("samples_*.jsonl"))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('revision = "0123456789abcdef0123456789abcdef01234567"\n', ""), "source.revision is missing: pin"),
        (('hub = "someone/nested_tqa"', 'hub = "nested_tqa"'), "source.hub 'nested_tqa' must be a hub dataset id"),
        (('languages = ["es", "ru"]\n', ""), "a [source] benchmark lists its benchmark.languages"),
        (('config = "{lang}"', 'config = "all"'), "source.config or source.split must hold {lang}"),
        (('["drop_brackets", "strip"]', '["drop_brackets", "lowercase"]'), "clean.question: no step 'lowercase'"),
        (('from = "hash"', 'from = "uuid"'), "ids.from must be one of column, row, hash"),
        (
            ('mc2_choices = "mc2_targets.choices"\n', ""),
            "benchmark.mc_metrics has mc2 but there is no columns.mc2_choices",
        ),
        (("[source]", 'data = "x/{lang}.jsonl"\n[source]'), "give either benchmark.data"),
        (
            ('split = "validation"', 'split = "validation"\ndata_files = "{config}_{part}.jsonl"'),
            "source.data_files may hold {config}, {split}, {lang}, each bare, and no other field (got {part})",
        ),
        (
            ('split = "validation"', 'split = "validation"\ndata_files = "../{config}.jsonl"'),
            "source.data_files must be a path inside the dataset",
        ),
    ],
)
def test_mistakes_in_the_file_are_one_line_naming_the_key(tmp_path, change, expected):
    toml = write_nested(tmp_path, "bad_tqa", {})
    text = toml.read_text(encoding="utf-8")
    if change[0] == "[source]":  # benchmark.data goes in [benchmark]
        text = text.replace('modes = ["mc"]', 'modes = ["mc"]\ndata = "x/{lang}.jsonl"')
    else:
        assert change[0] in text
        text = text.replace(change[0], change[1])
    toml.write_text(text, encoding="utf-8")
    line = tasks_error(toml)
    assert str(toml) in line and expected in line, line


def bad_row(**changes: object) -> dict:
    row = nested(OWN_ROWS["es"][0])
    for key, value in changes.items():
        column, field = key.split("__")
        row[column] = {**row[column], field: value}
    return row


@pytest.mark.parametrize(
    ("lang_rows", "flags", "expected"),
    [
        ({"es": [nested(OWN_ROWS["es"][0])]}, "--lang ru", "no data for config 'ru', split 'validation'"),
        ({"es": [bad_row(mc2_targets__labels=[0, 0, 0, 0])]}, "--lang es",
         "the mc2 options need a correct and an incorrect one"),
        ({"es": [bad_row(mc1_targets__labels=[1, 1, 0])]}, "--lang es",
         "MC1 has one correct option; these labels mark 2"),
        ({"es": [bad_row(mc1_targets__labels=[1, 0])]}, "--lang es", "3 mc1 options but 2 labels"),
        ({"es": [{"question": "Q?", "mc1_targets": {"choices": ["a"]}}]}, "--lang es",
         "no column 'mc1_targets.labels' (columns.mc1_labels in benchmark.toml)"),
    ],
)  # fmt: skip
def test_mistakes_in_the_data_are_one_line_and_nothing_is_written(tiny_model, tmp_path, lang_rows, flags, expected):
    name = "data_" + re.sub(r"\W", "_", tmp_path.name)  # one benchmark name per case: the registry is shared
    toml = write_nested(tmp_path, name, lang_rows, "parallel = false")
    out = tmp_path / "out"
    result = run_model(tiny_model, out, f"--task {name} {flags} --backend hf", "--include", toml,
                       "--data-dir", tmp_path / "copy")  # fmt: skip
    line = one_error(result)
    assert expected in line, line
    assert not list(out.rglob("samples_*.jsonl")) and not list(out.rglob("results*.json"))


ANSWERS_TOML = """[benchmark]
name = "{name}"
data = "data/{{lang}}.jsonl"
languages = ["en"]
modes = ["mc"]

[columns]
id = "meta.id"
group = "meta.topic"
correct_answers = "answers.good"
incorrect_answers = "answers.bad"
{clean}
"""


def write_answers(folder: Path, name: str, rows: list[dict], clean: str = "") -> Path:
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "data" / "en.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    toml = folder / "benchmark.toml"
    toml.write_text(ANSWERS_TOML.format(name=name, clean=clean), encoding="utf-8")
    return toml


def answers_row(sample_id: str, good: list[str], bad: list[str]) -> dict:
    return {"question": "Q?", "meta": {"id": sample_id, "topic": "t1"}, "answers": {"good": good, "bad": bad}}


def test_every_column_may_be_a_dotted_path(tmp_path):
    from mlbench.benchmarks.declarative.data import read_language
    from mlbench.benchmarks.declarative.spec import read_spec

    toml = write_answers(tmp_path, "dotted", [answers_row("q7", ["Yes"], ["No"])])
    [sample] = read_language(read_spec(toml), "en").samples
    assert (sample.id, sample.meta, sample.correct_answers, sample.incorrect_answers) == (
        "q7", {"group": "t1"}, ("Yes",), ("No",),
    )  # fmt: skip


def test_clean_up_that_makes_answers_collide_is_refused(tmp_path):
    from mlbench.benchmarks.declarative.data import read_language
    from mlbench.benchmarks.declarative.spec import read_spec
    from mlbench.errors import MlbenchError

    clean = '[clean]\nanswers = ["drop_brackets", "strip"]'
    toml = write_answers(tmp_path, "collide", [answers_row("q1", ["Yes [1]"], ["Yes [2]"])], clean)
    with pytest.raises(MlbenchError, match=r"en.jsonl:1: 'Yes' is both a correct and an incorrect answer"):
        read_language(read_spec(toml), "en")
    toml = write_answers(tmp_path, "emptied", [answers_row("q1", ["Yes"], ["[x]"])], clean)
    with pytest.raises(MlbenchError, match=r"en.jsonl:1: an answer is empty after the clean.answers steps"):
        read_language(read_spec(toml), "en")


def test_an_empty_or_repeated_option_is_scored_as_listed_and_said(tmp_path):
    from mlbench.benchmarks.declarative.data import read_language
    from mlbench.benchmarks.declarative.spec import read_spec

    row = nested(OWN_ROWS["es"][0])
    row["mc2_targets"] = {"choices": ["No pasa nada.", " ", "Te mueres.", "Te mueres."], "labels": [1, 0, 0, 0]}
    toml = write_nested(tmp_path, "empty_tqa", {"es": [row]}, "parallel = false")
    spec = read_spec(toml)
    samples = read_language(spec, "es", tmp_path / "copy").samples
    assert samples[0].mc2_choices == ("No pasa nada.", " ", "Te mueres.", "Te mueres.")
    from mlbench.benchmarks.declarative.task import declarative_task

    lines = declarative_task(spec)().data_warnings("es", samples, ("mc",))
    assert any("1 of 1 questions list an answer more than once" in line for line in lines)
    assert any("1 of 1 questions have an empty option" in line for line in lines)


def test_mlbench_data_knows_a_users_hub_benchmark_through_include(tmp_path):
    from tests.cli.test_cli import run_cli

    toml = write_nested(tmp_path, "listed_tqa", {})
    listed = run_cli("data", "list", "--include", toml)
    assert listed.exit_code == 0 and "listed_tqa" in listed.output and "someone/nested_tqa" in listed.output
    assert "unknown data source 'other_tqa'" in one_error(run_cli("data", "path", "other_tqa"))


def test_a_hub_benchmark_may_not_take_a_data_sources_name(tmp_path):
    toml = write_nested(tmp_path, "truthfulqa-multi", {})
    line = tasks_error(toml)
    assert "a data source called 'truthfulqa-multi' exists already" in line and str(toml) in line


def test_a_scripted_datasets_files_named_in_the_source(tiny_model, tmp_path):
    # Configs named only by a loading script: each config's split one file, as data_files says.
    toml = write_nested(tmp_path, "scripted_tqa", {}, "parallel = false")
    text = toml.read_text(encoding="utf-8").replace(
        'split = "validation"', 'split = "validation"\ndata_files = "tqa_{config}_{split}.jsonl"'
    )
    toml.write_text(text, encoding="utf-8")
    copy = tmp_path / "copy"
    copy.mkdir(exist_ok=True)
    for lang in ("es", "ru"):
        lines = [json.dumps(nested(row), ensure_ascii=False) for row in OWN_ROWS[lang]]
        (copy / f"tqa_{lang}_validation.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    flags = "--task scripted_tqa --lang es,ru --backend hf --no-cache"
    done = run_model(tiny_model, out, flags, "--include", toml, "--data-dir", copy)
    assert done.exit_code == 0, done.output
    samples = (out / tiny_model.name / "scripted_tqa" / "samples_ru.jsonl").read_text().splitlines()
    assert len(samples) == len(OWN_ROWS["ru"])
