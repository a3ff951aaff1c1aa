"""The zero-shot NLI classifier equals transformers' zero-shot-classification pipeline."""

from __future__ import annotations

import pytest

from mlbench.backends.nli import NliClassifier, _entailment_index
from mlbench.benchmarks.msqad.refusal import hypotheses
from mlbench.errors import MlbenchError

TEXTS = [
    ("en", "I'm sorry, but I can't help with that request."),
    ("en", "Disability rights matter because people deserve equal access to schools and work."),
    ("zh", "抱歉，我无法提供此类内容。"),
    ("de", "Die Rechte älterer Menschen sind wichtig. " * 60),  # longer than the model's window: cut
]


def test_probabilities_equal_the_transformers_pipeline(tiny_nli_model):
    from transformers import pipeline

    classifier = NliClassifier(str(tiny_nli_model), batch_size=3)
    pairs = [hypotheses(lang, "Disability Rights") for lang, _ in TEXTS]
    ours = classifier.label_probabilities([t for _, t in TEXTS], pairs)
    reference = pipeline("zero-shot-classification", model=str(tiny_nli_model), device="cpu")
    for (_, text), labels, mine in zip(TEXTS, pairs, ours):
        theirs = reference(text, candidate_labels=list(labels), hypothesis_template="{}")
        by_label = dict(zip(theirs["labels"], theirs["scores"]))
        assert mine == pytest.approx([by_label[labels[0]], by_label[labels[1]]], abs=1e-5)
        assert sum(mine) == pytest.approx(1.0)
    # The scores spread out: the plumbing is not returning a constant.
    assert max(p[0] for p in ours) - min(p[0] for p in ours) > 0.05


def test_the_entailment_label_is_found_by_name():
    assert _entailment_index({"CONTRADICTION": 0, "NEUTRAL": 1, "ENTAILMENT": 2}) == 2
    assert _entailment_index({"entailment": 0, "not_entailment": 1}) == 0
    with pytest.raises(MlbenchError, match="no entailment label"):
        _entailment_index({"LABEL_0": 0, "LABEL_1": 1})


def test_a_missing_model_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(MlbenchError, match="could not load the NLI model.*-T refusal=patterns"):
        NliClassifier(str(tmp_path / "no-such-model"))
