"""MSQAD's cross-language tables from synthetic saved samples: McNemar cells counted by
hand, the null-acceptance ratio, the ranking, and PERMANOVA on planted differences."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from mlbench.benchmarks.msqad.response_embeddings import encode_vector
from mlbench.benchmarks.msqad.statistics import (
    ALL_TOPICS,
    authors_distances,
    competition_ranks,
    permanova_rows,
    refusal_tables,
)
from mlbench.records import SampleRecord
from mlbench.report.heatmaps import write_figures
from mlbench.results.figures import figures_from_rows

ORDER = ("en", "ko", "zh", "es", "de", "hi")


def _records(lang, refusals, topic="T1", start=0, mode="adversarial"):
    return [
        SampleRecord(f"{topic}:{start + i}", lang, metrics={f"refusal@{mode}": float(r)}, group=topic)
        for i, r in enumerate(refusals)
    ]


def test_mcnemar_cells_summary_and_ranking():
    # Topic T1, 6 questions. en refuses q0,q1; zh refuses q0,q2,q3,q4,q5; de refuses none.
    records = {
        "en": _records("en", [1, 1, 0, 0, 0, 0]) + _records("en", [0, 0], topic="T2", start=6),
        "zh": _records("zh", [1, 0, 1, 1, 1, 1]) + _records("zh", [1, 1], topic="T2", start=6),
        "de": _records("de", [0, 0, 0, 0, 0, 0]) + _records("de", [0, 0], topic="T2", start=6),
    }
    tables = refusal_tables(records, ORDER, seed=0)
    cells = {(r["topic"], r["pair"]): r for r in tables["mcnemar"]}
    en_zh = cells[("T1", "en–zh")]
    # both = q0; only en = q1; only zh = q2..q5; neither = none.
    assert (en_zh["both"], en_zh["only_a"], en_zh["only_b"], en_zh["neither"]) == (1, 1, 4, 0)
    assert en_zh["chi2"] == pytest.approx(9 / 5) and en_zh["test"] == "exact"
    assert en_zh["p"] == pytest.approx(2 * (1 + 5) / 32)  # 2 · P(X ≤ 1), X ~ Bin(5, ½)
    assert [r["pair"] for r in tables["mcnemar"] if r["topic"] == "T1"] == ["en–zh", "en–de", "zh–de"]
    all_topics = cells[(ALL_TOPICS, "zh–de")]
    assert (all_topics["n"], all_topics["only_a"], all_topics["only_b"]) == (8, 7, 0)
    assert all_topics["reject"] and all_topics["p"] == pytest.approx(2 / 2**7)
    # Null acceptance over the per-topic cells (2 topics × 3 pairs), not the pooled ones.
    (summary,) = tables["mcnemar_summary"]
    rejected = sum(r["reject"] for r in tables["mcnemar"] if r["topic"] != ALL_TOPICS)
    assert summary["cells"] == 6 and summary["rejected"] == rejected
    assert summary["null_acceptance_ratio"] == pytest.approx((6 - rejected) / 6)
    ranking = [(r["rank"], r["lang"], r["refusal"], r["n"]) for r in tables["refusal_ranking"]]
    assert ranking == [(1, "zh", 7 / 8, 8), (2, "en", 2 / 8, 8), (3, "de", 0.0, 8)]
    assert all(r["ci_low"] <= r["refusal"] <= r["ci_high"] for r in tables["refusal_ranking"])


def test_tied_refusal_rates_share_a_rank():
    # Nobody refuses: all six languages rank 1 (once ranked 1–6 by language order).
    nobody = {lang: _records(lang, [0, 0, 0, 0]) for lang in ORDER}
    ranking = refusal_tables(nobody, ORDER, seed=0)["refusal_ranking"]
    assert [(r["rank"], r["lang"]) for r in ranking] == [(1, lang) for lang in ORDER]
    # zh and hi tie on top (1/2 and 2/4: the same rate, different n), en and de tie at 0:
    # competition ranking 1, 1, 3, 4, 4.
    records = {
        "en": _records("en", [0, 0, 0, 0]),
        "ko": _records("ko", [1, 0, 0, 0]),
        "zh": _records("zh", [1, 0]),
        "de": _records("de", [0, 0, 0, 0]),
        "hi": _records("hi", [1, 1, 0, 0]),
    }
    ranking = refusal_tables(records, ORDER, seed=0)["refusal_ranking"]
    assert [(r["rank"], r["lang"]) for r in ranking] == [(1, "zh"), (1, "hi"), (3, "ko"), (4, "en"), (4, "de")]
    expected = stats.rankdata([-r["refusal"] for r in ranking], method="min")
    assert [r["rank"] for r in ranking] == expected.tolist()


def test_competition_ranks_equal_scipy_min_rank():
    rng = np.random.default_rng(0)
    for _ in range(50):
        rates = {f"l{i}": float(v) for i, v in enumerate(rng.integers(0, 4, 6) / 4)}
        expected = stats.rankdata([-v for v in rates.values()], method="min")
        assert list(competition_ranks(rates).values()) == expected.tolist()
    # Equal within rounding: 0.1 + 0.2 is not 0.3 in floating point, but is the same rate.
    assert competition_ranks({"a": 0.1 + 0.2, "b": 0.3, "c": 0.0}) == {"a": 1, "b": 1, "c": 3}


def test_only_questions_both_languages_have_are_paired():
    records = {"en": _records("en", [1, 0, 1]), "ko": _records("ko", [1, 0])}
    (cell,) = [r for r in refusal_tables(records, ORDER, seed=0)["mcnemar"]]
    assert cell["n"] == 2


def _embedded(lang, vectors, topic="T1"):
    return [
        SampleRecord(f"{topic}:{i}", lang, group=topic,
                     outputs={"answer": "x", "embedding": {"key": ["e", "h"], "vector": encode_vector(v)}})
        for i, v in enumerate(vectors)
    ]  # fmt: skip


def test_permanova_finds_a_planted_difference_and_not_a_missing_one():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(30, 8))
    records = {
        "en": _embedded("en", base + rng.normal(scale=0.3, size=base.shape)),
        "es": _embedded("es", base + rng.normal(scale=0.3, size=base.shape)),
        "hi": _embedded("hi", base + 0.6 + rng.normal(scale=0.3, size=base.shape)),
    }
    rows = {r["pair"]: r for r in permanova_rows(records, ORDER, permutations=199, seed=1)}
    assert rows["en–hi"]["reject"] and rows["en–hi"]["p"] == pytest.approx(1 / 200)
    assert rows["es–hi"]["reject"]
    assert not rows["en–es"]["reject"] and rows["en–es"]["p"] > 0.05
    assert rows["en–es"]["n"] == 30 and rows["en–es"]["permutations"] == 199


def _authors_matrix(points):
    """conduct_permanova_test.py's matrix, computed its way: pdist with a cosine-similarity metric."""
    from scipy.spatial.distance import pdist, squareform

    def cos_sim(v1, v2):
        return np.dot(v1, v2) / (np.linalg.norm(v1) * np.linalg.norm(v2))

    return squareform(pdist(points, metric=cos_sim))


