"""How the GPU decoder's step is repeated (step_graphs.py): one real step at capture, then
the replay; a step that cannot be recorded falls back to Python, once, losing nothing."""

from __future__ import annotations

import pytest

from mlbench.backends.step_graphs import eager, graph_or_eager


def counter():
    calls = []
    return calls, lambda: calls.append(1)


def test_eager_takes_one_step_at_capture_and_returns_the_step():
    calls, step = counter()
    run = eager(step)
    assert len(calls) == 1
    run()
    assert len(calls) == 2


def test_a_step_that_cannot_be_recorded_runs_in_python_with_one_warning():
    warnings = []

    def refusing_record(step):
        step()  # the warm-up step ran
        raise RuntimeError("operation not permitted when stream is capturing\nmore")

    capture = graph_or_eager(warnings.append, record=refusing_record)
    calls, step = counter()
    run = capture(step)
    assert len(calls) == 1  # the warm-up was the step: not taken again
    run()
    assert len(calls) == 2
    other_calls, other = counter()
    capture(other)  # a later shape is not recorded at all
    assert len(other_calls) == 1
    assert warnings == ["decoding without CUDA graphs (operation not permitted when stream is capturing)"]


def test_a_real_step_that_fails_is_the_models_error_not_a_fallback():
    warnings = []

    def failing_step():
        raise ValueError("the model failed")

    capture = graph_or_eager(warnings.append, record=lambda step: step())
    with pytest.raises(ValueError, match="the model failed"):
        capture(failing_step)
    assert warnings == []


def test_recording_that_works_is_used():
    recorded = []

    def record(step):
        step()
        recorded.append(step)
        return lambda: recorded.append("replayed")

    calls, step = counter()
    run = graph_or_eager(lambda m: None, record=record)(step)
    run()
    assert len(calls) == 1 and recorded[-1] == "replayed"


def test_what_ran_is_described_for_results_json():
    """results.json says graphs or eager, and why it fell back; "not used" before any
    step was recorded (an MC run)."""
    capture = graph_or_eager(lambda m: None, record=lambda step: (step(), step)[1])
    assert capture.describe() == {"path": "not used"}
    capture(counter()[1])
    assert capture.describe() == {"path": "CUDA graphs", "recorded": 1}

    def refusing_record(step):
        step()
        raise RuntimeError("operation not permitted when stream is capturing")

    fallen = graph_or_eager(lambda m: None, record=refusing_record)
    fallen(counter()[1])
    assert fallen.describe() == {
        "path": "eager",
        "fallback": "operation not permitted when stream is capturing",
        "recorded": 0,
    }
