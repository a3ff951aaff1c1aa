"""Which answers get the surface checks is each task's declaration (``Mode.answer``),
never a guess from mode names: the pipeline's checks and the table order both read it."""

from __future__ import annotations

import pytest

from mlbench.benchmarks import get_task
from mlbench.engine.answer_checks import check_answer, checks_answers
from mlbench.engine.pipeline import metric_order
from mlbench.metrics.surface import SURFACE_METRICS
from mlbench.records import SampleRecord
from mlbench.results.aggregation import aggregate

ENGLISH = "Older people living alone should be visited during a heatwave."


@pytest.mark.parametrize(
    ("task", "paths"),
    [
        ("truthfulqa_multi", {"gen": ("answer",)}),
        ("truthfulqa_multi_mt", {"gen": ("answer",)}),
        ("veritasqa", {"gen": ("answer",)}),
        ("calmqa", {"gen": ("answer",)}),
        ("xlinghealth", {"correctness": ("answer",)}),
        ("msqad", {"direct": ("answer",), "adversarial": ("adversarial", "answer")}),
    ],
)
def test_each_task_declares_where_its_answers_are(task, paths):
    declared = get_task(task)
    assert {mode.name: mode.answer for mode in declared.answer_modes} == paths
    assert set(paths) <= set(declared.mode_names)
    for mode in declared.mode_names:
        surface_in_order = set(SURFACE_METRICS) <= set(metric_order(declared, (mode,)))
        assert surface_in_order == checks_answers(declared, (mode,)) == (mode in paths), mode


def test_one_answer_per_sample_keeps_the_plain_names_and_the_sample_block():
    task = get_task("veritasqa")
    block, metrics = check_answer(task, "gen", {"answer": ENGLISH, "empty": False}, "en")
    assert block is not None and block["language"]["status"] == "ok"
    assert metrics["wrong_language"] == 0.0 and "surface_issue" in metrics
    assert check_answer(task, "mc", {"best_loglikelihood": -1.0}, "en") == (None, {})


def test_msqad_checks_both_responses_under_their_modes_names():
    task = get_task("msqad")
    direct = {"answer": ENGLISH, "refusal": {}}
    block, metrics = check_answer(task, "direct", direct, "en")
    assert block is not None and "surface" not in direct  # the sample's own ``surface`` block
    assert metrics["wrong_language@direct"] == 0.0 and not set(SURFACE_METRICS) & set(metrics)
    adversarial = {"adversarial": {"answer": "Die Stadt sollte sich nicht um ältere Menschen kümmern.", "refusal": {}}}
    block, metrics = check_answer(task, "adversarial", adversarial, "en")
    assert block is None  # saved beside the response it checks
    assert adversarial["adversarial"]["surface"]["language"]["detected"] == "de"
    assert metrics["wrong_language@adversarial"] == 1.0 and metrics["surface_issue@adversarial"] == 1.0


def test_answers_whose_language_was_not_judged_are_counted_per_mode():
    records = [
        SampleRecord("1", metrics={"surface_issue@direct": 0.0, "surface_issue@adversarial": 0.0}),
        SampleRecord("2", metrics={"surface_issue@direct": 0.0, "wrong_language@direct": 0.0}),
        SampleRecord("3", metrics={"surface_issue": 0.0}),
    ]
    counts = aggregate("en", records, list(SURFACE_METRICS), seed=0).counts
    assert counts == {"language_not_judged@direct": 1, "language_not_judged@adversarial": 1, "language_not_judged": 1}


def test_the_checks_resources_load_in_the_background_only_for_runs_that_write_answers(monkeypatch):
    import threading

    from mlbench.benchmarks import get_task
    from mlbench.engine import answer_checks

    loaded = threading.Event()
    calls = []

    def fake_surface_block(text, lang):
        calls.append(lang)
        loaded.set()

    monkeypatch.setattr(answer_checks, "surface_block", fake_surface_block)
    task = get_task("truthfulqa_multi")
    answer_checks.warm_up_in_background(task, ("mc",))
    assert not loaded.wait(0.2) and calls == []
    answer_checks.warm_up_in_background(task, ("mc", "gen"))
    assert loaded.wait(5) and calls == ["en"]
