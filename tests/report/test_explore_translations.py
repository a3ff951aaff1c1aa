"""The explorer's aligned view: TruthfulQA's translations of one language side by side,
keyed by TruthfulQA's row, from planted runs whose flipping rows are known exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlbench.report.alignment import ALIGNED_TASK, column_name
from mlbench.report.explore_data import explorer_data
from tests.report.aligned_runs import write_aligned_run

MULTI, MT, X = "truthfulqa_multi", "truthfulqa_multi_mt", "truthfulqax"
ROWS = range(12)
BASE = {row: float(row % 3 != 0) for row in ROWS}  # right on 8 of the 12 rows
# The rows whose outcome differs between two translations of a language, by model, metric
# and language: planted below by turning those rows round in one translation.
FLIPS = {("alpha", "mc1", "es"): {2, 5, 6, 9}, ("alpha", "mc1", "ca"): {7}, ("alpha", "mc2", "es"): {3},
         ("beta", "mc1", "es"): {4}}  # fmt: skip
ES = [column_name("es", task) for task in (MULTI, MT, X)]
CA = [column_name("ca", task) for task in (MULTI, MT)]


def turned(values: dict[int, float], rows: set[int]) -> dict[int, float]:
    """``values`` with ``rows`` turned round: right to wrong, wrong to right."""
    return {row: 1.0 - value if row in rows else value for row, value in values.items()}


def write_flip_runs(root: Path) -> Path:
    """alpha: es in three benchmarks (TruthfulQA-Multi's human translation, its machine
    translation, TruthfulQA-X's), ca in two, en and de in one; beta: es in two."""
    beta_es = turned(BASE, {1})
    runs = {
        ("alpha", MULTI): {"en": {"mc1": BASE}, "es": {"mc1": BASE, "mc2": dict.fromkeys(ROWS, 0.7)},
                           "ca": {"mc1": BASE}},
        ("alpha", MT): {"es": {"mc1": turned(BASE, {2, 5, 6}), "mc2": {r: 0.4 if r == 3 else 0.55 for r in ROWS}},
                        "ca": {"mc1": turned(BASE, {7})}},
        ("alpha", X): {"es": {"mc1": turned(BASE, {9}), "mc2": dict.fromkeys(ROWS, 0.6)}, "de": {"mc1": BASE}},
        ("beta", MULTI): {"en": {"mc1": BASE}, "es": {"mc1": beta_es}},
        ("beta", MT): {"es": {"mc1": turned(beta_es, {4})}},
    }  # fmt: skip
    for (model, task), values in runs.items():
        write_aligned_run(root, model, task, values, samples=True)
    return root


def is_right(value: float, binary: bool) -> bool:
    """The page's right (both metrics here are higher-is-better shares)."""
    return value == 1 if binary else value >= 0.5


def flipping_rows(task: dict, model: int, metric: str, columns: list[str]) -> set[int]:
    """The rows of the aligned task (as on the page) right in one of ``columns`` and wrong
    in another, for ``model``: what the page's "translation flips" filter keeps."""
    binary = task["metrics"][metric]["binary"]
    rows = set()
    for question in task["questions"]:
        verdicts = {is_right(c["m"][metric], binary) for c in question["cells"]
                    if c["mo"] == model and c["l"] in columns and metric in c["m"]}  # fmt: skip
        if verdicts == {True, False}:
            rows.add(int(question["id"]))
    return rows


def resolved(page: dict) -> dict:
    """The page's data with the aligned view's cells read back from where they are, as
    the page's script does."""
    tasks = page["tasks"]
    for task in tasks.values():
        for question in task["questions"]:
            question["cells"] = [
                {**tasks[c["at"][0]]["questions"][c["at"][1]]["cells"][c["at"][2]], "l": c["l"]} if "at" in c else c
                for c in question["cells"]
            ]
    return page


@pytest.fixture(scope="module")
def flip_runs(tmp_path_factory):
    return write_flip_runs(tmp_path_factory.mktemp("flips") / "out")


def test_the_aligned_task_sets_a_languages_translations_side_by_side(flip_runs):
    data = explorer_data([flip_runs])
    assert not data.skipped and list(data.tasks) == [MULTI, MT, X, ALIGNED_TASK] and data.models == ["alpha", "beta"]
    view = data.tasks[ALIGNED_TASK]
    # Every aligned benchmark's languages, a language's translations next to each other.
    assert view.langs == [column_name("en", MULTI), *ES, *CA, column_name("de", X)]
    assert view.translations == {"es": ES, "ca": CA}
    assert list(view.questions) == [str(row) for row in ROWS]  # keyed by TruthfulQA's row, in its order
    for row, cells in view.questions.items():
        assert len(cells) == 7 + 3  # alpha: every column; beta: en, and es twice
        for entry in cells:
            lang, task = entry["l"].split(" (")
            task = task.rstrip(")")
            assert entry["q"] == f"Question {row} in {lang} ({task})?"  # as that translation asked it
            own = data.tasks[task].questions[str(int(row) + (1 if task != X else 0))]  # the benchmark's own id
            assert {**entry, "l": lang} in own
    assert view.metrics["mc1"]["binary"] is True and view.metrics["mc2"]["binary"] is False
    assert {"mc", "gen"} <= set(view.modes) and "mc1" in view.modes["mc"]["metrics"]


def test_the_rows_that_flip_are_the_planted_ones(flip_runs):
    page = resolved(explorer_data([flip_runs]).to_json())
    task = page["tasks"][ALIGNED_TASK]
    columns = {"es": ES, "ca": CA}
    for (model, metric, lang), rows in FLIPS.items():
        assert flipping_rows(task, page["models"].index(model), metric, columns[lang]) == rows, (model, metric, lang)
    # English and German have one translation each: nothing of theirs can flip.
    assert "en" not in task["translations"] and "de" not in task["translations"]


def test_the_page_holds_each_aligned_cell_once(flip_runs):
    data = explorer_data([flip_runs])
    page = data.to_json()
    aligned = page["tasks"][ALIGNED_TASK]
    cells = [c for q in aligned["questions"] for c in q["cells"]]
    assert cells and all(set(c) == {"l", "at"} for c in cells)  # a place, not a copy
    # Read back, each is the cell the Python side holds.
    back = resolved(json.loads(json.dumps(page)))["tasks"][ALIGNED_TASK]["questions"]
    assert [q["cells"] for q in back] == list(data.tasks[ALIGNED_TASK].questions.values())
    own = sum(len(json.dumps(page["tasks"][t])) for t in (MULTI, MT, X))
    assert len(json.dumps(aligned)) < own


def test_no_aligned_task_without_two_translations_of_a_language(tmp_path):
    # es in two benchmarks, but by two models: no model has two translations to compare.
    write_aligned_run(tmp_path, "alpha", MULTI, {"en": {"mc1": BASE}, "es": {"mc1": BASE}}, samples=True)
    write_aligned_run(tmp_path, "alpha", X, {"de": {"mc1": BASE}}, samples=True)
    write_aligned_run(tmp_path, "beta", MT, {"es": {"mc1": BASE}}, samples=True)
    data = explorer_data([tmp_path])
    assert list(data.tasks) == [MULTI, X, MT] and not data.skipped
    assert "translations" not in json.dumps(data.to_json())


def test_tqa_index_is_no_slice(flip_runs):
    from mlbench.records import SampleRecord
    from mlbench.report.explore_data import cell

    page = explorer_data([flip_runs]).to_json()
    labels = [c.get("s", {}) for task in page["tasks"].values() for q in task["questions"] for c in q["cells"]]
    assert not any("tqa_index" in own for own in labels)  # 12 slices of one question each, not offered
    record = SampleRecord("4", "es", metrics={"mc1": 1.0}, labels={"category": "Law", "tqa_index": "3"})
    assert cell(record, "es", 0)["s"] == {"category": "Law"}
    assert "s" not in cell(SampleRecord("4", "es", labels={"tqa_index": "3"}), "es", 0)


def test_a_language_whose_rows_repeat_is_left_out_with_a_line():
    from mlbench.report.explore_translations import Place, RowCell, align

    def cells(task, lang, rows):
        return [RowCell(0, lang, str(row), Place(task, f"{task}-{n}", 0)) for n, row in enumerate(rows)]

    # A run under two templates: each row twice in truthfulqax's es.
    aligned = align(cells(MULTI, "es", [0, 1]) + cells(MT, "es", [0, 1]) + cells(X, "es", [0, 0, 1, 1]), ["m"])
    assert aligned is not None and aligned.translations == {"es": ES[:2]}
    assert aligned.skipped == [
        f"m · {X} · es: 2 tqa_index value(s) name two questions (e.g. 0): left out of the aligned view"
    ]
    assert [column for column, _ in aligned.rows["1"]] == ES[:2]
    assert align(cells(MULTI, "es", [0, 1]) + cells(X, "es", [0, 0]), ["m"]) is None
