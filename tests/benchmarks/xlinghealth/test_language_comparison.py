"""Cross-language statistics from saved samples."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from mlbench.benchmarks.xlinghealth.language_comparison import compare_languages
from mlbench.records import SampleRecord


def _records(values, group="liveqa", metric="sim_1gram@0"):
    return [SampleRecord(str(i), group=group, metrics={metric: v}) for i, v in enumerate(values)]


def test_rows_match_the_statistics_of_each_group_and_setting():
    rng = np.random.default_rng(1)
    data = {lang: rng.normal(mean, 0.1, 20).tolist() for lang, mean in (("en", 0.5), ("es", 0.5), ("zh", 0.3))}
    records = {lang: _records(v) + _records(v[:5], group="medicationqa") for lang, v in data.items()}
    records["hi"] = _records([0.1, 0.2], metric="sim_1gram@1")  # another temperature only
    tables = compare_languages(records, ["sim_1gram", "length"])
    anova = {(r["group"], r["temperature"]): r for r in tables["anova"]}
    assert set(anova) == {("liveqa", "0"), ("medicationqa", "0")}
    expected = stats.f_oneway(*data.values())
    assert anova[("liveqa", "0")]["F"] == pytest.approx(expected.statistic)
    assert anova[("liveqa", "0")]["n"] == "en 20, es 20, zh 20"
    pairs = [r["pair"] for r in tables["tukey"] if r["group"] == "liveqa"]
    assert pairs == ["en–es", "en–zh", "es–zh"]
    en_zh = next(r for r in tables["t_tests"] if r["group"] == "liveqa" and r["pair"] == "en–zh")
    assert en_zh["p"] == pytest.approx(stats.ttest_ind(data["en"], data["zh"]).pvalue)
    assert en_zh["reject"] is True


def test_no_spread_is_none_not_nan():
    tables = compare_languages({"en": _records([1.0, 1.0]), "es": _records([1.0, 1.0])}, ["sim_1gram"])
    assert tables["anova"][0]["F"] is None and tables["tukey"][0]["p_adj"] is None
    assert compare_languages({"en": _records([1.0])}, ["sim_1gram"]) == {}


def test_identical_answers_at_temperature_0_are_n_a_with_the_reason_in_the_table():
    # sim_lda20@0 of the issue: every similarity 1 up to rounding, once "F=12.21 p=0.018".
    from mlbench.records import RunResult
    from mlbench.results.tables import cross_language_tables, to_markdown
    from mlbench.stats.groups import ALL_EQUAL, PAIR_EQUAL

    # 1 ± 1e-15: a language-dependent offset and a little jitter, as topic cosines have.
    records = {
        lang: _records([1.0 - i * 1e-15 + (k % 3 - 1) * 2e-16 for k in range(10)], metric="sim_lda20@0")
        for i, lang in enumerate(("en", "es", "zh", "hi"))
    }
    assert stats.f_oneway(*[[r.metrics["sim_lda20@0"] for r in v] for v in records.values()]).pvalue < 0.05
    tables = compare_languages(records, ["sim_lda20"])
    (anova,) = tables["anova"]
    assert anova["F"] is None and anova["p"] is None and anova["note"] == ALL_EQUAL
    assert all(r["reject"] is None and r["p_adj"] is None and r["note"] == ALL_EQUAL for r in tables["tukey"])
    assert all(r["mean_diff"] == 0.0 for r in tables["tukey"])  # not −9.99e-16
    assert all(r["reject"] is None and r["p"] is None and r["note"] == PAIR_EQUAL for r in tables["t_tests"])
    markdown = to_markdown(cross_language_tables(RunResult("m", "xlinghealth", {}, {}, tables)))
    assert markdown.count(ALL_EQUAL) == 1 + 6 and markdown.count(PAIR_EQUAL) == 6
    assert "| yes |" not in markdown


def test_a_real_gap_has_no_note():
    rng = np.random.default_rng(3)
    data = {"en": rng.normal(0.8, 0.05, 15).tolist(), "hi": rng.normal(0.5, 0.05, 15).tolist()}
    tables = compare_languages({lang: _records(v) for lang, v in data.items()}, ["sim_1gram"])
    (anova,) = tables["anova"]
    assert anova["note"] == "" and anova["p"] == pytest.approx(stats.f_oneway(*data.values()).pvalue)
    (test,) = tables["t_tests"]
    assert test["note"] == "" and test["reject"] is True
    assert test["p"] == pytest.approx(stats.ttest_ind(data["en"], data["hi"]).pvalue)


def test_the_reasons_do_not_break_a_markdown_table():
    from mlbench.stats import groups

    for note in (groups.ALL_EQUAL, groups.PAIR_EQUAL, groups.NO_SPREAD, groups.NO_SPREAD_PAIR, groups.TOO_FEW):
        assert note.startswith("n/a: ") and "|" not in note and "\n" not in note
