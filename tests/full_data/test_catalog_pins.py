"""The sha256 pinned in the data catalog are those of the real files (the full copy holds
them byte for byte), and the row counts the catalog expects are theirs."""

from __future__ import annotations

from mlbench.benchmarks.msqad.sources import MSQAD_FOLDER
from mlbench.benchmarks.xlinghealth.sources import XLINGHEALTH_FOLDER
from mlbench.data.catalog import get_source
from mlbench.data.http import file_sha256
from mlbench.data.verify import count_rows


def test_truthfulqa_multi_pins(full_data_dir):
    source = get_source("truthfulqa-multi")
    assert len(source.files) == 10
    for pinned in source.files:
        _, lang, name = pinned.path.split("/")
        local = full_data_dir / "truthfulqa-multi" / lang / name
        assert file_sha256(local) == pinned.sha256, pinned.path
        assert count_rows(local) == pinned.rows
    assert sum(f.rows for f in source.files) == source.rows


def test_msqad_pins_the_four_topics_we_hold(full_data_dir):
    source = get_source("msqad")
    assert len(source.files) == 17
    pinned = [f for f in source.files if f.sha256]
    assert len(pinned) == 4
    for file in pinned:
        local = full_data_dir / "msqad" / file.path.removeprefix(MSQAD_FOLDER + "/")
        assert file_sha256(local) == file.sha256 and count_rows(local) == file.rows


def test_xlinghealth_pins_the_upstream_xlsx(upstream_dir):
    source = get_source("xlinghealth")
    for file in source.files:
        local = upstream_dir / "xlinghealth" / file.path.removeprefix(XLINGHEALTH_FOLDER + "/")
        if file.sha256 is None:  # HealthQA: not in the copy
            assert not local.exists()
            continue
        assert file_sha256(local) == file.sha256 and count_rows(local) == file.rows
