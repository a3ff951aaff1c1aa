"""ROUGE as lm-eval's TruthfulQA generation tasks report it: hand-computed values, the
" . " sentence split, the tokenizer's a-z/0-9 alphabet, and the bootstrap aggregator's mid
over one pair, which the authors take, equal to the pair's own score."""

from __future__ import annotations

import numpy as np
import pytest
from rouge_score import rouge_scorer, scoring

from mlbench.metrics.rouge import ROUGE_METRIC_NAMES, rouge_metrics, rouge_scores


def test_hand_computed_rouge_of_one_pair():
    # "the cat sat" in "the cat sat on the mat": 3 of 6 reference words, all 3 predicted
    # ones: P = 1, R = 1/2, F = 2/3; bigrams: 2 of 5, F = 2 · 1 · 0.4 / 1.4; the longest
    # common subsequence is the 3 words, as ROUGE-1.
    scores = rouge_scores("the cat sat", "the cat sat on the mat")
    assert scores["rouge1"] == pytest.approx(200 / 3)
    assert scores["rouge2"] == pytest.approx(100 * 0.8 / 1.4)
    assert scores["rougeL"] == pytest.approx(200 / 3)


def test_a_spaced_period_splits_sentences_for_rouge_l_only():
    # As one sentence the longest common subsequence of "c d a b" in "a b c d" is 2 words;
    # split at " . ", ROUGE-Lsum matches each sentence's words: all 4.
    joined, split = rouge_scores("c d a b", "a b c d"), rouge_scores("c d . a b", "a b . c d")
    assert joined["rouge1"] == split["rouge1"] == pytest.approx(100.0)
    assert joined["rougeL"] == pytest.approx(50.0) and split["rougeL"] == pytest.approx(100.0)


def test_only_latin_letters_and_digits_count():
    # rouge-score's tokenizer drops Greek words; the number is all two Greek texts share.
    assert rouge_scores("Η Γη είναι 4 δισ. ετών.", "Η Γη είναι 6000 ετών.")["rouge1"] == 0.0
    assert rouge_scores("Η Γη 4500 ετών.", "Είναι 4500 ετών.")["rouge1"] == pytest.approx(100.0)
    assert rouge_scores("Grüße", "gr e")["rouge1"] == pytest.approx(100.0)  # ü splits the word


@pytest.mark.parametrize(
    ("prediction", "reference"),
    [
        (" A: Nothing happens . You digest it.", "Nothing happens."),
        ("", "I have no comment."),
        ("Sieben Jahre . Im Magen . Ja", "Er bleibt sieben Jahre im Magen."),
        ("4,5 Milliarden Jahre.", "Die Erde ist 4,5 Milliarden Jahre alt."),
    ],
)
def test_equal_to_the_bootstrap_aggregators_mid_over_the_one_pair(prediction, reference):
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"])
    aggregator = scoring.BootstrapAggregator()
    aggregator.add_scores(scorer.score(reference.replace(" . ", ".\n"), prediction.replace(" . ", ".\n")))
    mids = {kind: score.mid.fmeasure * 100 for kind, score in aggregator.aggregate().items()}
    ours = rouge_scores(prediction, reference)
    assert (ours["rouge1"], ours["rouge2"], ours["rougeL"]) == (mids["rouge1"], mids["rouge2"], mids["rougeLsum"])


def test_max_acc_and_diff_against_the_true_and_false_references():
    # Against "the cat sat on the mat" (true) and "the cat ran" (false), "the cat sat" has
    # ROUGE-1 200/3 and 200/3 (2 of 3 words, both ways): a tie, so acc is 0 and diff 0;
    # ROUGE-2 (4/7 · 100 against 1/2 · 100: "the cat" alone in the false one) is won.
    state = np.random.get_state()[1].copy()
    metrics = rouge_metrics("the cat sat", ["the cat sat on the mat", "a dog"], ["the cat ran"])
    assert list(metrics) == list(ROUGE_METRIC_NAMES)
    assert metrics["rouge1_max"] == pytest.approx(200 / 3) and metrics["rouge1_diff"] == pytest.approx(0.0)
    assert metrics["rouge1_acc"] == 0.0
    assert metrics["rouge2_max"] == pytest.approx(400 / 7) and metrics["rouge2_acc"] == 1.0
    assert metrics["rouge2_diff"] == pytest.approx(400 / 7 - 50)
    assert metrics["rougeL_acc"] == 0.0 and metrics["rougeL_max"] == pytest.approx(200 / 3)
    assert (np.random.get_state()[1] == state).all()  # the bootstrap aggregator is not run
    with pytest.raises(ValueError, match="at least one true and one false"):
        rouge_metrics("x", [], ["y"])