def test_the_authors_permanova_equals_scikit_bio_on_their_similarity_matrix():
    from skbio import DistanceMatrix
    from skbio.stats.distance import permanova as skbio_permanova

    rng = np.random.default_rng(3)
    base = rng.normal(size=(25, 8))
    en, hi = base + rng.normal(scale=0.4, size=base.shape), base + 0.5 + rng.normal(scale=0.4, size=base.shape)
    # In the order permanova_rows pairs them (by sorted id), as float32, as samples keep them.
    order = sorted(range(25), key=lambda i: f"T1:{i}")
    points = np.vstack([en[order], hi[order]]).astype(np.float32).astype(np.float64)
    theirs = _authors_matrix(points)
    assert np.allclose(authors_distances(points), theirs, atol=1e-12)
    assert np.all(np.diag(authors_distances(points)) == 0.0) and theirs.min() < 0.0  # a similarity, not a distance
    records = {"en": _embedded("en", en), "hi": _embedded("hi", hi)}
    (ours,) = permanova_rows(records, ORDER, permutations=199, seed=4, distance="authors")
    reference = skbio_permanova(DistanceMatrix(theirs), ["en"] * 25 + ["hi"] * 25, permutations=199, seed=4)
    assert ours["pseudo_F"] == pytest.approx(reference["test statistic"], rel=1e-9)
    assert ours["p"] == reference["p-value"]
    # Euclidean distances (the default) are another matrix, with another statistic.
    (euclidean,) = permanova_rows(records, ORDER, permutations=199, seed=4)
    assert euclidean["pseudo_F"] != pytest.approx(ours["pseudo_F"])


def test_heatmaps_are_pngs_with_a_panel_per_topic(tmp_path):
    from PIL import Image

    records = {
        "en": _records("en", [1, 1, 0, 0]) + _records("en", [0, 1], topic="T2", start=4),
        "zh": _records("zh", [1, 1, 1, 1]) + _records("zh", [1, 1], topic="T2", start=4),
        "hi": _records("hi", [0, 0, 0, 1]) + _records("hi", [1, 0], topic="T2", start=4),
    }
    rows = refusal_tables(records, ORDER, seed=0)["mcnemar"]
    (figure,) = figures_from_rows(rows, test="McNemar", langs=ORDER, split="mode")
    assert figure.filename == "heatmap_mcnemar_adversarial.png"
    assert [p.title for p in figure.panels] == ["T1", "T2", ALL_TOPICS]
    assert figure.panels[0].langs == ("en", "zh", "hi")
    (path,) = write_figures(tmp_path, [figure])
    with Image.open(path) as image:
        assert image.format == "PNG" and image.width > 300 and image.height > 200


def test_p_value_heatmaps_keep_a_fixed_0_to_1_scale(tmp_path, monkeypatch):
    # p-values of 0.10–0.25 only: the colours must not stretch to fill the scale.
    import matplotlib.figure

    from mlbench.report.heatmaps import P_VALUE_LABEL, pyplot
    from mlbench.results.figures import Figure as HeatmapFigure
    from mlbench.results.figures import PairHeatmap

    seen = []
    real_colorbar = matplotlib.figure.Figure.colorbar

    def colorbar(self, mappable, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((mappable.get_clim(), kwargs.get("label")))
        return real_colorbar(self, mappable, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "colorbar", colorbar)
    panel = PairHeatmap("T1", ("en", "ko", "zh"), {("en", "ko"): 0.10, ("en", "zh"): 0.25, ("ko", "zh"): 0.2})
    write_figures(tmp_path, [HeatmapFigure("heatmap_x.png", "x", (panel,))])
    assert seen == [((0.0, 1.0), P_VALUE_LABEL)] and "fixed colour scale 0–1" in P_VALUE_LABEL
    pyplot().close("all")
