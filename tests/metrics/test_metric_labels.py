"""One spelling per metric: its descriptor's name is the identifier, and every table heads
it with the descriptor's label (the run summary, a run's surface table, the report)."""

from __future__ import annotations

from pathlib import Path

import mlbench
import mlbench.benchmarks  # noqa: F401  (the registry fills the catalog)
from mlbench.cli.console import _header
from mlbench.metrics.catalog import describe
from mlbench.metrics.descriptor import Metric, share
from mlbench.metrics.surface import SURFACE_DESCRIPTORS
from mlbench.results.tables import SURFACE_COLUMNS


def test_a_label_is_saved_and_read_back_with_its_descriptor():
    metric = share("truthful_informative", "both", binary=True, label="truthful & informative")
    assert metric.to_json()["label"] == "truthful & informative"
    assert Metric.from_json(metric.name, metric.to_json()) == metric
    plain = share("mc1", "best first", binary=True)
    assert "label" not in plain.to_json() and plain.heading == "mc1"


def test_every_table_heads_a_metric_with_its_descriptors_label():
    assert describe("truthful_informative").heading == "truthful & informative"
    assert _header("truthful_informative") == "truthful & informative"
    assert _header("correctness_contradictory") == "contradicts"
    assert _header("refusal@adversarial") == "refusal@adversarial"  # no label: its name
    assert SURFACE_COLUMNS == {m.name: m.heading for m in SURFACE_DESCRIPTORS}
    assert SURFACE_COLUMNS["surface_issue"] == "any issue"


def test_no_ad_hoc_spelling_is_left_in_the_code():
    package = Path(mlbench.__file__).parent
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "truth+info" not in text and "SHORT_HEADERS" not in text, path
