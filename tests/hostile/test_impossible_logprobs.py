"""Issue 35, item 5: log-probabilities a backend cannot rightly give (NaN, infinite,
positive) fail their sample with a reason, and the results files stay strict JSON."""

import json
import math

import pytest
from judges.scripted import ScriptedBackend

from mlbench.backends.base import checked_loglikelihood
from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from mlbench.engine.pipeline import RunConfig, run
from mlbench.records import LoglikelihoodResult


def _strict(text):
    def refuse(constant):
        raise AssertionError(f"{constant} in a results file")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(("value", "reason"), [(math.nan, "not a number"), (0.7, "positive"), (-math.inf, "infinite")])
def test_an_impossible_log_probability_fails_the_sample(tmp_path, value, reason):
    config = RunConfig(
        model=ModelOptions("scripted"),
        tasks=("truthfulqa_multi",),
        langs=("en",),
        mode="mc",
        task_options=TaskOptions(DataSource("sample")),
        limit=3,
        output=tmp_path,
    )
    first = []

    def logprob(prompt, option):
        # Every option of the first question asked gets the impossible value; the others are fine.
        first[:] = first or [prompt]
        return value if prompt == first[0] else -2.0 - len(option) / 10

    backend = ScriptedBackend(logprob)
    run(config, backend_factory=lambda: backend)  # 1 of 3 failed: a warning, not SamplesFailed
    run_dir = tmp_path / "scripted" / "truthfulqa_multi"
    lines = [_strict(line) for line in (run_dir / "samples_en.jsonl").read_text().splitlines()]
    broken = [line for line in lines if "error" in line["outputs"]]
    assert len(broken) == 1 and not broken[0]["metrics"]
    assert reason in broken[0]["outputs"]["error"]
    results = _strict((run_dir / "results.json").read_text())
    assert results["results"]["en"]["n-samples"] == 3 and results["results"]["en"]["failed"] == 1
    assert math.isfinite(results["results"]["en"]["mc2"]["value"])


def test_the_check_keeps_a_real_log_probability():
    assert checked_loglikelihood(LoglikelihoodResult(-0.0, 1)).error is None
    assert checked_loglikelihood(LoglikelihoodResult(-12.5, 3)).error is None
    failed = LoglikelihoodResult(-1.0, 1, error="context overflow")
    assert checked_loglikelihood(failed) is failed
