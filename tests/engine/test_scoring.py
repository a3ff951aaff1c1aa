"""A chunk's requests built once (chunk_requests.py): the next chunk's are built while one
is scored, the backend is told of those very objects, and scoring sends them; what fails
to build fails when its chunk is scored, as if it had been built there."""

from __future__ import annotations

import json

import pytest

from mlbench.backends.base import Backend
from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import LanguageData, TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.chunk_requests import build_ahead
from mlbench.engine.pipeline import RunConfig, run
from mlbench.errors import MlbenchError
from mlbench.records import Generation, LoglikelihoodRequest, LoglikelihoodResult, Prompt, Sample
from mlbench.records.budgets import MAX_PROMPT_CHARS


class TwoModes:
    """A task whose requests are each sample's question, once per mode; a question
    "broken" fails as a task's own code can, in the mode ``breaks``."""

    name = "two_modes"

    def __init__(self, breaks: str = "mc") -> None:
        self.breaks = breaks

    def requests(self, mode, sample, data, options):
        if sample.question == "broken" and mode == self.breaks:
            raise MlbenchError("the template failed")
        return [LoglikelihoodRequest(Prompt(text=f"{mode}: {sample.question}"), " yes")]


def sample(question: str, n: int = 0) -> Sample:
    return Sample(str(n), "en", question, "", (), ())


DATA = LanguageData([])


def test_the_next_chunks_requests_of_every_mode_are_built_mode_by_mode():
    ahead = build_ahead(TwoModes(), ("mc", "gen"), [sample("a", 1), sample("b", 2)], DATA, TaskOptions())
    assert ahead.complete
    assert [r.prompt.text for r in ahead.flat()] == ["mc: a", "mc: b", "gen: a", "gen: b"]


def test_what_cannot_be_built_is_left_for_the_chunks_scoring():
    options = TaskOptions()
    ahead = build_ahead(TwoModes("gen"), ("mc", "gen"), [sample("a"), sample("broken", 1)], DATA, options)
    assert not ahead.complete and list(ahead.by_mode) == ["mc"]  # the failed mode, and those after it, are built later
    assert ahead.of("gen", ahead.samples, DATA, options) is None
    huge = sample("x" * (MAX_PROMPT_CHARS + 1))  # never handed to a tokenizer unchecked
    assert build_ahead(TwoModes(), ("mc",), [huge], DATA, options).by_mode == {}


def test_scoring_takes_what_was_built_for_its_samples_and_nothing_else():
    options, samples = TaskOptions(), [sample("a", 1), sample("b", 2), sample("c", 3)]
    ahead = build_ahead(TwoModes(), ("mc",), samples, DATA, options)
    [first, second, _] = ahead.by_mode["mc"]
    taken = ahead.of("mc", samples[:2], DATA, options)  # a budget that shrank the chunk
    assert taken is not None and taken[0] is first and taken[1] is second
    assert ahead.of("mc", [sample("a", 1)], DATA, options) is None  # an equal sample, not one built for
    assert ahead.of("mc", samples, DATA, TaskOptions()) is None  # other options (generated words instead)
    assert ahead.of("mc", samples, LanguageData([]), options) is None


class Recording(Backend):
    """Records what it is told ahead and what each call gets."""

    name, fingerprint = "fake", "fake-recording"

    def __init__(self) -> None:
        self.told: list[list[object]] = []
        self.calls: list[list[object]] = []

    def prefetch(self, requests):
        self.told.append(list(requests))

    def loglikelihood(self, requests, progress=None):
        self.calls.append(list(requests))
        return [LoglikelihoodResult(-float(len(r.continuation)), 1) for r in requests]

    def generate(self, requests, progress=None):
        self.calls.append(list(requests))
        return [Generation("An answer.", 3, "stop") for _ in requests]


def config(tmp_path, mode: str = "all", **more) -> RunConfig:
    return RunConfig(
        model=ModelOptions("fake-model"),
        tasks=("veritasqa",),
        langs=("en",),
        mode=mode,
        task_options=TaskOptions(DataSource("sample"), max_new_tokens=4),
        limit=6,
        chunk_size=2,
        output=tmp_path,
        **more,
    )


def test_each_call_sends_the_very_requests_the_backend_was_told_of(tmp_path):
    backend = Recording()
    run(config(tmp_path), backend_factory=lambda: backend)
    assert len(backend.told) == 2  # the chunks after the first
    modes = len(backend.calls) // 3
    for chunk, told in enumerate(backend.told, start=1):
        ids = {id(r) for r in told}
        sent = [r for call in backend.calls[chunk * modes : (chunk + 1) * modes] for r in call]
        assert sent == told and all(id(r) in ids for r in sent)


def test_a_chunk_whose_requests_cannot_be_built_fails_when_it_is_scored(tmp_path, monkeypatch):
    """Without the count of texts to write (engine/checks.py), which builds every request
    before any is scored, and would fail there."""
    run(config(tmp_path / "first", "mc", generates=False), backend_factory=Recording)
    [written] = (tmp_path / "first").rglob("samples_en.jsonl")
    ids = [json.loads(line)["id"] for line in written.read_text().splitlines()]
    task = type(get_task("veritasqa"))
    built = task.requests

    def requests(self, mode, sample, data, options):
        if sample.id == ids[2]:
            raise MlbenchError(f"the template failed on {sample.id}")
        return built(self, mode, sample, data, options)

    monkeypatch.setattr(task, "requests", requests)
    with pytest.raises(MlbenchError, match=f"the template failed on {ids[2]}"):
        run(config(tmp_path / "second", "mc", generates=False), backend_factory=Recording)
    [failed] = (tmp_path / "second").rglob("samples_en.jsonl")
    assert [json.loads(line)["id"] for line in failed.read_text().splitlines()] == ids[:2]  # the chunk before it
