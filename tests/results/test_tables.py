"""The run tables (table.md and the terminal): one number format per metric kind, n/a for
a metric a language could not compute instead of a missing row, † on low-resource
languages."""

from __future__ import annotations

import math

import pytest

from mlbench.benchmarks.xlinghealth.verifiability import VERIFY_METRICS
from mlbench.records import LanguageResult, MetricValue, RunResult
from mlbench.results.tables import (
    decimals,
    format_value,
    group_table,
    language_label,
    metric_table,
    surface_table,
    to_markdown,
    undefined_metrics,
)


def value(v: float) -> MetricValue:
    return MetricValue(v, v - 0.05, v + 0.05, 0.02)


@pytest.mark.parametrize(
    ("metric", "places"),
    [
        ("mc1", 3),
        ("mc2", 3),
        ("bleu_acc", 3),  # a 0/1 share, though its name starts with bleu
        ("refusal@adversarial", 3),
        ("verify_auc@0.5", 3),
        ("sim_sent@1", 3),
        ("wrong_language", 3),
        ("bleu_max", 2),
        ("bleu_diff", 2),
        ("lprob_diff", 2),
        ("length@0", 2),
        ("claims", 2),
    ],
)
def test_one_decimals_rule_per_metric_kind(metric, places):
    assert decimals(metric) == places


def test_format_value():
    assert format_value("mc1", MetricValue(0.04000000000000004, 0.0125, 0.0675, 0.01)) == "0.040 [0.013, 0.068]"
    assert format_value("bleu_max", MetricValue(25.204, 22.95, 27.7, 1.0)) == "25.20 [22.95, 27.70]"
    assert format_value("verify_auc@0", MetricValue(math.nan, math.nan, math.nan, math.nan)) == "n/a"


def test_undefined_metrics_are_those_missing_beside_their_group():
    computed = [f"{name}@0" for name in VERIFY_METRICS if name != "verify_auc"]
    computed += [f"{name}@1" for name in VERIFY_METRICS] + ["mc1", "sim_1gram@0"]
    missing = undefined_metrics(computed)
    assert list(missing) == ["verify_auc@0"] and missing["verify_auc@0"].startswith("AUC undefined")
    # Nothing of a group at a setting: nothing is missing there (the mode was not run).
    assert undefined_metrics(["mc1", "sim_1gram@0"]) == {}
    assert undefined_metrics([f"{name}@1" for name in VERIFY_METRICS]) == {}


def _xlinghealth_run() -> RunResult:
    """en has every verifiability metric at temperatures 0 and 1; es lacks its AUC at 0,
    hi (mid-resource) too; gl is not an XLingHealth language but shows the † mark."""
    languages = {}
    for lang in ("en", "es", "hi", "gl"):
        metrics = {f"{name}@{key}": value(0.5) for key in ("0", "1") for name in VERIFY_METRICS}
        metrics["length@0"] = MetricValue(41.2345, 38.1, 44.0, 1.5)
        if lang != "en":
            del metrics["verify_auc@0"]
        group = LanguageResult(lang, 3, {k: v for k, v in metrics.items() if k != "verify_auc@1"})
        languages[lang] = LanguageResult(lang, 5, metrics, groups={"healthqa": group})
    return RunResult("m", "xlinghealth", {}, languages)


def test_a_metric_no_language_computed_is_a_row_of_na_with_its_reason():
    run = _xlinghealth_run()
    for lang in ("en", "es", "hi", "gl"):
        run.languages[lang].metrics.pop("verify_auc@0", None)
    order = ["length", *VERIFY_METRICS]
    table = metric_table(run, order)
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["verify_auc@0"] == ["n/a"] * 4  # shown, not dropped
    assert [row[0] for row in table.rows].index("verify_auc@0") < [row[0] for row in table.rows].index("verify_auc@1")
    assert rows["verify_auc@1"] == ["0.500 [0.450, 0.550]"] * 4
    assert rows["length@0"] == ["41.23 [38.10, 44.00]"] * 4
    assert table.columns == ["metric", "en", "es", "hi", "gl†"]
    assert any(note.startswith("n/a (verify_auc@0): AUC undefined") for note in table.notes)
    assert "† low-resource language" in table.notes
    markdown = to_markdown([table])
    assert "| verify_auc@0 | n/a | n/a | n/a | n/a |" in markdown and "AUC undefined" in markdown


def test_a_metric_some_languages_computed_is_na_in_the_others():
    table = metric_table(_xlinghealth_run(), ["length", *VERIFY_METRICS])
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["verify_auc@0"] == ["0.500 [0.450, 0.550]", "n/a", "n/a", "n/a"]
    groups = group_table(_xlinghealth_run(), ["length", *VERIFY_METRICS], "dataset")
    assert groups is not None
    auc = groups.columns.index("verify_auc@1")
    # No group has verify_auc@1 while its siblings at 1 are there: n/a, with the note.
    assert [row[auc] for row in groups.rows] == ["n/a"] * 4
    assert [row[0] for row in groups.rows] == ["en", "es", "hi", "gl†"]
    assert any("AUC undefined" in note for note in groups.notes)


def test_the_surface_table_uses_the_same_decimals():
    languages = {
        lang: LanguageResult(lang, 4, {"wrong_language": value(0.25), "surface_issue": value(0.5)})
        for lang in ("en", "fj")
    }
    table = surface_table(RunResult("m", "calmqa", {}, languages))
    assert table is not None and "share of answers" in table.title
    assert table.rows[1][:4] == ["fj†", "4", "0", "0.250 [0.200, 0.300]"]
    assert table.rows[1][-1] == "0.500 [0.450, 0.550]"


def test_language_labels():
    assert [language_label(lang) for lang in ("en", "eu", "hi", "xx")] == ["en", "eu†", "hi", "xx"]


def test_a_modes_own_settings_stand_under_its_table():
    # TruthfulQA-Multi's -T answer_format=clean changes what BLEU scores: never unlabelled.
    languages = {"en": LanguageResult("en", 2, {"bleu_max": value(12.0)})}
    config = {"mode_settings": {"gen": {"protocol": "authors-lm-eval-logs", "answer_format": "clean"}}}
    table = metric_table(RunResult("m", "truthfulqa_multi", config, languages), ["bleu_max"])
    assert "gen: answer_format=clean, protocol=authors-lm-eval-logs" in table.notes
    plain = metric_table(RunResult("m", "truthfulqa_multi", {}, languages), ["bleu_max"])
    assert not any(note.startswith("gen:") for note in plain.notes)
