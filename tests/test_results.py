import json

import pytest

from mlbench.errors import MlbenchError
from mlbench.results import append_samples, model_slug, read_samples
from mlbench.schema import SampleResult


def record(i: int) -> SampleResult:
    return SampleResult(str(i), "en", "Q: x\nA:", {"mc1_loglikelihoods": [-1.0]}, {"mc1": 1.0}, "h")


def test_append_then_read(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1), record(2)])
    append_samples(path, [record(3)])
    assert list(read_samples(path, "h")) == ["1", "2", "3"]


def test_torn_last_line_is_cut(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1)])
    with path.open("a") as handle:
        handle.write(json.dumps(record(2).to_json())[:20])
    assert list(read_samples(path, "h")) == ["1"]
    assert path.read_text().endswith("}\n")


def test_corrupt_middle_line_is_an_error(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    path.write_text('{"id": "1", "config_hash": "h"}\nnot json\n{"id": "2", "config_hash": "h"}\n')
    with pytest.raises(MlbenchError, match="samples_en.jsonl:2"):
        read_samples(path, "h")


def test_other_settings_are_refused(tmp_path):
    path = tmp_path / "samples_en.jsonl"
    append_samples(path, [record(1)])
    with pytest.raises(MlbenchError, match="different settings"):
        read_samples(path, "other")


def test_model_slug(tmp_path):
    assert model_slug("HiTZ/Latxa-Llama-3.1-8B") == "HiTZ__Latxa-Llama-3.1-8B"
    assert model_slug(str(tmp_path / "tiny")) == "tiny"
