from dataclasses import replace

import pytest

from mlbench.backends.base import Backend
from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import resolve_languages
from mlbench.errors import MlbenchError
from mlbench.records import SampleRecord
from mlbench.results.aggregation import aggregate


def test_aggregate_means_intervals_and_empty_generations():
    records = [
        SampleRecord("0", metrics={"bleu_acc": 1.0}, outputs={"empty": False}),
        SampleRecord("1", metrics={"bleu_acc": 0.0}, outputs={"empty": True}),
        SampleRecord("2", metrics={"bleu_acc": 1.0}, outputs={"empty": False}),
        SampleRecord("3", metrics={"bleu_acc": 1.0}, outputs={}),
    ]
    result = aggregate("eu", records, ["bleu_acc"], seed=0)
    assert result.n == 4
    assert result.metrics["bleu_acc"].value == 0.75
    assert result.counts == {"empty_generations": 1}
    assert aggregate("eu", records, ["bleu_acc"], seed=0) == result


def test_lang_all_and_unknown_languages():
    task = get_task("veritasqa")
    assert resolve_languages(task, "all", TaskOptions()) == ["en", "es", "ca", "gl"]
    assert resolve_languages(task, ("gl", "en"), TaskOptions(DataSource("sample"))) == ["gl", "en"]
    with pytest.raises(MlbenchError, match="valid: en, es, ca, gl"):
        resolve_languages(task, ("en", "eu"), TaskOptions())


def test_a_language_another_task_of_the_run_has_is_named_with_what_to_do():
    sample = TaskOptions(DataSource("sample"))
    veritasqa, truthfulqa = get_task("veritasqa"), get_task("truthfulqa_multi")
    with pytest.raises(MlbenchError) as refused:
        resolve_languages(veritasqa, ("en", "es", "eu"), sample, others=[(truthfulqa, sample)])
    assert str(refused.value) == (
        "task veritasqa has no language eu (Basque); valid: en, es, ca, gl; truthfulqa_multi has it:"
        " run the tasks separately, or use --lang all (each task runs its own languages)"
    )
    # --lang all: each task its own languages.
    assert resolve_languages(veritasqa, "all", sample) == ["en", "es", "ca", "gl"]
    assert resolve_languages(truthfulqa, "all", sample) == ["en", "es", "ca", "gl", "eu"]
    with pytest.raises(MlbenchError, match=r"valid: en, es, ca, gl$"):  # no other task has it: no hint
        resolve_languages(veritasqa, ("eu",), sample, others=[(veritasqa, sample)])


def test_failed_samples_are_counted_not_scored():
    records = [
        SampleRecord("0", metrics={"mc1": 1.0}),
        SampleRecord(
            "1", outputs={"error": "mc: context overflow: 5000 tokens needed, the model's context holds 4096"}
        ),
        SampleRecord("2", metrics={"mc1": 0.0}),
    ]
    result = aggregate("en", records, ["mc1"], seed=0)
    assert result.n == 3 and result.metrics["mc1"].value == 0.5
    assert result.counts == {"failed": 1}
    # Every sample failed: no metric at all rather than a made-up mean.
    assert aggregate("en", records[1:2], ["mc1"], seed=0).metrics == {}


class OverflowOnLongQuestions(Backend):
    """Stands in for a backend whose context is shorter than one question's prompt."""

    name = "fake"
    fingerprint = "fake-overflow"

    def __init__(self, too_long: str):
        self.too_long = too_long
        self.calls = 0

    def _fits(self, prompt) -> bool:
        return self.too_long not in prompt.text

    def loglikelihood(self, requests, progress=None):
        from mlbench.records import LoglikelihoodResult

        self.calls += 1
        return [
            LoglikelihoodResult(-len(r.continuation) / 10, 3)
            if self._fits(r.prompt) or self.calls > 1
            else LoglikelihoodResult(
                0.0, 3, error="context overflow: 9000 tokens needed, the model's context holds 4096"
            )
            for r in requests
        ]

    def generate(self, requests, progress=None):
        raise AssertionError("mc only")


def test_overflowing_sample_is_recorded_and_retried_on_resume(tmp_path):
    import json

    from mlbench.backends.registry import ModelOptions
    from mlbench.engine.pipeline import RunConfig, run

    task = get_task("veritasqa")
    data = task.load("en", TaskOptions(DataSource("sample")))
    long_question = data.samples[3].question
    backend = OverflowOnLongQuestions(long_question)
    config = RunConfig(
        model=ModelOptions("fake-model"),
        tasks=("veritasqa",),
        langs=("en",),
        mode="mc",
        task_options=TaskOptions(DataSource("sample")),
        output=tmp_path,
    )
    [result] = run(config, backend_factory=lambda: backend)
    assert result.languages["en"].counts == {"failed": 1}
    assert result.languages["en"].n == len(data.samples)
    lines = [json.loads(line) for line in (tmp_path / "fake-model" / "veritasqa" / "samples_en.jsonl").open()]
    failed = [r for r in lines if "error" in r["outputs"]]
    assert [r["id"] for r in failed] == [data.samples[3].id]
    assert failed[0]["metrics"] == {} and failed[0]["outputs"]["error"].startswith("mc: context overflow")

    # --resume retries only the failed sample; this time the backend answers it.
    [resumed] = run(replace(config, resume=True), backend_factory=lambda: backend)
    assert resumed.languages["en"].counts == {}
    assert backend.calls == 2
