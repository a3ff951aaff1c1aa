"""A system turn for a chat template that shows none (backends/chat.py ``sent_prompt``): with
``system_join`` it is joined to the user's turn, as an author's layout for such models asks;
without, the turns go as they are."""

from __future__ import annotations

import pytest
from transformers import AutoTokenizer

from mlbench.backends.chat import render_prompt, sent_prompt
from mlbench.records import ChatMessage, Prompt

SHOWS = (
    "{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}{% endfor %}{% if add_generation_prompt %}<a>{% endif %}"
)
REFUSES = (
    "{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}" + SHOWS
)
DROPS = "{% for m in messages if m['role'] != 'system' %}<{{ m['role'] }}>{{ m['content'] }}{% endfor %}<a>"
TURNS = (ChatMessage("system", "Be brief."), ChatMessage("user", "Why?"))


@pytest.fixture
def tokenizer(tiny_model):
    return AutoTokenizer.from_pretrained(tiny_model)


@pytest.mark.parametrize("template", [REFUSES, DROPS])
def test_a_template_without_a_system_turn_gets_it_joined_to_the_users(tokenizer, template):
    tokenizer.chat_template = template
    sent, text = sent_prompt(tokenizer, Prompt(messages=TURNS, system_join=" "))
    assert sent.messages == (ChatMessage("user", "Be brief. Why?"),)
    assert text == "<user>Be brief. Why?<a>"


def test_a_template_that_shows_it_keeps_the_turns(tokenizer):
    tokenizer.chat_template = SHOWS
    prompt = Prompt(messages=TURNS, system_join=" ")
    assert sent_prompt(tokenizer, prompt) == (prompt, "<system>Be brief.<user>Why?<a>")


def test_without_system_join_the_turns_go_as_they_are(tokenizer):
    tokenizer.chat_template = DROPS
    assert render_prompt(tokenizer, Prompt(messages=TURNS)) == "<user>Why?<a>"
    tokenizer.chat_template = REFUSES
    with pytest.raises(Exception, match="System role not supported"):
        render_prompt(tokenizer, Prompt(messages=TURNS))
