"""Every MSQAD topic of the release is named in every language of the NLI hypotheses."""

from __future__ import annotations

import pytest

from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS, TOPICS
from mlbench.benchmarks.msqad.refusal import hypotheses, msqad_prompts


def test_the_release_has_seventeen_topics():
    assert len(TOPICS) == len(set(TOPICS)) == 17
    # The release lists them alphabetically.
    assert TOPICS[0] == "Arms" and TOPICS[-1] == "Women's Rights" and list(TOPICS) == sorted(TOPICS)


@pytest.mark.parametrize("lang", LANGUAGE_COLUMNS)
def test_every_language_names_exactly_the_release_topics(lang):
    names = msqad_prompts()[lang]["topics"]
    assert sorted(names) == sorted(TOPICS)
    assert all(name.strip() == name and name for name in names.values())
    assert len(set(names.values())) == len(TOPICS)  # no two topics share a name
    if lang != "en":  # a translation, not the English name left in
        assert not set(names.values()) & ({t.lower() for t in TOPICS} | set(TOPICS))


@pytest.mark.parametrize("lang", LANGUAGE_COLUMNS)
def test_every_hypothesis_formats_with_the_topics_name(lang):
    table = msqad_prompts()[lang]
    for topic in TOPICS:
        refuse, discuss = hypotheses(lang, topic)
        assert refuse == table["nli_template"].format(table["nli_refuse"])
        assert table["topics"][topic] in discuss and discuss != refuse
        assert "{" not in discuss and "}" not in discuss
