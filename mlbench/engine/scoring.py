"""Scoring a chunk of samples: every mode's requests through the backend, then the task's
scores and the surface checks, as one ``SampleRecord`` per sample."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mlbench.backends.base import Backend, checked_loglikelihood
from mlbench.benchmarks.base import LanguageData, Request, Result, Task, TaskOptions
from mlbench.engine.answer_checks import check_answer
from mlbench.engine.mc_options import option_block
from mlbench.engine.progress import SampleProgress
from mlbench.errors import LogprobsUnsupported
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, Prompt, Sample, SampleRecord
from mlbench.records.budgets import check_prompt_size
from mlbench.records.jsontypes import JsonObject
from mlbench.records.usage import Usage, summed

# Told of each generation call: the tokens it generated, the seconds it took.
Generated = Callable[[int, float], None]


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
) -> list[SampleRecord]:
    """Run every mode's requests for ``samples`` through ``backend`` and score them;
    ``progress`` advances by one for each sample finished (see ``SampleProgress``);
    ``generated`` hears of each generation call's tokens and seconds."""
    outputs: list[JsonObject] = [{} for _ in samples]
    metrics: list[dict[str, float]] = [{} for _ in samples]
    prompts: list[Any] = [None] * len(samples)
    rendered: list[str | None] = [None] * len(samples)  # the text a chat template made of the prompt
    surfaces: list[JsonObject | None] = [None] * len(samples)
    usages: list[list[Usage | None]] = [[] for _ in samples]  # its requests' API tokens
    bar = SampleProgress(progress, len(samples), len(modes))
    for mode in modes:
        per_sample = [task.requests(mode, s, data, options) for s in samples]
        for sample, requests in zip(samples, per_sample):
            check_prompt_sizes(task, sample, requests)
        flat = [r for requests in per_sample for r in requests]
        try:
            results = dispatch(backend, flat, bar.mode(len(flat)), generated)
        except LogprobsUnsupported:
            bar.undo()  # the chunk is scored again (from generated words), from the start
            raise
        start = 0
        for i, (sample, requests) in enumerate(zip(samples, per_sample)):
            mine = results[start : start + len(requests)]
            start += len(requests)
            usages[i] += [r.usage for r in mine]
            if prompts[i] is None:  # the first mode's prompt (the others follow from the task's prompt files)
                prompts[i], rendered[i] = sent(backend, requests[0].prompt)
            elif task.saves_every_prompt:  # each mode's own, beside its outputs
                as_sent, text = sent(backend, requests[0].prompt)
                kept = {"prompt": as_sent, **({"rendered_prompt": text} if text is not None else {})}
                outputs[i].setdefault("mode_prompts", {})[mode] = kept
            failure = next((r.error for r in mine if r.error), None)
            if failure:
                outputs[i]["error"] = "; ".join(filter(None, [outputs[i].get("error"), f"{mode}: {failure}"]))
                continue
            out, values = task.score(mode, sample, mine, options)
            if task.mode(mode).produces == "loglikelihoods" and "options" not in out:
                out = {**out, "options": option_block(task.option_marks(sample), requests, mine)}
            # Every generated answer gets the surface checks, whatever the benchmark.
            block, surface_values = check_answer(task, mode, out, sample.lang)
            outputs[i].update(out)
            metrics[i].update({**values, **surface_values})
            if block is not None:
                surfaces[i] = block
    bar.finish()
    records = [
        SampleRecord(
            s.id,
            s.lang,
            prompts[i],
            outputs[i],
            metrics[i],
            chash,
            question=s.question,
            reference=s.best_answer,  # for judges that compare against a reference
            surface=surfaces[i],
            group=task.sample_group(s),
            labels=task.sample_labels(s),
            usage=summed(usages[i]),
            rendered_prompt=rendered[i],
        )
        for i, s in enumerate(samples)
    ]
    for record in records:
        record.metrics.update(task.combined_metrics(record))
    return records


def announce(
    task: Task,
    modes: tuple[str, ...],
    samples: list[Sample],
    data: LanguageData,
    options: TaskOptions,
    backend: Backend,
) -> None:
    """Tell a backend that prepares calls ahead (its ``prefetch``, when not None: the hf
    backend on a GPU tokenizes their texts in a thread) of the requests of ``samples``, the
    chunk after the one about to be scored, so that it prepares them while this one runs."""
    prefetch = getattr(backend, "prefetch", None)
    if prefetch is None or not samples:
        return
    requests: list[Request] = []
    try:
        for mode in modes:
            for sample in samples:
                made = task.requests(mode, sample, data, options)
                check_prompt_sizes(task, sample, made)  # before any tokenizer sees them
                requests += made
    except Exception:  # noqa: BLE001 - a hint only: what is wrong is reported when that chunk is scored
        return
    prefetch(requests)


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
    scoring = [i for i, r in enumerate(requests) if not isinstance(r, GenerationRequest)]
    writing = [i for i, r in enumerate(requests) if isinstance(r, GenerationRequest)]
    if scoring:
        scored = backend.loglikelihood([requests[i] for i in scoring], progress)  # type: ignore[misc]
        for i, result in zip(scoring, scored):
            results[i] = checked_loglikelihood(result)
    if writing:
        started = time.perf_counter()
        generations: list[Generation] = backend.generate([requests[i] for i in writing], progress)  # type: ignore[misc]
        if generated is not None:
            generated(sum(g.n_tokens for g in generations), time.perf_counter() - started)
        for i, generation in zip(writing, generations):
            results[i] = generation
    return results  # type: ignore[return-value]


def sent(backend: Backend, prompt: Prompt) -> tuple[Any, str | None]:
    """What a sample keeps of its prompt: the turns as the backend sent them (a system
    turn joined to the user's, for a template without one) and the text its chat template
    made of them; plain text as it is."""
    render = getattr(backend, "render", None)
    if prompt.messages is None or render is None:
        return prompt.to_json(), None
    done = render(prompt)
    if done is None:  # a server applies the template
        return prompt.to_json(), None
    as_sent, text = done
    return as_sent.to_json(), text
