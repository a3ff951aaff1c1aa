"""What an API request cost: its prompt and completion tokens, and their price.

A server's ``usage`` object gives the counts; where it sends none, the backend counts them
with a tokenizer and marks them ``estimated``. A sample's usage is the sum of its requests'
(``SampleRecord.usage``; a judge's in ``SampleRecord.judge_usage`` by judge kind), and a
run's totals are summed from its samples, so that a resumed run counts each sample once.
Prices are the user's, in US dollars per million tokens (``-M prompt_price=2.5``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import StrictBool

from mlbench.records.jsontypes import JsonObject
from mlbench.records.shape import Count, Location, dumped, read_shape

PER = 1_000_000  # prices are per million tokens, as providers list them


@dataclass(frozen=True)
class Usage:
    """Tokens of one request, or summed over many (``estimated``: some were counted by us)."""

    prompt_tokens: Count = 0
    completion_tokens: Count = 0
    estimated: StrictBool = False

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.estimated or other.estimated,
        )

    def to_json(self) -> JsonObject:
        return dumped(Usage, self)

    @classmethod
    def from_json(cls, data: object) -> Usage:
        """The usage of a saved line; ValueError saying what is wrong with its shape."""
        return read_shape(cls, data, usage_words)


def usage_words(where: Location, kind: str) -> str:
    """What is wrong with a usage object, at ``where`` inside it."""
    if not where:
        return "usage is not an object"
    if where[0] == "estimated":
        return "usage.estimated is not true or false"
    return "usage holds a token count that is not a whole number >= 0"


def summed(usages: Iterable[Usage | None]) -> Usage | None:
    """The sum of the usages given (None: none was counted, e.g. a local model's)."""
    found = [usage for usage in usages if usage is not None]
    if not found:
        return None
    total = found[0]
    for usage in found[1:]:
        total = total + usage
    return total


@dataclass(frozen=True)
class Prices:
    """US dollars per million prompt and completion tokens."""

    prompt: float
    completion: float

    def cost(self, usage: Usage) -> float:
        return (usage.prompt_tokens * self.prompt + usage.completion_tokens * self.completion) / PER

    @classmethod
    def given(cls, prompt: float | None, completion: float | None) -> Prices | None:
        """The prices when both were given (options check that neither comes alone)."""
        return None if prompt is None or completion is None else cls(prompt, completion)

    def to_json(self) -> JsonObject:
        return {"prompt_price": self.prompt, "completion_price": self.completion}
