import pytest

from mlbench.errors import MlbenchError
from mlbench.loaders.source import DataSource
from mlbench.pipeline import aggregate, resolve_languages
from mlbench.tasks import get_task
from mlbench.tasks.base import TaskOptions


def test_aggregate_means_intervals_and_empty_generations():
    records = [
        {"metrics": {"bleu_acc": 1.0}, "outputs": {"empty": False}},
        {"metrics": {"bleu_acc": 0.0}, "outputs": {"empty": True}},
        {"metrics": {"bleu_acc": 1.0}, "outputs": {"empty": False}},
        {"metrics": {"bleu_acc": 1.0}, "outputs": {}},
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
