"""Issue 35 (also seen): a library's FutureWarning was printed even with -q."""

import warnings

import pytest

import mlbench.backends.registry
from tests.cli.test_cli import run_model

RUN = "--task truthfulqa_multi --lang en --sample --mode mc --backend hf --limit 1 --no-cache"


@pytest.fixture
def shown(monkeypatch):
    """Loading the model warns the way transformers does about its own API; what is shown
    is recorded (the filter -q sets is the process's, undone after the test)."""
    real = mlbench.backends.registry._single_backend

    def load(*args):
        warnings.warn_explicit("`foo` is deprecated", FutureWarning, "modeling_utils.py", 1, module="transformers.x")
        warnings.warn_explicit("mlbench's own", FutureWarning, "x.py", 1, module="mlbench.backends.x")
        return real(*args)

    monkeypatch.setattr(mlbench.backends.registry, "_single_backend", load)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        yield seen


def test_quiet_hides_a_library_deprecation(tiny_model, tmp_path, shown):
    assert run_model(tiny_model, tmp_path, f"{RUN} -q").exit_code == 0
    assert [str(w.message) for w in shown] == ["mlbench's own"]


def test_without_quiet_it_is_shown(tiny_model, tmp_path, shown):
    assert run_model(tiny_model, tmp_path, RUN).exit_code == 0
    assert [str(w.message) for w in shown] == ["`foo` is deprecated", "mlbench's own"]
