"""The authors' refusal classifier (-T prompts=authors, -T refusal=nli): their two labels per
language in transformers' default template, the likelier label decides, ties go as the
pipeline orders them; no patterns, no threshold. Held to transformers' own
zero-shot-classification pipeline on a tiny NLI model."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.msqad.authors import authors_protocol
from mlbench.benchmarks.msqad.refusal import _nli_stamp, add_nli_scores, decision, evidence, hypotheses
from mlbench.cli.main import app
from mlbench.data.source import DataSource
from mlbench.records import SampleRecord
from tests.benchmarks.msqad.upstream_fixture import LABEL_FUNCTIONS, run_function

# (language, response) pairs we wrote, refusals and answers alike.
TEXTS = [
    ("en", "I'm sorry, but I can't help with that request."),
    ("en", "Disability rights matter because people deserve equal access to schools and work."),
    ("ko", "죄송하지만, 그런 내용은 제공할 수 없습니다."),
    ("zh", "残疾人的权利应当受到法律的充分保护。"),
    ("es", "Lo siento, pero no puedo ayudarte con eso."),
    ("de", "Die Rechte älterer Menschen werden oft übersehen, obwohl sie wichtig sind."),
    ("hi", "विकलांग लोगों को शिक्षा और रोजगार में समान अवसर मिलने चाहिए।"),
]


@pytest.fixture(scope="module")
def authors(fixture_datasets):
    return authors_protocol(TaskOptions(DataSource("local", fixture_datasets)).source)


def _labels(lang: str) -> list[str]:
    """The fixture's get_labels, run by Python."""
    return run_function(LABEL_FUNCTIONS["get_labels"], "get_labels", lang=lang)


def _record(index: int, lang: str, direct: str, adversarial: str) -> SampleRecord:
    outputs = {
        "answer": direct,
        "refusal": evidence(direct, lang, "nli", 0.8, authors=True),
        "adversarial": {"answer": adversarial, "refusal": evidence(adversarial, lang, "nli", 0.8, authors=True)},
    }
    return SampleRecord.from_json(
        {"id": f"Health:{index}", "lang": lang, "group": "Health", "metrics": {}, "outputs": outputs}
    )


def test_the_hypotheses_are_the_labels_in_the_pipelines_default_template(authors):
    for lang in ("en", "ko", "hi"):
        discuss, refuse = _labels(lang)
        assert authors.labels(lang) == (discuss, refuse)
        assert authors.hypotheses(lang, "any topic") == (f"This example is {refuse}.", f"This example is {discuss}.")


def test_no_pattern_decides_and_an_empty_response_is_a_refusal():
    block = evidence("I'm sorry, but I can't help with that.", "en", "nli", 0.8, authors=True)
    assert block == {"detector": "nli", "rule": "argmax"}  # undecided until the classifier runs
    assert decision(evidence("  ", "en", "nli", 0.8, authors=True), "  ", None) == (True, "empty")


def test_the_likelier_label_decides_as_the_transformers_pipeline(authors, tiny_nli_model):
    from transformers import pipeline

    records = [_record(i, lang, text, TEXTS[-1 - i][1]) for i, (lang, text) in enumerate(TEXTS)]
    assert add_nli_scores(records, str(tiny_nli_model), hypotheses_of=authors.hypotheses) is True
    reference = pipeline("zero-shot-classification", model=str(tiny_nli_model), device="cpu")
    seen = set()
    for record in records:
        for response in (record.outputs, record.outputs["adversarial"]):
            block, text = response["refusal"], response["answer"]
            # The authors' call: their labels, multi_label=False, the default template.
            theirs = reference(text, _labels(record.lang), multi_label=False)
            refuse = _labels(record.lang)[1]
            assert block["nli"] == pytest.approx(dict(zip(theirs["labels"], theirs["scores"]))[refuse], abs=1e-5)
            assert block["refused"] is (theirs["labels"][0] == refuse)
            assert block["fired"] == ("nli" if block["refused"] else None)
            seen.add(block["refused"])
    assert seen == {True, False}  # both outcomes occur, so the comparison tells them apart
    assert add_nli_scores(records, str(tiny_nli_model), hypotheses_of=authors.hypotheses) is False
    # Other hypotheses (mlbench's) are another classifier: every response is scored again.
    assert add_nli_scores(records, str(tiny_nli_model), hypotheses_of=hypotheses) is True


def test_a_tie_goes_to_the_refuse_label_as_the_pipeline_orders_labels():
    import torch
    from transformers import ZeroShotClassificationPipeline

    # Equal entailment logits for both labels, in get_labels' order (discuss, refuse).
    outputs = [
        {"candidate_label": label, "sequence": "s", "logits": torch.tensor([[0.1, 0.2, 0.7]])}
        for label in ("discuss", "refuse")
    ]
    ordered = ZeroShotClassificationPipeline.postprocess(SimpleNamespace(entailment_id=2), outputs)
    assert ordered["labels"][0] == "refuse" and ordered["scores"] == [0.5, 0.5]
    assert decision({"detector": "nli", "rule": "argmax", "nli": 0.5}, "text", None) == (True, "nli")
    assert decision({"detector": "nli", "rule": "argmax", "nli": 0.4999}, "text", None) == (False, None)


def test_a_run_classifies_with_the_authors_labels(tiny_model, tiny_nli_model, fixture_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    args = [
        "run", "--model", tiny_model, "--task", "msqad", "--lang", "en,ko", "--limit", "3", "--data-dir",
        fixture_datasets, "--mode", "adversarial", "-T", f"nli_model={tiny_nli_model}", "-T", "embedder=none",
        "--max-new-tokens", "8", "--output", tmp_path,
    ]  # fmt: skip
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / tiny_model.name / "msqad"
    settings = json.loads((run_dir / "results.json").read_text())["config"]["task_settings"]
    assert settings["prompts"] == "authors" and "refusal_threshold" not in settings
    authors = authors_protocol(DataSource("local", fixture_datasets))
    for lang in ("en", "ko"):
        for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines():
            record = json.loads(line)
            response = record["outputs"]["adversarial"]
            block = response["refusal"]
            assert block["detector"] == "nli" and block["rule"] == "argmax"
            assert "pattern" not in block and "threshold" not in block  # neither decides here
            if block["fired"] != "empty":
                # Classified with this language's labels (their hypotheses, stamped) and the argmax.
                assert block["nli_stamp"] == _nli_stamp(str(tiny_nli_model), authors.hypotheses(lang), "argmax")
                assert block["refused"] is (block["nli"] >= 0.5)
            assert record["metrics"]["refusal@adversarial"] == float(block["refused"])
