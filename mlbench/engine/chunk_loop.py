"""A task's samples scored chunk by chunk, each chunk's requests built once and a chunk
ahead: the backend is told of the next chunk's while this one is scored (``prefetch``), and
scoring takes those same requests. Each chunk is written to the samples file as it
finishes, so a run stopped mid-way loses at most the chunk it was scoring."""

from __future__ import annotations

import time
from pathlib import Path

from mlbench.backends.base import Backend
from mlbench.engine.budget import chunk_size, spend_records
from mlbench.engine.chunk_requests import ChunkRequests, build_ahead
from mlbench.engine.plan import DEFAULT_CHUNK_SIZE, PlannedTask, RunConfig, RunObserver
from mlbench.engine.scoring import score_samples
from mlbench.errors import LogprobsUnsupported
from mlbench.records import Sample, SampleRecord
from mlbench.records.jsontypes import JsonObject
from mlbench.results import append_samples


class ChunkLoop:
    """Scores the languages of ``item``, one after the other, through ``backend``."""

    def __init__(
        self, config: RunConfig, item: PlannedTask, backend: Backend, observer: RunObserver, chash: str
    ) -> None:
        self.config, self.item, self.backend, self.observer, self.chash = config, item, backend, observer, chash
        # The task's options; its fallback once a chat-only API gives no log-probs (the
        # answers are then read from generated words, for the rest of the run).
        self.options = config.options_for(item.task)
        self.size = config.chunk_size or backend.samples_per_call or DEFAULT_CHUNK_SIZE
        self.ahead: ChunkRequests | None = None  # the next chunk's requests, built while this one is scored

    def score_language(self, index: int, done: dict[str, SampleRecord], path: Path) -> JsonObject:
        """Score the samples of language ``index`` not in ``done`` (or failed there), adding
        them to ``done`` and to the samples file at ``path``; when the model worked on them."""
        task, planned_lang = self.item.task, self.item.languages[index]
        # Failed samples of an earlier attempt (an API outage, say) are tried again.
        todo = [s for s in planned_lang.samples if s.id not in done or done[s.id].error]
        total = len(planned_lang.samples)
        progress = self.observer.start(task.name, planned_lang.lang, total, total - len(todo))

        def generated(tokens: int, seconds: float) -> None:
            self.observer.generated(task.name, planned_lang.lang, tokens, seconds)

        start = 0
        # When the model worked on this language, in wall-clock seconds: what a GPU monitor's
        # samples are read against (scripts/bench_gpu.sh's busy share).
        work_began = time.time()
        while start < len(todo):
            per_chunk = chunk_size(self.config.budget, "model", self.size, self.config.model)
            chunk = todo[start : start + per_chunk]
            current, self.ahead = self.ahead, self._next_chunk(index, todo, start + len(chunk), per_chunk)
            try:
                finished = score_samples(
                    task,
                    self.item.modes,
                    chunk,
                    planned_lang.data,
                    self.options,
                    self.backend,
                    progress,
                    self.chash,
                    generated,
                    current,
                )
            except LogprobsUnsupported as error:
                # A chat-only API: a task that can read generated words instead switches to them.
                fallback = task.without_logprobs(self.options)
                if fallback is None:
                    raise
                self.observer.warn(f"{error}; reading generated words instead for the rest of the run")
                self.options = fallback
                continue
            for record in finished:
                record.data_hash = planned_lang.data_hash
            append_samples(path, finished)
            spend_records(self.config.budget, finished, self.config.model)
            done.update({r.id: r for r in finished})
            start += len(chunk)
        return {"start": round(work_began, 3), "end": round(time.time(), 3), "samples": len(todo)}

    def _next_chunk(self, index: int, todo: list[Sample], after: int, per_chunk: int) -> ChunkRequests | None:
        """The requests of the chunk that starts at ``after`` in ``todo``, told to the
        backend: after a language's last chunk, the next language's first samples (on a
        resumed run some may be done already: then only their preparation is wasted)."""
        upcoming, of = todo[after : after + per_chunk], self.item.languages[index]
        if not upcoming and index + 1 < len(self.item.languages):
            of = self.item.languages[index + 1]
            upcoming = of.samples[:per_chunk]
        if not upcoming:
            return None
        ahead = build_ahead(self.item.task, self.item.modes, upcoming, of.data, self.options)
        if ahead.complete:  # what cannot be built is reported when that chunk is scored
            self.backend.prefetch(ahead.flat())
        return ahead
