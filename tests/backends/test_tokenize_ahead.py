"""Tokenizing a later call's texts in a thread (tokenize_ahead.py): the call takes exactly
the ids it would have computed, encodes only what was not announced, and a text that
cannot be encoded ahead is left to the call, which reports it."""

from __future__ import annotations

import pytest

from mlbench.backends.chat import encode_all, encode_prompts, encode_requests, texts_to_encode
from mlbench.backends.tokenize_ahead import KEPT, TokenizeAhead
from mlbench.backends.tokenizer import load_tokenizer
from mlbench.errors import MlbenchError
from mlbench.records import ChatMessage, GenerationRequest, LoglikelihoodRequest, Prompt

PRIMER = "Q: What is the capital of France?\nA: Paris.\n\n"


@pytest.fixture(scope="module")
def tokenizer(tiny_model):
    return load_tokenizer(str(tiny_model), trust_remote_code=False)


def scored(question: str) -> list[LoglikelihoodRequest]:
    prompt = Prompt(text=f"{PRIMER}Q: {question}\nA:", shared_prefix=len(PRIMER))
    return [LoglikelihoodRequest(prompt, f" {option}") for option in ("Yes.", "No.", "Nobody knows.")]


class Counting:
    """The tokenizer, counting the texts it is asked to encode."""

    def __init__(self, tokenizer):
        self.inner, self.encoded = tokenizer, []

    def __call__(self, texts, **options):
        self.encoded += texts
        return self.inner(texts, **options)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_call_takes_the_ids_it_would_have_computed_and_encodes_nothing_again(tokenizer):
    requests = scored("Why is the sky blue?") + scored("¿Por qué el cielo es azul?")
    ahead = TokenizeAhead(tokenizer)
    ahead.start(requests)
    known = ahead.known(requests)
    ahead.close()
    assert known == encode_all(tokenizer, texts_to_encode(tokenizer, requests))
    counting = Counting(tokenizer)
    assert encode_requests(counting, requests, known) == encode_requests(tokenizer, requests)
    assert counting.encoded == []
    assert ahead.calls == 1


def test_both_threads_encode_at_once_without_changing_the_tokenizer(tiny_model):
    """A tokenizer.json that comes with padding set: transformers turns it off before a
    batch. Done by the worker while the main thread encodes, that fails ("Already
    borrowed"); so the main thread does it once before the worker starts."""
    tokenizer = load_tokenizer(str(tiny_model), trust_remote_code=False)
    tokenizer.backend_tokenizer.enable_padding(pad_id=tokenizer.pad_token_id, pad_token=tokenizer.pad_token)
    ahead = TokenizeAhead(tokenizer)
    later = [r for n in range(200) for r in scored(f"Question number {n}?")]
    ahead.start(later)
    assert tokenizer.backend_tokenizer.padding is None  # before the worker began
    now = scored("Is this encoded meanwhile?")
    for _ in range(20):
        assert encode_requests(tokenizer, now) == encode_requests(tokenizer, now)
    assert ahead.known(later) == encode_all(tokenizer, texts_to_encode(tokenizer, later))
    ahead.close()


def test_generation_prompts_too_and_only_the_unannounced_texts_are_encoded(tokenizer):
    prompts = [Prompt(text=f"{PRIMER}Q: {q}", shared_prefix=len(PRIMER)) for q in ("Why?", "When?")]
    ahead = TokenizeAhead(tokenizer)
    announced = [GenerationRequest(prompts[0])]
    ahead.start(announced)
    known = ahead.known(announced)
    ahead.close()
    counting = Counting(tokenizer)
    assert encode_prompts(counting, prompts, known) == encode_prompts(tokenizer, prompts)
    assert counting.encoded == [f"{PRIMER}Q: When?"]  # the primer and the first came ready


def test_an_unannounced_call_finds_nothing_and_a_later_match_lets_earlier_ones_go(tokenizer):
    ahead = TokenizeAhead(tokenizer)
    first, second = scored("One?"), scored("Two?")
    assert ahead.known(first) == {}
    ahead.start(first)
    ahead.start(second)
    assert ahead.known(second)
    assert ahead.known(first) == {}  # announced before the call that came: let go
    ahead.close()
    made = [scored(f"Question {n}?") for n in range(KEPT + 2)]
    ahead = TokenizeAhead(tokenizer)
    for requests in made:
        ahead.start(requests)
    assert ahead.known(made[0]) == {}  # only the last KEPT are kept
    assert ahead.known(made[KEPT + 1])
    ahead.close()


def test_a_call_is_matched_by_its_request_objects(tokenizer):
    """The announcement a call takes is the one that holds its very requests: equal
    requests built again are another call's, and a call may take part of one (the
    request cache sends on only its misses)."""
    ahead = TokenizeAhead(tokenizer)
    first, second = scored("One?"), scored("Two?")
    ahead.start(first + second)
    assert ahead.known(scored("One?")) == {}  # equal, but not the requests announced
    assert set(ahead.known(second[1:])) == set(texts_to_encode(tokenizer, first + second))
    assert ahead.known(first + scored("Three?")) == {}  # one request was never announced
    assert ahead.calls == 1
    ahead.close()


def test_what_cannot_be_encoded_ahead_is_left_to_the_call(tokenizer):
    """Chat turns for a tokenizer without a chat template: the thread gives up quietly,
    and the call itself says what is wrong."""

    class NoTemplate(Counting):
        chat_template = None

    plain = NoTemplate(tokenizer)
    requests = [GenerationRequest(Prompt(messages=(ChatMessage("user", "Hi"),)))]
    ahead = TokenizeAhead(plain)
    ahead.start(requests)
    assert ahead.known(requests) == {}
    assert ahead.calls == 0  # nothing was ready
    ahead.close()
    with pytest.raises(MlbenchError, match="no chat template"):
        encode_prompts(plain, [r.prompt for r in requests], {})
