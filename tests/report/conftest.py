"""The report tests' shared runs."""

from pathlib import Path

import pytest

from .synthetic_runs import planted_values, write_run


@pytest.fixture
def two_models(tmp_path: Path) -> Path:
    """Two models × five languages of truthfulqa_multi: ``gap-model`` is much worse in
    Basque, ``flat-model`` equally good everywhere."""
    root = tmp_path / "results"
    write_run(root, "org/gap-model", "truthfulqa_multi", planted_values(1, gap_lang="eu"))
    write_run(root, "org/flat-model", "truthfulqa_multi", planted_values(2, gap_lang=None))
    return root
