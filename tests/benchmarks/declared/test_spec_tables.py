"""The tables of a benchmark file as declared (declarative/tables.py): an unknown key names
the nearest known one, every mistake is one line in our words (never pydantic's), the
columns are Columns' own fields, and a long list of bad examples is refused at its first."""

from __future__ import annotations

import time
from dataclasses import fields

import pytest

from mlbench.benchmarks.declarative.spec import read_spec
from mlbench.data.questions import Columns
from mlbench.errors import MlbenchError

HEAD = '[benchmark]\nname = "mine"\ndata = "data/{lang}.jsonl"\n'
BENCHMARK_KEYS = "name, title, data, languages, modes, parallel, judges, mc_metrics, answers_as_listed, mc2_true"


def _error(tmp_path, text: str) -> str:
    toml = tmp_path / "benchmark.toml"
    toml.write_text(text, encoding="utf-8")
    with pytest.raises(MlbenchError) as raised:
        read_spec(toml)
    line = str(raised.value)
    assert line.startswith(f"{toml}: ") and "\n" not in line, line
    return line.removeprefix(f"{toml}: ")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (HEAD + "lenguages = []\n",
         f"[benchmark] has no key 'lenguages' (did you mean languages?); valid: {BENCHMARK_KEYS}"),
        ("[prompts]\n" + HEAD, "the file has no key 'prompts' (did you mean prompt?); valid: benchmark, source, "
                               "columns, ids, clean, prompt, fewshot, generation, upstream, templates, vars, labels, "
                               "lm_eval, align"),
        (HEAD + "[ids]\nfrm = 'row'\n", "[ids] has no key 'frm' (did you mean from?); valid: from, column"),
        (HEAD + "[fewshot]\nexamples = [{question = 'a', answr = 'b'}]\n",
         "[fewshot.examples item 1] has no key 'answr' (did you mean answer?); valid: question, answer"),
        (HEAD + "[generation]\ntemperature = 0\n", "[generation] has no key 'temperature'; valid: max_new_tokens, "
                                                   "stop, no_comment_reference, rouge"),
        ('[benchmark]\ndata = "data/{lang}.jsonl"\n', "benchmark.name must be a non-empty string"),
        (HEAD + "parallel = 1\n", "benchmark.parallel must be true or false"),
        (HEAD + "languages = 'en'\n", "benchmark.languages must be a list of non-empty strings"),
        (HEAD + "mc_metrics = ['mc3', 'mc3']\n",
         "benchmark.mc_metrics must be some of mc1, mc2, mc1_norm (got ('mc3', 'mc3'))"),
        (HEAD + "mc2_true = 'first'\n", "benchmark.mc2_true must be one of labelled, before_first_false (got 'first')"),
        (HEAD + "prompt = 1\n", "[benchmark] has no key 'prompt'; valid: " + BENCHMARK_KEYS),
        ("prompt = 1\n" + HEAD, "prompt must be a table ([prompt])"),
        ("vars = []\n" + HEAD, "vars must be a table ([vars])"),
        (HEAD + "[columns]\nmc1_choices = ''\n", "columns.mc1_choices must be a non-empty string"),
        (HEAD + "[ids]\nfrom = 'uuid'\n", "ids.from must be one of column, row, hash (got 'uuid')"),
        (HEAD + "[clean]\nanswers = ['strip', 'lower']\n",
         "clean.answers: no step 'lower'; steps: strip, title_period, drop_brackets, squeeze_spaces"),
        (HEAD + "[fewshot]\nshots = 1.5\n", "fewshot.shots must be a whole number ≥ 0"),
        (HEAD + "[fewshot]\nexamples = []\n", "fewshot.examples must be a list of {question, answer} tables"),
        (HEAD + "[fewshot]\nexamples = ['a']\n", "fewshot.examples item 1 must be a {question, answer} table"),
        (HEAD + "[fewshot]\nexamples = [{question = 'a', answer = 'b'}, {question = 'c'}]\n",
         "fewshot.examples[2].answer must be a non-empty string"),
        (HEAD + "[generation]\nmax_new_tokens = 0\n", "generation.max_new_tokens must be a whole number ≥ 1"),
        (HEAD + "[generation]\nno_comment_reference = 1\n", "generation.no_comment_reference must be true or false"),
        (HEAD + "[generation]\nno_comment_reference = ' '\n",
         "generation.no_comment_reference must be a non-empty string"),
    ],
)  # fmt: skip
def test_each_mistake_is_one_line_in_our_words(tmp_path, text, said):
    assert _error(tmp_path, text) == said


def test_the_columns_are_columns_own_fields(tmp_path):
    valid = ", ".join(f.name for f in fields(Columns))
    assert _error(tmp_path, HEAD + "[columns]\nkey = 'id'\n") == f"[columns] has no key 'key'; valid: {valid}"


def test_a_long_list_of_bad_examples_is_refused_at_its_first(tmp_path):
    examples = ", ".join("{question = 1}" for _ in range(50_000))
    started = time.monotonic()
    said = _error(tmp_path, HEAD + f"[fewshot]\nexamples = [{examples}]\n")
    assert said == "fewshot.examples[1].question must be a non-empty string"
    assert time.monotonic() - started < 30
