"""The TruthfulQA-Multi authors' universal/local map as their repository holds it
(hitz-zentroa/truthfulqa-multi @ 11fe747, ``analysis/cultural_nuances/veritasqa.csv``,
found at ``DIR/upstream/truthfulqa-multi/...``): it passes its pin and names 288 distinct
TruthfulQA rows and VeritasQA ids."""

from __future__ import annotations

from mlbench.benchmarks.scope_map import scope_map
from mlbench.data.source import DataSource


def test_the_real_map_names_288_universal_rows(upstream_code):
    found = scope_map(DataSource("local", upstream_code))
    assert found is not None
    assert len(found.veritas_rows) == len(found.universal_rows) == 288
    assert found.veritas_rows["veritas_066"] == "0"  # tru_01: TruthfulQA's first question
    assert sorted(found.veritas_rows)[0] == "veritas_066"  # VeritasQA's 001-065 are its own
    assert all(0 <= int(row) < 817 for row in found.universal_rows)
