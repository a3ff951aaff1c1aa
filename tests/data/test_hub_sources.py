"""Hub sources: listed by the hub's API, checked by its hashes, read by the loaders from the
cache (the default data source), with a token where the dataset wants one."""

from __future__ import annotations

import json

import datasets
import pytest

from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.benchmarks.veritasqa.loader import load_veritasqa
from mlbench.data.catalog import Source
from mlbench.data.source import DataSource
from mlbench.data.store import fetch
from mlbench.errors import MlbenchError
from tests.data.conftest import COMMIT

VERITAS_CARD = """---
configs:
- config_name: default
  data_files:
  - split: en
    path: data/en-00000-of-00001.parquet
  - split: es
    path: data/es-00000-of-00001.parquet
---
# VeritasQA (test copy)
"""


def _veritas_rows(lang: str) -> dict[str, list[str]]:
    return {
        "id": ["veritas_001", "veritas_002"],
        "category": ["Health", "Law"],
        "question": [f"{lang}: Is it safe to wake a sleepwalker?", f"{lang}: Can you marry a cousin?"],
        "best_answer": ["Yes, it is safe", "It depends on the country"],
        "correct_answers": ["Yes, it is safe; It is not dangerous", "It depends on the country"],
        "incorrect_answers": ["No, it can kill them", "No, never; Yes, everywhere"],
    }


@pytest.fixture
def veritas_hub(homes, add_source, tmp_path):
    files = {"README.md": VERITAS_CARD.encode()}
    for lang in ("en", "es"):
        path = tmp_path / f"{lang}.parquet"
        datasets.Dataset.from_dict(_veritas_rows(lang)).to_parquet(path)
        files[f"data/{lang}-00000-of-00001.parquet"] = path.read_bytes()
    homes.hub[("org/veritas", COMMIT)] = files
    homes.branches[("org/veritas", "main")] = COMMIT
    return add_source(Source("veritasqa", ("veritasqa",), "hub", "org/veritas", "main", "Apache-2.0", rows=4))


def test_the_default_source_reads_the_hub_snapshot_split_by_language(veritas_hub, homes):
    samples = load_veritasqa("es", DataSource("hub"))
    assert [s.id for s in samples] == ["veritas_001", "veritas_002"]
    assert samples[0].question == "es: Is it safe to wake a sleepwalker?"
    assert samples[1].incorrect_answers == ("No, never", "Yes, everywhere")
    fetched = [p.rsplit("/", 1)[-1] for p in homes.requests if p.startswith("/datasets/")]
    assert sorted(fetched) == ["README.md", "en-00000-of-00001.parquet", "es-00000-of-00001.parquet"]
    with pytest.raises(MlbenchError, match=r"org/veritas has no split 'gl'|projecte-aina/veritasQA has no split 'gl'"):
        load_veritasqa("gl", DataSource("hub"))


def test_hub_hashes_are_checked_sha256_for_lfs_files_and_the_blob_id_for_others(veritas_hub, homes):
    homes.faults["data/en-00000-of-00001.parquet"] = "corrupt-once"
    with pytest.raises(MlbenchError, match=r"sha256 .* is not the pinned"):
        fetch(veritas_hub)
    homes.faults["README.md"] = "corrupt-once"
    with pytest.raises(MlbenchError, match=r"README.md: content does not match the hub's blob id"):
        fetch(veritas_hub)
    assert fetch(veritas_hub).commit == COMMIT  # served intact: accepted


def test_a_gated_dataset_says_how_to_get_access(veritas_hub, homes):
    homes.faults["api:org/veritas"] = "403"
    with pytest.raises(MlbenchError, match=r"org/veritas is gated \(HTTP 403\): accept its conditions at "
                       r"https://huggingface.co/datasets/org/veritas, then set HF_TOKEN"):  # fmt: skip
        fetch(veritas_hub)
    homes.faults["api:org/veritas"] = "401"
    with pytest.raises(MlbenchError, match=r"wants a token \(HTTP 401\): set HF_TOKEN"):
        fetch(veritas_hub)


def test_hf_token_is_sent(veritas_hub, homes, monkeypatch):
    seen = []
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    import mlbench.data.http as http_module

    real_open = http_module._open

    def spy(url, headers, timeout):
        seen.append(headers.get("Authorization"))
        return real_open(url, headers, timeout)

    monkeypatch.setattr(http_module, "_open", spy)
    fetch(veritas_hub)
    assert seen and set(seen) == {"Bearer hf_secret"}


def _tqa_rows(lang: str, n: int) -> list[dict]:
    return [
        {
            "id": i + 1,
            "question": f"[{lang}] question {i + 1}?",
            "mc1_targets": {"choices": ["right", "wrong"], "labels": [1, 0]},
            "mc2_targets": {"choices": ["right", "also right", "wrong"], "labels": [1, 1, 0]},
            "best_answer": "right",
            "correct_answers": ["right", "also right"],
            "incorrect_answers": ["wrong"],
            "type": "Adversarial",
            "category": "Misconceptions",
            "annotation": "",
            "lang": lang,
        }
        for i in range(n)
    ]


def test_the_mt_variant_reads_config_language_from_its_hub_snapshot(homes, add_source):
    card = (
        "---\nconfigs:\n"
        + "".join(
            f"- config_name: {lang}\n  data_files:\n  - split: validation\n    path: {lang}/validation.json\n"
            f"  - split: train\n    path: {lang}/train.json\n"
            for lang in ("es", "eu")
        )
        + "---\n"
    )
    files = {"README.md": card.encode()}
    for lang in ("es", "eu"):
        files[f"{lang}/validation.json"] = json.dumps(_tqa_rows(lang, 3)).encode()
        files[f"{lang}/train.json"] = json.dumps(_tqa_rows(lang, 6)).encode()
    homes.hub[("org/tqa-mt", COMMIT)] = files
    add_source(Source("truthfulqa-multi-MT", ("truthfulqa_multi_mt",), "hub", "org/tqa-mt", COMMIT, "Apache-2.0"))
    split = load_truthfulqa_multi("eu", DataSource("hub"), variant="mt")
    assert [s.question for s in split.samples] == ["[eu] question 1?", "[eu] question 2?", "[eu] question 3?"]
    assert len(split.primer) == 6 and split.samples[0].mc2_labels == (1, 1, 0)


def test_the_human_variant_reads_the_github_release_layout(homes, add_source):
    from tests.data.conftest import github_source

    files = {}
    for lang in ("en", "gl"):
        files[f"data/{lang}/validation.json"] = json.dumps(_tqa_rows(lang, 4)).encode()
        files[f"data/{lang}/train.json"] = json.dumps(_tqa_rows(lang, 6)).encode()
    homes.github[("owner/truthfulqa-multi", COMMIT)] = files
    add_source(github_source("truthfulqa-multi", files))
    split = load_truthfulqa_multi("gl", DataSource("hub"))
    assert len(split.samples) == 4 and split.samples[0].question == "[gl] question 1?"
