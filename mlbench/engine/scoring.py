"""Scoring a chunk of samples: every mode's requests through the backend, then the task's
scores and the surface checks, as one ``SampleRecord`` per sample."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from mlbench.backends.base import Backend, all_filled, checked_loglikelihood
from mlbench.benchmarks.base import LanguageData, Request, Result, Task, TaskOptions
from mlbench.engine.answer_checks import check_answer
from mlbench.engine.chunk_requests import ChunkRequests, mode_requests
from mlbench.engine.mc_options import option_block
from mlbench.engine.progress import SampleProgress
from mlbench.errors import LogprobsUnsupported
from mlbench.records import (
    GenerationRequest,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Prompt,
    Sample,
    SampleRecord,
)
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.usage import Usage, summed

# Told of each generation call: the tokens it generated, the seconds it took.
Generated = Callable[[int, float], None]


@dataclass
class _Scored:
    """What one sample gathers over the modes, for its ``SampleRecord``."""

    prompt: JsonValue = None  # the first mode's (the others follow from the task's prompt files)
    rendered: str | None = None  # the text a chat template made of that prompt
    outputs: JsonObject = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    surface: JsonObject | None = None
    usages: list[Usage | None] = field(default_factory=list)  # its requests' API tokens
    mode_prompts: JsonObject | None = None  # outputs.mode_prompts, where the task saves every prompt

    def keep_prompt(self, task: Task, mode: str, backend: Backend, prompt: Prompt) -> None:
        if self.prompt is None:
            self.prompt, self.rendered = sent(backend, prompt)
        elif task.saves_every_prompt:  # each mode's own, beside its outputs
            as_sent, text = sent(backend, prompt)
            if self.mode_prompts is None:  # in outputs where the second mode gets there
                self.mode_prompts = {}
                self.outputs["mode_prompts"] = self.mode_prompts
            self.mode_prompts[mode] = {"prompt": as_sent, **({"rendered_prompt": text} if text is not None else {})}

    def fail(self, mode: str, failure: str) -> None:
        earlier = self.outputs.get("error")
        self.outputs["error"] = "; ".join(
            filter(None, [earlier if isinstance(earlier, str) else None, f"{mode}: {failure}"])
        )

    def record(self, task: Task, sample: Sample, chash: str) -> SampleRecord:
        return SampleRecord(
            sample.id,
            sample.lang,
            self.prompt,
            self.outputs,
            self.metrics,
            chash,
            question=sample.question,
            reference=sample.best_answer,  # for judges that compare against a reference
            surface=self.surface,
            group=task.sample_group(sample),
            labels=task.sample_labels(sample),
            usage=summed(self.usages),
            rendered_prompt=self.rendered,
        )


def score_samples(
    task: Task,
    modes: tuple[str, ...],
    samples: list[Sample],
    data: LanguageData,
    options: TaskOptions,
    backend: Backend,
    progress: Callable[[int], None],
    chash: str,
    generated: Generated | None = None,
    ahead: ChunkRequests | None = None,
) -> list[SampleRecord]:
    """Run every mode's requests for ``samples`` through ``backend`` and score them;
    ``progress`` advances by one for each sample finished (see ``SampleProgress``);
    ``generated`` hears of each generation call's tokens and seconds. The requests built
    ``ahead`` for these samples are taken as they are; the others are built here."""
    scored = [_Scored() for _ in samples]
    bar = SampleProgress(progress, len(samples), len(modes))
    for mode in modes:
        built = ahead.of(mode, samples, data, options) if ahead is not None else None
        per_sample = built if built is not None else mode_requests(task, mode, samples, data, options)
        flat = [r for requests in per_sample for r in requests]
        try:
            results = dispatch(backend, flat, bar.mode(len(flat)), generated)
        except LogprobsUnsupported:
            bar.undo()  # the chunk is scored again (from generated words), from the start
            raise
        start = 0
        for sample, requests, gathered in zip(samples, per_sample, scored):
            mine = results[start : start + len(requests)]
            start += len(requests)
            gathered.usages += [r.usage for r in mine]
            gathered.keep_prompt(task, mode, backend, requests[0].prompt)
            failure = next((r.error for r in mine if r.error), None)
            if failure:
                gathered.fail(mode, failure)
                continue
            _score_mode(task, mode, sample, requests, mine, options, gathered)
    bar.finish()
    records = [gathered.record(task, sample, chash) for sample, gathered in zip(samples, scored)]
    for record in records:
        record.metrics.update(task.combined_metrics(record))
    return records


def _score_mode(
    task: Task,
    mode: str,
    sample: Sample,
    requests: list[Request],
    results: list[Result],
    options: TaskOptions,
    gathered: _Scored,
) -> None:
    """The task's scores of one mode's results, with the surface checks of its answer."""
    out, values = task.score(mode, sample, results, options)
    if task.mode(mode).produces == "loglikelihoods" and "options" not in out:
        # A mode that produces log-likelihoods asks only for them.
        asked = cast(list[LoglikelihoodRequest], requests)
        options_block: list[JsonValue] = list(
            option_block(task.option_marks(sample), asked, cast(list[LoglikelihoodResult], results))
        )
        out = {**out, "options": options_block}
    # Every generated answer gets the surface checks, whatever the benchmark.
    block, surface_values = check_answer(task, mode, out, sample.lang)
    gathered.outputs.update(out)
    gathered.metrics.update({**values, **surface_values})
    if block is not None:
        gathered.surface = block


def dispatch(
    backend: Backend,
    requests: list[Request],
    progress: Callable[[int], None] | None = None,
    generated: Generated | None = None,
) -> list[Result]:
    """Results in request order: log-likelihoods in one backend call, generations in
    another; ``progress`` is called with the number of requests just finished, and
    ``generated`` with the generation call's new tokens and its seconds."""
    results: list[Result | None] = [None] * len(requests)
    scoring = [(i, r) for i, r in enumerate(requests) if not isinstance(r, GenerationRequest)]
    writing = [(i, r) for i, r in enumerate(requests) if isinstance(r, GenerationRequest)]
    if scoring:
        scored = backend.loglikelihood([r for _, r in scoring], progress)
        for (i, _), result in zip(scoring, scored):
            results[i] = checked_loglikelihood(result)
    if writing:
        started = time.perf_counter()
        generations = backend.generate([r for _, r in writing], progress)
        if generated is not None:
            generated(sum(g.n_tokens for g in generations), time.perf_counter() - started)
        for (i, _), generation in zip(writing, generations):
            results[i] = generation
    return all_filled(results)


def sent(backend: Backend, prompt: Prompt) -> tuple[JsonValue, str | None]:
    """What a sample keeps of its prompt: the turns as the backend sent them (a system
    turn joined to the user's, for a template without one) and the text its chat template
    made of them; plain text as it is."""
    if prompt.messages is None:
        return prompt.to_json(), None
    done = backend.render(prompt)
    if done is None:  # a server applies the template
        return prompt.to_json(), None
    as_sent, text = done
    return as_sent.to_json(), text
