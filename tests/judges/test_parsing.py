"""Judge outputs written by hand, in several languages, read back into labels."""

import pytest

from mlbench.judges import load_spec
from mlbench.judges.parsing import UNPARSED, label_vocabulary, parse_claims, parse_label, parse_yes_no

CORRECTNESS = load_spec("correctness").vocabulary()
RELEVANCE = load_spec("relevance").vocabulary()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("yes", "yes"),
        (" No", "no"),
        ("Yes.", "yes"),
        ("**Answer:** no", "no"),
        ("Sí", "yes"),  # es
        ("Non.", "no"),  # gl
        ("Bai", "yes"),  # eu
        ("Ez", "no"),  # eu
        ("是的，回答正确。", "yes"),  # zh
        ("不是", "no"),  # zh
        ("नहीं", "no"),  # hi
        ("Yes, the answer matches the evidence.\nIt names the right year.", "yes"),
        ("The claim is supported.\nNo", "no"),
        ("The answer is not true", UNPARSED),  # never read a word inside a sentence
        ("No.\n\nYes.", UNPARSED),  # first and last line disagree
        ("maybe", UNPARSED),
        ("", UNPARSED),
        ("   \n  ", UNPARSED),
    ],
)
def test_yes_no(text, expected):
    assert parse_yes_no(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Answer 2 adds dosage advice.\nVerdict: more comprehensive and appropriate",
         "more comprehensive and appropriate"),
        ("Reasoning…\n**Verdict:** Neither contradictory nor similar.", "neither contradictory nor similar"),
        ("La respuesta 2 contradice a la 1.\nVerdict: CONTRADICTORY", "contradictory"),
        # Tolerant: a sentence near the end that names exactly one label.
        ("Comparing both answers, Answer 2 is less comprehensive and appropriate than Answer 1.",
         "less comprehensive and appropriate"),
        # "contradictory" inside the longer label is not a second label.
        ("Verdict: neither contradictory nor similar", "neither contradictory nor similar"),
        ("It is contradictory and also more comprehensive and appropriate.", UNPARSED),  # two labels
        ("Verdict: somewhat better", UNPARSED),
        ("", UNPARSED),
    ],
)  # fmt: skip
def test_correctness_labels(text, expected):
    assert parse_label(text, CORRECTNESS) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The answer explains the custom.\nVerdict: relevant", "relevant"),
        ("It only translates the question.\nVerdict: irrelevant", "irrelevant"),
        ("The answer is not relevant to the question.", "irrelevant"),  # a synonym phrase
        ("La respuesta aborda la pregunta.\nVeredicto: relevante", "relevant"),  # es
        ("Erantzuna ez da galderari buruzkoa.\nVerdict: Irrelevant.", "irrelevant"),  # eu reasoning
        ("I think it is relevant, or maybe irrelevant.", UNPARSED),
    ],
)
def test_relevance_labels(text, expected):
    assert parse_label(text, RELEVANCE) == expected


def test_label_far_from_the_end_is_not_read():
    text = "Verdict: relevant\n" + "\n".join(f"more reasoning line {i}" for i in range(5))
    assert parse_label(text, RELEVANCE) == UNPARSED


def test_label_vocabulary_is_case_insensitive_and_maps_synonyms():
    vocabulary = label_vocabulary(["Good", "Bad"], {"not good": "Bad"})
    assert vocabulary == {"good": "Good", "bad": "Bad", "not good": "Bad"}
    assert parse_label("NOT GOOD", vocabulary) == "Bad"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("- Paris is the capital of France.\n- Paris has about 2 million people.",
         ["Paris is the capital of France.", "Paris has about 2 million people."]),
        ("Claims:\n1. El Teide mide 3715 m.\n2) Está en Tenerife.", ["El Teide mide 3715 m.", "Está en Tenerife."]),
        ("* 水在100摄氏度沸腾。", ["水在100摄氏度沸腾。"]),
        ("NONE", []),
        ("Claims: none.", []),
        ("The answer has a lot of claims but I will not list them.", None),
        ("", None),
    ],
)  # fmt: skip
def test_claims(text, expected):
    assert parse_claims(text) == expected
