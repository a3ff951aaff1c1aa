"""TruthfulQA's universal and local questions: the authors' map read as data (the 288 rows
VeritasQA kept, zero-padded ids and all), and every aligned question's ``scope`` label
derived from it, or said to be missing."""

from __future__ import annotations

import shutil

import pytest

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.scope import Labelled, label_scope
from mlbench.benchmarks.scope_map import LOCAL, UNIVERSAL, parse_scope_map, scope_map
from mlbench.data.alignment import SCOPE_LABEL, TQA_INDEX_LABEL
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import plan
from mlbench.engine.plan import RunConfig
from mlbench.errors import MlbenchError
from tests.benchmarks.truthfulqa_multi.fixtures import SCOPE_MAP_ROWS

HEAD = "Question,tru_ID,veritas_ID\n"


def test_the_map_names_truthfulqa_rows_by_the_releases_ids_less_one():
    found = parse_scope_map(HEAD + '"Why do veins appear blue?",tru_03,veritas_068\nQ,tru_811,veritas_353\n', "m")
    assert found.veritas_rows == {"veritas_068": "2", "veritas_353": "810"}
    assert found.scope("2") == UNIVERSAL and found.scope("3") == LOCAL
    assert parse_scope_map("\ufeff" + HEAD + "Q,tru_1,veritas_1\n", "m").veritas_rows == {"veritas_1": "0"}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("Q,tru_3\n", "missing column(s) veritas_ID"),
        ("Q,3,veritas_001\n", "expected tru_<n> and veritas_<n>, found '3'"),
        ("Q,tru_0,veritas_001\n", "0 - 1 = -1 is no TruthfulQA row"),
        ("Q,tru_818,veritas_001\n", "818 - 1 = 817 is no TruthfulQA row"),
        ("Q,tru_3,veritas_001\nR,tru_3,veritas_002\n", "m:3: 'tru_3' is mapped twice"),
        ("Q,tru_3,veritas_001\nR,tru_4,veritas_001\n", "m:3: 'veritas_001' is mapped twice"),
    ],
)
def test_a_map_that_would_pair_the_wrong_questions_is_refused(body, said):
    header = "Question,tru_ID\n" if "veritas_ID" in said else HEAD
    with pytest.raises(MlbenchError, match=said.replace("(", r"\(").replace(")", r"\)")):
        parse_scope_map(header + body, "m")


def test_the_map_is_found_beside_the_data(scoped_datasets):
    found = scope_map(DataSource("local", scoped_datasets))
    assert found is not None
    assert found.universal_rows == {str(tru - 1) for tru in SCOPE_MAP_ROWS.values()}


def _planned(data_dir, tasks: tuple[str, ...], lang: str, noted: list[str]):
    config = RunConfig(
        model=ModelOptions("m"), tasks=tasks, langs=(lang,), mode="mc",
        task_options=TaskOptions(DataSource("local", data_dir)), output=data_dir / "out",
    )  # fmt: skip
    return {item.task.name: item.languages[0].data.samples for item in plan(config, note=noted.append)}


def test_every_truthfulqa_multi_question_is_universal_or_local(scoped_datasets, tmp_path):
    warned: list[str] = []
    samples = _planned(scoped_datasets, ("truthfulqa_multi",), "ca", warned)["truthfulqa_multi"]
    universal = {str(tru) for tru in SCOPE_MAP_ROWS.values()}
    assert {s.id: s.meta[SCOPE_LABEL] for s in samples} == {
        s.id: UNIVERSAL if s.id in universal else LOCAL for s in samples
    }
    assert not warned
    # Kept with the sample's record, so that report --by scope and the explorer can cut by it.
    task = get_task("truthfulqa_multi")
    assert task.sample_labels(samples[1])[SCOPE_LABEL] == UNIVERSAL


def test_without_the_map_the_run_is_told_and_its_questions_carry_no_scope(fixture_datasets, tmp_path):
    shutil.copytree(fixture_datasets / "truthfulqa-multi", tmp_path / "truthfulqa-multi")
    shutil.copytree(fixture_datasets / "veritasqa", tmp_path / "veritasqa")
    warned: list[str] = []
    planned = _planned(tmp_path, ("truthfulqa_multi", "veritasqa"), "es", warned)
    assert not any(SCOPE_LABEL in s.meta for s in planned["truthfulqa_multi"])
    assert all(TQA_INDEX_LABEL in s.meta for s in planned["truthfulqa_multi"])  # still aligned
    assert not any(TQA_INDEX_LABEL in s.meta for s in planned["veritasqa"])  # VeritasQA's rows are the map's
    assert {s.meta[SCOPE_LABEL] for s in planned["veritasqa"]} == {"universal"}  # by its own construction
    assert warned == [
        "truthfulqa_multi: its questions carry no scope (universal/local): the authors' universal/local map "
        "(hitz-zentroa/truthfulqa-multi:analysis/cultural_nuances/veritasqa.csv) is not at hand: copy it to "
        f"{tmp_path}/upstream/truthfulqa-multi/analysis/cultural_nuances/veritasqa.csv or run "
        "`mlbench data fetch truthfulqa-multi-scope`",
        "veritasqa: its questions carry no TruthfulQA row: the authors' "
        "universal/local map (hitz-zentroa/truthfulqa-multi:analysis/cultural_nuances/veritasqa.csv) is not at "
        f"hand: copy it to {tmp_path}/upstream/truthfulqa-multi/analysis/cultural_nuances/veritasqa.csv or run "
        "`mlbench data fetch truthfulqa-multi-scope`",
    ]


def test_a_map_of_another_version_is_refused_not_skipped(fixture_datasets, tmp_path):
    shutil.copytree(fixture_datasets / "truthfulqa-multi", tmp_path / "truthfulqa-multi")
    copy = tmp_path / "upstream" / "truthfulqa-multi" / "analysis" / "cultural_nuances" / "veritasqa.csv"
    copy.parent.mkdir(parents=True)
    copy.write_text(HEAD + "Q,tru_1,veritas_001\n", encoding="utf-8")
    with pytest.raises(MlbenchError, match="is not the pinned .* of analysis/cultural_nuances/veritasqa.csv"):
        _planned(tmp_path, ("truthfulqa_multi",), "en", [])


def test_a_benchmark_that_is_no_translation_of_truthfulqa_is_left_as_it_is(fixture_datasets):
    task = get_task("msqad")
    source = DataSource("local", fixture_datasets)
    data = task.load("en", TaskOptions(source))
    assert label_scope(task, data, source) == Labelled(data)
