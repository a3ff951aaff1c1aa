"""A chunk's requests, built once. Before it scores a chunk the pipeline builds the next
one's, tells the backend of them (``Backend.prefetch``: the hf backend on a GPU tokenizes
their texts in a thread while this chunk runs) and later hands the same objects to that
chunk's scoring, which sends those same objects: a backend that prepared a call finds it
by the identity of its requests."""

from __future__ import annotations

from dataclasses import dataclass

from mlbench.benchmarks.base import LanguageData, Request, Task, TaskOptions
from mlbench.records import LoglikelihoodRequest, Sample
from mlbench.records.budgets import check_prompt_size


def check_prompt_sizes(task: Task, sample: Sample, requests: list[Request]) -> None:
    """The one cap on a prompt's size, whichever way the benchmark made it (a Python
    function, Jinja, a format, a data column): a tokenizer given tens of millions of
    characters may abort the process instead of failing, so the sample is named first."""
    for request in requests:
        prompt = request.prompt
        length = len(prompt.text) if prompt.text is not None else sum(len(m.content) for m in prompt.messages or ())
        if isinstance(request, LoglikelihoodRequest):  # an option is tokenized with the prompt
            length += len(request.continuation)
        check_prompt_size(length, f"{task.name} {sample.lang} {sample.id}")


def mode_requests(
    task: Task, mode: str, samples: list[Sample], data: LanguageData, options: TaskOptions
) -> list[list[Request]]:
    """Each sample's requests of ``mode``, their sizes checked before any tokenizer sees them."""
    per_sample = [task.requests(mode, s, data, options) for s in samples]
    for sample, requests in zip(samples, per_sample):
        check_prompt_sizes(task, sample, requests)
    return per_sample


@dataclass(frozen=True)
class ChunkRequests:
    """The requests of ``samples`` (of ``data``, with ``options``), built before the chunk
    is scored."""

    samples: list[Sample]
    data: LanguageData
    options: TaskOptions
    # Each mode's requests per sample, in the run's order of modes. A mode whose building
    # raised is missing, and so are the modes after it: scoring builds them when it reaches
    # them, which raises there, with the message and at the point it always has.
    by_mode: dict[str, list[list[Request]]]
    complete: bool

    def flat(self) -> list[Request]:
        """Every request, mode by mode and sample by sample: what the backend is told of."""
        return [r for per_sample in self.by_mode.values() for requests in per_sample for r in requests]

    def of(
        self, mode: str, samples: list[Sample], data: LanguageData, options: TaskOptions
    ) -> list[list[Request]] | None:
        """The requests of ``mode`` for ``samples`` as built ahead, or None where they were
        not: other samples (a budget that shrank the chunk takes part of them), other data
        or options (a task that switched to generated words), or a mode that failed."""
        built = self.by_mode.get(mode)
        if built is None or data is not self.data or options is not self.options:
            return None
        position = {id(sample): i for i, sample in enumerate(self.samples)}
        if any(id(sample) not in position for sample in samples):
            return None
        return [built[position[id(sample)]] for sample in samples]


def build_ahead(
    task: Task, modes: tuple[str, ...], samples: list[Sample], data: LanguageData, options: TaskOptions
) -> ChunkRequests:
    """The requests of a later chunk; what fails to build is left for its scoring to raise."""
    by_mode: dict[str, list[list[Request]]] = {}
    for mode in modes:
        try:
            by_mode[mode] = mode_requests(task, mode, samples, data, options)
        except Exception:  # noqa: BLE001 - raised when that chunk is scored, which builds the mode again
            break
    return ChunkRequests(samples, data, options, by_mode, complete=len(by_mode) == len(modes))
