"""The results files read back through their declared layouts (records.layouts): a file of
another shape is one line in our words naming the key, never pydantic's text, and a file
read and written again is the same bytes."""

from __future__ import annotations

import json

import pytest

from mlbench.errors import MlbenchError
from mlbench.records import LanguageResult, MetricValue, PerQuestion
from mlbench.results import read_language_file, read_run_file, write_language

LANGUAGE = {"schema_version": 2, "lang": "en", "config_hash": "h", "config": {}, "result": {"n-samples": 3}}
RUN = {"schema_version": 2, "model": "m", "task": "t", "config": {}, "results": {"en": {"n-samples": 3}}}
LIBRARY_WORDS = ("Input should be", "validation error", "pydantic", "type=")


@pytest.mark.parametrize(
    "change, problem",
    [
        (
            {"result": {"n-samples": 3, "mc1": "high"}},
            "result.mc1 is neither a count nor a metric's value and interval",
        ),
        ({"result": {"n-samples": -1}}, "result.n-samples is not a number >= 0"),
        ({"result": {"n-samples": 3, "groups": {"a": {}}}}, "no result.groups.a.n-samples"),
        ({"lang": 3}, "lang is not a string"),
        ({"sample_ids": [1]}, "sample_ids is not a list of ids"),
        (
            {"per_question": {"ids": ["a"], "values": {"mc1": [1, 0]}}},
            "per_question mc1 does not have one value per id",
        ),
    ],
)
def test_a_language_file_of_another_shape_is_one_line_naming_the_key(tmp_path, change, problem):
    path = tmp_path / "results_en.json"
    path.write_text(json.dumps({**LANGUAGE, **change}))
    with pytest.raises(MlbenchError) as raised:
        read_language_file(path)
    assert str(raised.value) == f"{path}: not an mlbench language result (ValueError: {problem})"


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"model": 1}, "model is not a string"),
        ({"results": []}, "results is not an object"),
        ({"results": {"en": {"n-samples": 3, "groups": 3}}}, "results.en.groups is not an object"),
        ({"per_question": {"en": {"ids": 3}}}, "per_question is not an object with a list of ids"),
        ({"cross_language": {"anova": [{"F": [1]}]}}, "cross_language.anova holds a value that is not a string, a "
                                                       "number, true, false or null"),
    ],
)  # fmt: skip
def test_a_results_file_of_another_shape_is_one_line_naming_the_key(tmp_path, change, problem):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({**RUN, **change}))
    with pytest.raises(MlbenchError) as raised:
        read_run_file(path)
    message = str(raised.value)
    assert message == f"{path}: not an mlbench results file (ValueError: {problem})"
    assert "\n" not in message and not any(words in message for words in LIBRARY_WORDS)


def test_a_language_file_read_and_written_again_is_the_same_bytes(tmp_path):
    value = MetricValue(0.5, 0.25, 0.75, 0.1)
    group = LanguageResult("en", 2, {"mc1": MetricValue(1, 1.0, 1.0, 0.0)}, {"failed": 1})
    result = LanguageResult("en", 3, {"mc1": value}, {"failed": 1, "empty": 0}, {"specific": group}, samples=6)
    result.per_question = PerQuestion(["q1", "q2", "q3"], {"mc1": [1.0, None, 0]}, {"category": ["a", None, "b"]})
    write_language(tmp_path, result, {"seed": 0}, "h", ["q1", "q2", "q3"])
    written = (tmp_path / "results_en.json").read_text()
    again = read_language_file(tmp_path / "results_en.json")
    (tmp_path / "again").mkdir()
    write_language(tmp_path / "again", again.result, again.config, again.config_hash, again.sample_ids)
    assert (tmp_path / "again" / "results_en.json").read_text() == written
    assert again.result == result and again.sample_ids == ["q1", "q2", "q3"]
