"""Progress bars move sample by sample while a chunk is scored, not once per chunk."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from mlbench.backends.base import Backend
from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, RunObserver, run
from mlbench.engine.progress import SampleProgress
from mlbench.records import Generation, LoglikelihoodResult


class Spy(RunObserver):
    """Every advance of every bar, by (stage, language)."""

    def __init__(self) -> None:
        self.advances: dict[tuple[str, str], list[int]] = {}
        self.starts: list[tuple[str, str, int, int]] = []

    def start(self, task: str, lang: str, total: int, done: int) -> Callable[[int], None]:
        self.starts.append((task, lang, total, done))
        calls = self.advances.setdefault((task, lang), [])
        return calls.append


class PerRequest(Backend):
    """A backend that reports each request as it finishes and records how far the bar
    had moved at that moment (``seen``)."""

    name = "fake"
    fingerprint = "fake-per-request"

    def __init__(self, spy: Spy | None = None, report: bool = True) -> None:
        self.spy, self.report = spy, report
        self.seen: list[int] = []

    def _moved(self) -> int:
        return sum(sum(calls) for calls in self.spy.advances.values()) if self.spy else 0

    def loglikelihood(self, requests, progress=None):
        results = []
        for request in requests:
            results.append(LoglikelihoodResult(-float(len(request.continuation)), 1))
            if progress and self.report:
                progress(1)
            self.seen.append(self._moved())
        return results

    def generate(self, requests, progress=None):
        results = []
        for _ in requests:
            results.append(Generation("An answer.", 3, "stop"))
            if progress and self.report:
                progress(1)
            self.seen.append(self._moved())
        return results


def config(tmp_path, mode: str = "mc", **more) -> RunConfig:
    return RunConfig(
        model=ModelOptions("fake-model"),
        tasks=("veritasqa",),
        langs=("en",),
        mode=mode,
        task_options=TaskOptions(DataSource("sample")),
        limit=6,
        output=tmp_path,
        **more,
    )


def test_the_bar_advances_once_per_sample_within_one_chunk(tmp_path):
    spy = Spy()
    backend = PerRequest(spy)
    run(config(tmp_path), spy, backend_factory=lambda: backend)
    assert spy.starts == [("veritasqa", "en", 6, 0)]
    assert spy.advances[("veritasqa", "en")] == [1] * 6  # one call per sample, none per chunk
    # The bar moved while the backend was still working on the chunk (one call for all 6).
    assert 0 < spy_at_half(backend) < 6


def spy_at_half(backend: PerRequest) -> int:
    return backend.seen[len(backend.seen) // 2 - 1]


def test_with_real_hf_scoring_the_bar_counts_every_sample(tiny_model, hf_backend, tmp_path):
    spy = Spy()
    cfg = replace(config(tmp_path, "all"), model=ModelOptions(str(tiny_model)), chunk_size=4)
    cfg = replace(cfg, task_options=replace(cfg.task_options, max_new_tokens=4))
    run(cfg, spy, backend_factory=lambda: hf_backend)
    calls = spy.advances[("veritasqa", "en")]
    assert calls == [1] * 6


def test_a_backend_that_reports_nothing_still_fills_the_bar(tmp_path):
    spy = Spy()
    run(config(tmp_path, "all"), spy, backend_factory=lambda: PerRequest(report=False))
    assert spy.advances[("veritasqa", "en")] == [1] * 6


def test_a_resumed_language_starts_done(tmp_path):
    run(config(tmp_path), backend_factory=lambda: PerRequest())
    spy = Spy()
    run(config(tmp_path, resume=True), spy, backend_factory=lambda: PerRequest())
    assert spy.starts == [("veritasqa", "en", 6, 6)]
    assert spy.advances[("veritasqa", "en")] == []


def test_each_mode_is_an_equal_share_of_a_sample():
    calls: list[int] = []
    bar = SampleProgress(calls.append, samples=4, modes=2)
    mc = bar.mode(20)  # 5 options per question: cheap
    mc(20)
    assert sum(calls) == 2  # MC done: half of every sample
    generation = bar.mode(4)
    generation(1)
    assert sum(calls) == 2  # 2.5 samples' worth: the bar shows whole samples
    generation(1)
    assert sum(calls) == 3
    generation(2)
    bar.finish()
    assert calls == [1, 1, 1, 1]


def test_a_mode_without_requests_counts_as_done_and_undo_takes_back():
    calls: list[int] = []
    bar = SampleProgress(calls.append, samples=3, modes=3)
    bar.mode(0)
    assert calls == [1]
    bar.mode(3)(3)
    assert calls == [1, 1]
    bar.undo()
    assert sum(calls) == 0 and calls[-1] == -2
    bar.finish()
    assert sum(calls) == 3
