"""Announcing the next chunk (scoring.announce): a backend that prepares calls ahead is
told of the next chunk's requests; one that does not is left alone; nothing about the next
chunk can fail or slow the chunk being scored."""

from __future__ import annotations

from mlbench.benchmarks.base import TaskOptions
from mlbench.engine.scoring import announce
from mlbench.errors import MlbenchError
from mlbench.records import LoglikelihoodRequest, Prompt, Sample
from mlbench.records.budgets import MAX_PROMPT_CHARS


class Told:
    name, fingerprint = "told", "told"

    def __init__(self):
        self.told = []

    def prefetch(self, requests):
        self.told.append(requests)


class TwoModes:
    """A task whose requests are each sample's question, once per mode; a question
    "broken" fails as a task's own code can."""

    name = "two_modes"

    def requests(self, mode, sample, data, options):
        if sample.question == "broken":
            raise MlbenchError("the template failed")
        return [LoglikelihoodRequest(Prompt(text=f"{mode}: {sample.question}"), " yes")]


def sample(question: str, n: int = 0) -> Sample:
    return Sample(str(n), "en", question, "", (), ())


def test_the_next_chunks_requests_of_every_mode_are_announced():
    backend = Told()
    announce(TwoModes(), ("mc", "gen"), [sample("a", 1), sample("b", 2)], None, TaskOptions(), backend)
    assert [r.prompt.text for r in backend.told[0]] == ["mc: a", "mc: b", "gen: a", "gen: b"]


def test_nothing_is_announced_at_the_end_to_a_backend_without_it_or_when_it_cannot_be_built():
    backend = Told()
    announce(TwoModes(), ("mc",), [], None, TaskOptions(), backend)  # the last chunk: none after it
    announce(TwoModes(), ("mc",), [sample("a"), sample("broken")], None, TaskOptions(), backend)
    huge = sample("x" * (MAX_PROMPT_CHARS + 1))  # never handed to a tokenizer unchecked
    announce(TwoModes(), ("mc",), [huge], None, TaskOptions(), backend)
    assert backend.told == []
    announce(TwoModes(), ("mc",), [sample("a")], None, TaskOptions(), object())  # no prefetch: nothing to do


def test_a_backend_that_prepares_nothing_costs_no_requests():
    """The hf backend on the CPU (``prefetch`` None): the next chunk's requests are not
    even built."""

    class Counted(TwoModes):
        built = 0

        def requests(self, mode, sample, data, options):
            Counted.built += 1
            return super().requests(mode, sample, data, options)

    class Idle:
        prefetch = None

    announce(Counted(), ("mc",), [sample("a")], None, TaskOptions(), Idle())
    assert Counted.built == 0
