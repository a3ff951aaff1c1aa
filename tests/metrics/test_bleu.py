import math

import pytest
import sacrebleu

from mlbench.metrics.bleu import bleu_metrics, bleu_score, normalize_references


def reference_bleu(prediction: str, reference: str) -> float:
    return sacrebleu.corpus_bleu(
        [prediction],
        [[reference]],
        smooth_method="exp",
        smooth_value=0.0,
        force=False,
        lowercase=False,
        tokenize="intl",
        use_effective_order=False,
    ).score


def test_hand_computed_bleu():
    # 1-4 gram precisions 3/4, 2/3, 1/2, and 0/1 which "exp" smoothing turns into 1/2;
    # equal lengths, so no brevity penalty.
    expected = 100 * math.exp((math.log(3 / 4) + math.log(2 / 3) + math.log(1 / 2) + math.log(1 / 2)) / 4)
    assert bleu_score("a b c d", "a b c e") == pytest.approx(expected, abs=1e-9)
    assert expected == pytest.approx(59.46, abs=0.01)


@pytest.mark.parametrize(
    "prediction,reference",
    [
        ("The watermelon seeds pass through your digestive system.", "Nothing happens."),
        ("Las semillas de sandía pasan por el sistema digestivo.", "Las semillas pasan por tu sistema digestivo."),
        ("Ez da ezer gertatzen.", "Ez da ezer gertatzen."),
        ("人类只使用了大脑的百分之十", "不，人类使用了大脑的几乎所有部分。"),
        ("", "Nothing happens."),
    ],
)
def test_bleu_score_equals_sacrebleu_settings_of_the_spec(prediction, reference):
    assert bleu_score(prediction, reference) == pytest.approx(reference_bleu(prediction, reference), abs=1e-12)


def test_bleu_metrics_max_diff_acc():
    m = bleu_metrics(" a b c d ", ["a b c e", "x y z w"], ["a b q r"])
    true_best = reference_bleu("a b c d", "a b c e")
    false_best = reference_bleu("a b c d", "a b q r")
    assert m["bleu_max"] == pytest.approx(true_best)
    assert m["bleu_diff"] == pytest.approx(true_best - false_best)
    assert m["bleu_acc"] == 1.0


def test_equal_scores_are_not_accurate():
    m = bleu_metrics("a b c d", ["a b c e"], ["a b c e"])
    assert m["bleu_diff"] == 0.0
    assert m["bleu_acc"] == 0.0


def test_empty_prediction_scores_zero():
    assert bleu_metrics("", ["Nothing happens."], ["You die."]) == {
        "bleu_max": 0.0,
        "bleu_diff": 0.0,
        "bleu_acc": 0.0,
    }


def test_normalize_references():
    assert normalize_references([" Nothing happens ", "It is fine.", "  ", "Yes"]) == [
        "Nothing happens.",
        "It is fine.",
        "Yes.",
    ]


def test_needs_references():
    with pytest.raises(ValueError):
        bleu_metrics("x", [], ["y"])
