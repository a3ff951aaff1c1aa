"""Gaps to the reference language: planted gaps found, no gap not significant, paired
statistics equal to the reference implementations, the unpaired fallback."""

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from mlbench.report import build_tables, collect
from mlbench.report.gaps import compare
from mlbench.stats.intervals import bootstrap_ci

from .synthetic_runs import LANGS, planted_values, write_run


def tables_by_metric(root, **kwargs):
    return {t.metric: t for t in build_tables(collect(root), **kwargs)}


def test_planted_gap_is_found_and_no_gap_is_not(two_models):
    tables = tables_by_metric(two_models)
    for metric, test in (("mc1", "mcnemar"), ("mc2", "wilcoxon"), ("bleu_max", "wilcoxon")):
        table = tables[metric]
        assert table.langs == list(LANGS)
        assert set(table.rows) == {"org/gap-model", "org/flat-model"}
        for model in table.rows:
            assert table.gap(model, "en") is None  # the reference column has no gap
            for lang in LANGS[1:]:
                gap = table.gap(model, lang)
                assert gap.paired and gap.test == test and gap.n == 200
                planted = model == "org/gap-model" and lang == "eu" and metric != "bleu_max"
                assert gap.significant is planted, (metric, model, lang, gap)
    eu = tables["mc1"].gap("org/gap-model", "eu")
    assert eu.diff < -0.15 and eu.ci_high < 0 and eu.p_holm < 0.001


def test_gap_values_equal_the_reference_computations(two_models):
    values = planted_values(1, gap_lang="eu")
    table = tables_by_metric(two_models, seed=5)["mc1"]
    ids = sorted(values["en"]["mc1"])
    en = np.array([values["en"]["mc1"][q] for q in ids])
    raw = []
    for lang in LANGS[1:]:
        other = np.array([values[lang]["mc1"][q] for q in ids])
        gap = table.gap("org/gap-model", lang)
        assert gap.diff == pytest.approx(other.mean() - en.mean(), abs=1e-12)
        assert (gap.ci_low, gap.ci_high) == pytest.approx(bootstrap_ci(other - en, seed=5), abs=1e-12)
        b = int(((other == 1) & (en == 0)).sum())
        c = int(((other == 0) & (en == 1)).sum())
        both = int(((other == 1) & (en == 1)).sum())
        reference = sm_mcnemar([[both, b], [c, len(ids) - both - b - c]], exact=b + c < 25, correction=False)
        assert gap.p == pytest.approx(reference.pvalue, rel=1e-9)
        raw.append(gap.p)
    adjusted = multipletests(raw, method="holm")[1]
    assert [table.gap("org/gap-model", lang).p_holm for lang in LANGS[1:]] == pytest.approx(list(adjusted), rel=1e-12)


def test_wilcoxon_gap_equals_scipy(two_models):
    from scipy import stats

    values = planted_values(1, gap_lang="eu")
    gap = tables_by_metric(two_models)["mc2"].gap("org/gap-model", "es")
    ids = sorted(values["en"]["mc2"])
    es = [values["es"]["mc2"][q] for q in ids]
    en = [values["en"]["mc2"][q] for q in ids]
    assert gap.p == pytest.approx(float(stats.wilcoxon(es, en, method="asymptotic").pvalue), rel=1e-9)


def test_bootstrap_gaps_are_deterministic_with_a_seed(two_models):
    first = tables_by_metric(two_models, seed=3)["mc2"].gap("org/flat-model", "ca")
    again = tables_by_metric(two_models, seed=3)["mc2"].gap("org/flat-model", "ca")
    other = tables_by_metric(two_models, seed=4)["mc2"].gap("org/flat-model", "ca")
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    assert (first.ci_low, first.ci_high) != (other.ci_low, other.ci_high)


def test_questions_not_shared_fall_back_to_unpaired_tests(tmp_path):
    rng = np.random.default_rng(0)
    # CaLMQA-like: each language has its own culturally specific questions.
    # overall_without_factuality is declared 0/1 per answer (Fisher); relevance is not declared.
    binary = "overall_without_factuality"
    values = {
        "en": {binary: {f"en:{i}": float(rng.random() < 0.7) for i in range(80)}},
        "eu": {binary: {f"eu:{i}": float(rng.random() < 0.2) for i in range(60)}},
        "es": {binary: {f"es:{i}": float(rng.random() < 0.7) for i in range(70)}},
    }
    values["en"]["relevance"] = {q: float(rng.random()) for q in values["en"][binary]}
    values["eu"]["relevance"] = {q: float(rng.random()) * 0.5 for q in values["eu"][binary]}
    values["es"]["relevance"] = {q: float(rng.random()) for q in values["es"][binary]}
    write_run(tmp_path, "m", "calmqa", values)
    tables = tables_by_metric(tmp_path)
    eu = tables[binary].gap("m", "eu")
    assert not eu.paired and eu.test == "fisher" and eu.n == 140
    assert "unpaired: 0 shared questions" in eu.note
    assert eu.significant and eu.diff < 0
    assert tables["relevance"].gap("m", "eu").test == "mann-whitney"
    assert tables["relevance"].gap("m", "eu").significant
    assert not tables[binary].gap("m", "es").significant


def test_compare_needs_values_on_both_sides():
    gap = compare("eu", {}, {"q1": 1.0}, binary=True)
    assert gap.diff is None and gap.p is None and "reference language" in gap.note
    assert not gap.significant


def test_a_model_without_the_reference_language_gets_no_gaps(tmp_path):
    values = planted_values(3, gap_lang=None)
    write_run(tmp_path, "m", "truthfulqa_multi", {lang: values[lang] for lang in ("es", "eu")})
    table = tables_by_metric(tmp_path)["mc1"]
    gap = table.gap("m", "eu")
    assert gap.p is None and gap.note == "no en results for this model"
    # Another reference language works.
    other = tables_by_metric(tmp_path, ref_lang="es")["mc1"]
    assert other.langs == ["es", "eu"] and other.gap("m", "eu").p is not None
