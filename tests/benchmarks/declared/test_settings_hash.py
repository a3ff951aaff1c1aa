"""The settings hash of a declared benchmark (``BenchmarkSpec.settings``) names its runs'
results and guards ``--resume``: a spec read the same must hash the same in every release,
or users' runs are orphaned. The hashes below were recorded from the shipped benchmarks,
the example, the test fixtures' specs and specs that set every key that shapes a sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlbench.benchmarks.declarative.spec import read_spec

REPO = Path(__file__).resolve().parents[3]
DECLARED = REPO / "mlbench" / "benchmarks" / "declared"

SHIPPED = {
    "aradice_truthfulqa": "c695c04d65740e56",
    "m_truthfulqa": "30e8983eacd8a1b4",
    "nortruthfulqa": "f583c50262e814dd",
    "nortruthfulqa_gen": "b5c699991d691d90",
    "truthfulqax": "6a794d450bea352a",
    "truthfulqax_gen": "7883750a73f05a07",
}

# The fixtures' specs (tests/benchmarks, tests/engine), as they write them.
LOCAL = 'name = "{name}"\ndata = "data/{{lang}}.jsonl"\nlanguages = ["en", "es"]\n'
NESTED = """[benchmark]
name = "nested_tqa"
languages = ["es", "ru"]
modes = ["mc"]
parallel = false
[source]
hub = "someone/nested_tqa"
revision = "0123456789abcdef0123456789abcdef01234567"
config = "{lang}"
split = "validation"
[columns]
question = "question"
mc1_choices = "mc1_targets.choices"
mc1_labels = "mc1_targets.labels"
mc2_choices = "mc2_targets.choices"
mc2_labels = "mc2_targets.labels"
[ids]
from = "hash"
[clean]
question = ["drop_brackets", "strip"]
"""
ANSWERS = """[benchmark]
name = "dotted"
data = "data/{lang}.jsonl"
languages = ["en"]
modes = ["mc"]
[columns]
id = "meta.id"
group = "meta.topic"
correct_answers = "answers.good"
incorrect_answers = "answers.bad"
[clean]
question = ["drop_brackets"]
answers = ["drop_brackets", "strip"]
"""
CSV = """[benchmark]
name = "csv_mc"
data = "items_{lang}.csv"
modes = ["mc"]
[columns]
id = "key"
question = "prompt"
group = "topic"
[prompt]
question = "Question: {question}\\nAnswer:"
"""
ALIGNED = '[benchmark]\nname = "mine"\ndata = "data/{lang}.jsonl"\nlanguages = ["de"]\n[align]\ntqa_index = "id"\n'
# Every key that shapes a sample, set to what is not its default.
EVERY_KEY = """[benchmark]
name = "every_key"
data = "data/{lang}.jsonl"
languages = ["en", "de"]
modes = ["gen", "mc", "gen"]
parallel = false
judges = ["truth", "info"]
mc_metrics = ["mc1_norm", "mc1", "mc1_norm"]
answers_as_listed = true
mc2_true = "before_first_false"
[columns]
id = "i"
question = "q"
best_answer = "b"
correct_answers = "c"
incorrect_answers = "w"
choices = "o"
labels = "l"
group = "g"
mc1_choices = "m1"
mc1_labels = "m1l"
[ids]
from = "hash"
column = "q"
[clean]
question = ["strip", "title_period"]
answers = ["squeeze_spaces"]
[prompt]
question = "Frage: {question}\\nAntwort:"
shot = "Frage: {question}\\nAntwort: {answer}"
[fewshot]
primer = "primer/{lang}.jsonl"
shots = 3
[generation]
max_new_tokens = 17
stop = [" ", "\\n"]
no_comment_reference = true
rouge = true
[labels]
topic = "meta.topic"
"""
EXAMPLES = """[benchmark]
name = "with_examples"
data = "data/{lang}.jsonl"
[fewshot]
examples = [{question = "Who?", answer = "Me."}, {question = "Where?", answer = "Here."}]
shots = 1
[generation]
no_comment_reference = "Keine Ahnung."
"""
WRITTEN = {
    "local": "[benchmark]\n" + LOCAL.format(name="t1"),
    "local_titled": "[benchmark]\n" + LOCAL.format(name="t2") + 'title = "T"\njudges = ["truth"]\n',
    "nested": NESTED,
    "answers": ANSWERS,
    "csv": CSV,
    "aligned": ALIGNED,
    "every_key": EVERY_KEY,
    "examples": EXAMPLES,
}
RECORDED = {
    "local": "2709c35ec983ebea",
    "local_titled": "2709c35ec983ebea",
    "nested": "43474a3e0af2276c",
    "answers": "97b47132bd2577c7",
    "csv": "7fb7799b79055692",
    "aligned": "2709c35ec983ebea",
    "every_key": "307a34e586ad9d7d",
    "examples": "f4819372ded86033",
    "capitals": "2709c35ec983ebea",
}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_benchmarks_keep_their_settings_hash(name):
    assert read_spec(DECLARED / f"{name}.toml").settings() == {"declarative": SHIPPED[name]}


@pytest.mark.parametrize("name", sorted(WRITTEN))
def test_the_fixtures_specs_keep_their_settings_hash(tmp_path, name):
    toml = tmp_path / "benchmark.toml"
    toml.write_text(WRITTEN[name], encoding="utf-8")
    assert read_spec(toml).settings() == {"declarative": RECORDED[name]}


def test_the_example_keeps_its_settings_hash():
    spec = read_spec(REPO / "examples" / "capitals" / "benchmark.toml")
    assert spec.settings() == {"declarative": RECORDED["capitals"]}


def test_the_title_judges_and_comments_do_not_change_it(tmp_path):
    toml = tmp_path / "benchmark.toml"
    toml.write_text(WRITTEN["local"].replace('"t1"', '"t2"'), encoding="utf-8")
    assert read_spec(toml).settings() == {"declarative": RECORDED["local"]}
    toml.write_text(WRITTEN["local_titled"] + "# a comment\n", encoding="utf-8")
    assert read_spec(toml).settings() == {"declarative": RECORDED["local"]}
