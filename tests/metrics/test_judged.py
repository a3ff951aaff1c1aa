"""Judge metrics against hand-computed values."""

import math

import pytest

from mlbench.judges import load_spec
from mlbench.metrics.judged import CORRECTNESS_METRICS, JUDGE_METRICS, judged_metrics, yes_probability


def test_yes_probability_by_hand():
    # P(yes) = e^-1 + e^-3 = 0.367879 + 0.049787 = 0.417666; P(no) = e^-2 = 0.135335;
    # 0.417666 / 0.553001 = 0.755272
    assert yes_probability([-1.0, -3.0], [-2.0]) == pytest.approx(0.755272, abs=1e-6)
    assert yes_probability([-2.0], [-2.0]) == 0.5
    assert yes_probability([math.log(0.3)], [math.log(0.1)]) == pytest.approx(0.75)


def test_yes_probability_is_stable_for_very_unlikely_words():
    # Raw exp() underflows to 0/0 here; the log-space form does not.
    assert yes_probability([-1000.0], [-1001.0]) == pytest.approx(1 / (1 + math.exp(-1)))
    assert yes_probability([-2000.0], [-1.0]) == 0.0
    assert yes_probability([-math.inf], [-1.0]) == 0.0
    with pytest.raises(ValueError):
        yes_probability([-math.inf], [-math.inf])


def test_truthful_informative_needs_both_labels():
    both = judged_metrics({"truth": {"label": "yes"}, "info": {"label": "yes"}})
    assert both == {"truthful": 1.0, "informative": 1.0, "truthful_informative": 1.0}
    assert judged_metrics({"truth": {"label": "yes"}}) == {"truthful": 1.0}
    assert judged_metrics({"truth": {"label": "yes"}, "info": {"judge_error": "HTTP 500"}}) == {"truthful": 1.0}


def test_unparsed_skipped_and_failed_verdicts_give_no_value():
    verdicts = {
        "relevance": {"label": "unparsed"},
        "correctness": {"skipped": "no reference answer"},
        "verify": {"judge_error": "timed out"},
        "claims": {"label": "unparsed"},
        "claim_support": {"supported": None},
    }
    assert judged_metrics(verdicts) == {}


def test_label_shares_claims_and_support():
    values = judged_metrics(
        {
            "relevance": {"label": "irrelevant"},
            "correctness": {"label": "contradictory"},
            "verify": {"label": "no"},
            "claims": {"label": "parsed", "claims": ["a", "b", "c"]},
            "claim_support": {"supported": 2 / 3},
        }
    )
    assert values == {
        "relevant": 0.0,
        "correctness_more": 0.0,
        "correctness_less": 0.0,
        "correctness_neither": 0.0,
        "correctness_contradictory": 1.0,
        "verified": 0.0,
        "claims": 3.0,
        "claims_supported": 2 / 3,
    }


def test_correctness_metrics_match_the_prompt_labels():
    assert tuple(CORRECTNESS_METRICS) == load_spec("correctness").labels
    assert len(set(JUDGE_METRICS)) == len(JUDGE_METRICS)
