"""The "did you mean" every line about an unknown name carries (mlbench.errors)."""

from __future__ import annotations

import pytest

from mlbench.errors import closest, did_you_mean

TASKS = ("calmqa", "m_truthfulqa", "msqad", "truthfulqa_multi", "truthfulqa_multi_mt", "veritasqa", "xlinghealth")


@pytest.mark.parametrize(
    ("given", "known", "expected"),
    [
        ("truthfulqa_mult", TASKS, "truthfulqa_multi"),
        ("TruthfulQA_Multi", TASKS, "truthfulqa_multi"),  # case ignored
        ("MSQAD", TASKS, "msqad"),
        ("veritas", TASKS, "veritasqa"),
        ("mcc", ("mc", "gen"), "mc"),
        ("fewshoot", ("answer_format",), None),  # nothing near
        ("x", (), None),
    ],
)
def test_closest_is_the_one_nearest_name_or_none(given, known, expected):
    assert closest(given, known) == expected


def test_did_you_mean_is_a_hint_or_nothing():
    assert did_you_mean("jsno", ("md", "json")) == " (did you mean json?)"
    assert did_you_mean("MC", ("mc", "gen")) == " (did you mean mc?)"
    assert did_you_mean("zzz", ("md", "json")) == ""
    assert did_you_mean("json", ("md", "json")) == ""  # nothing to correct
