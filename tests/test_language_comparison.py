"""Cross-language statistics from saved samples."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from mlbench.language_comparison import compare_languages


def _records(values, group="liveqa", metric="sim_1gram@0"):
    return [{"group": group, "metrics": {metric: v}} for v in values]


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
