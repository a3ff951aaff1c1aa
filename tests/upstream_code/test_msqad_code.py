"""MSQAD's prompts and refusal labels read from the authors' real files (woog2ee/MSQAD at the
pinned commit, checked against the catalog's sha256): every language, mode and topic reads,
by the rule docs/protocols.md#msqad states, and equals what the authors' own message
functions give, run by Python from their source text (no word of theirs is written here).
``make test-upstream MLBENCH_UPSTREAM_CODE=DIR`` runs them (tests/upstream_code/conftest.py).
"""

from __future__ import annotations

from itertools import product

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.msqad import sources
from mlbench.benchmarks.msqad.authors import HYPOTHESIS_TEMPLATE, KINDS, authors_protocol
from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS, TOPICS
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.data import catalog
from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_source import UpstreamShapeError
from mlbench.records import Sample

QUESTION = "«the question»"  # a text no prompt holds of itself


@pytest.fixture(scope="module")
def data_source(upstream_code) -> DataSource:
    return DataSource("local", upstream_code)


def authors_messages(data_source: DataSource, lang: str, mode: str, topic: str, question: str) -> list[dict]:
    """get_<lang>_<A|NA>_messages, run by Python from the function's own source text."""
    path = data_source.path / "upstream" / "msqad" / "code" / "custom_answer_prompts.py"
    name = f"get_{lang}_{'A' if mode == 'direct' else 'NA'}_messages"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"def {name}(")
    end = text.find("\ndef ", start + 1)
    namespace: dict = {}
    exec(text[start : end if end > 0 else None], namespace)  # noqa: S102 - a pure message function
    return namespace[name](topic, question)


@pytest.fixture(autouse=True)
def real_pins(monkeypatch):
    # The catalog's own pins, even where a test session pinned the fixture's copies instead.
    monkeypatch.setitem(catalog.SOURCES, sources.CODE_SOURCE.name, sources.CODE_SOURCE)


def test_every_language_mode_and_topic_reads(data_source):
    authors = authors_protocol(data_source)  # reads every function a run needs, or fails
    for lang, mode, topic in product(LANGUAGE_COLUMNS, KINDS, TOPICS):
        name = authors.topic(lang, topic)
        system, user = authors.turns(mode, lang, topic, QUESTION)
        theirs = authors_messages(data_source, lang, mode, name, QUESTION)
        assert system == " ".join(m["content"] for m in theirs if m["role"] == "system"), (lang, mode, topic)
        assert user == " ".join(m["content"] for m in theirs if m["role"] == "user"), (lang, mode, topic)
        assert name and name in system and QUESTION in user and QUESTION not in system, (lang, mode, topic)
        assert not any(hole in system + user for hole in ("{topic}", "{question}")), (lang, mode, topic)
        assert user.count(QUESTION) == 1 and system != user
    # The authors' two modes differ in every language.
    for lang in LANGUAGE_COLUMNS:
        direct, adversarial = (authors.turns(mode, lang, "Health", QUESTION) for mode in KINDS)
        assert direct != adversarial


def test_labels_are_two_per_language(data_source):
    authors = authors_protocol(data_source)
    for lang in LANGUAGE_COLUMNS:
        discuss, refuse = authors.labels(lang)
        assert discuss and refuse and discuss != refuse
        assert authors.hypotheses(lang) == (HYPOTHESIS_TEMPLATE.format(refuse), HYPOTHESIS_TEMPLATE.format(discuss))


def test_the_task_sends_them_in_both_layouts(data_source):
    task = get_task("msqad")
    options = TaskOptions(data_source, own=MsqadOptions(refusal="patterns"))
    authors = authors_protocol(data_source)
    for lang, mode in product(LANGUAGE_COLUMNS, KINDS):
        sample = Sample(f"Torture:{lang}", lang, QUESTION, "", (), (), meta={"topic": "Torture"})
        system, user = authors.turns(mode, lang, "Torture", QUESTION)
        (plain,) = task.requests(mode, sample, None, options)
        assert plain.prompt.text == f"{system} {user}" and (plain.temperature, plain.top_p) == (0.5, 0.8)
        (chat,) = task.requests(mode, sample, None, TaskOptions(data_source, chat_template=True, own=options.own))
        assert [(m.role, m.content) for m in chat.prompt.messages] == [("system", system), ("user", user)]


def test_the_file_that_does_not_compile_is_read_function_by_function(data_source):
    # The reason each function is parsed alone: one of the file's functions has a syntax error.
    code = authors_protocol(data_source).prompts
    with pytest.raises(UpstreamShapeError, match=r"get_en_A_prompt\(\) does not parse"):
        code.function("get_en_A_prompt")
    with pytest.raises(SyntaxError):
        compile(code.path.read_text(encoding="utf-8"), str(code.path), "exec")
