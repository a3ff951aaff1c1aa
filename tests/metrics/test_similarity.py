"""Consistency similarities on hand-computed pairs."""

from __future__ import annotations

import pytest

from mlbench.metrics.similarity import (
    cosine,
    jaccard,
    length_in_words,
    mean_pairwise,
    ngram_consistency,
    ngram_jaccard,
    ngrams,
    tokens,
)


def test_jaccard_on_known_sets():
    a = {("a",), ("b",), ("c",)}
    b = {("b",), ("c",), ("d",), ("e",)}
    assert jaccard(a, b) == pytest.approx(2 / 5)
    assert jaccard(set(), set()) == 1.0
    assert jaccard(a, set()) == 0.0


def test_word_ngrams_for_latin_script():
    # {take, two, pills, daily} vs {take, one, pill, daily}: 2 shared of 6.
    assert ngram_jaccard("Take two pills daily.", "take ONE pill, daily", n=1, lang="en") == pytest.approx(2 / 6)
    # Bigrams: {take two, two pills, pills daily} vs {take two, two tablets}: 1 of 4.
    assert ngram_jaccard("take two pills daily", "take two tablets", n=2, lang="en") == pytest.approx(1 / 4)


def test_chinese_is_split_into_characters():
    assert tokens("多喝水，多休息。", "zh") == ["多", "喝", "水", "多", "休", "息"]
    # Character sets {多,喝,水,休,息} and {多,喝,茶}: shared {多,喝}, union 6.
    assert ngram_jaccard("多喝水，多休息", "多喝茶", n=1, lang="zh") == pytest.approx(2 / 6)
    # Character bigrams {多喝,喝水,水多,多休,休息} vs {多喝,喝茶}: 1 of 6.
    assert ngram_jaccard("多喝水多休息", "多喝茶", n=2, lang="zh") == pytest.approx(1 / 6)
    assert ngrams(tokens("吃药", "zh"), 2) == {("吃", "药")}


def test_devanagari_words_keep_their_vowel_signs():
    assert tokens("मुझे बुखार है।", "hi") == ["मुझे", "बुखार", "है"]
    assert length_in_words("मुझे बुखार है।", "hi") == 3
    assert length_in_words("多喝水", "zh") == 3


def test_mean_pairwise_and_cosine():
    values = [1.0, 2.0, 4.0]
    # Pairs (1,2), (1,4), (2,4) of |x - y|: 1, 3, 2 -> mean 2.
    assert mean_pairwise(values, lambda i, j: abs(values[i] - values[j])) == pytest.approx(2.0)
    assert mean_pairwise(["only"], lambda i, j: 0.0) == 1.0
    assert cosine([1, 0], [1, 1]) == pytest.approx(2**-0.5)
    assert cosine([0, 0], [1, 1]) == 0.0


def test_ngram_consistency_of_three_answers():
    answers = ["rest and fluids", "rest and fluids", "see a doctor"]
    metrics = ngram_consistency(answers, "en")
    # Pairs: identical (1.0), disjoint (0.0), disjoint (0.0).
    assert metrics["sim_1gram"] == pytest.approx(1 / 3)
    assert metrics["sim_2gram"] == pytest.approx(1 / 3)
    assert metrics["length"] == pytest.approx(3.0)
