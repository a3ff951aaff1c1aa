"""XLingHealth's requests and scores, with scripted results."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions as Own
from mlbench.data.source import DataSource
from mlbench.engine.checks import texts_to_write
from mlbench.errors import MlbenchError
from mlbench.judges.judge import NO_SPELLINGS, YES_SPELLINGS
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

TASK = get_task("xlinghealth")


@pytest.fixture(scope="module")
def options(fixture_datasets):
    """mlbench's own prompts (the authors', read from their code, are tested in test_authors_prompts.py)."""
    own = Own(samples=4, temperatures=(0.0, 0.5, 1.0), prompts="mlbench")
    return TaskOptions(DataSource("local", fixture_datasets), own=own)


@pytest.fixture(scope="module")
def zh(options):
    return TASK.load("zh", options)


def test_correctness_asks_in_the_question_language_greedily(zh, options):
    sample = zh.samples[0]
    [request] = TASK.requests("correctness", sample, zh, options)
    assert request.temperature == 0 and request.n == 1 and request.stop == ()
    assert request.prompt.text.startswith("你是一名医学专家") and sample.question in request.prompt.text
    chat = TASK.requests("correctness", sample, zh, replace(options, chat_template=True))[0].prompt
    assert [m.role for m in chat.messages] == ["system", "user"] and chat.messages[1].content == sample.question


def test_consistency_is_one_request_with_n_answers_per_temperature(zh, options):
    requests = TASK.requests("consistency", zh.samples[0], zh, options)
    assert [(r.temperature, r.n) for r in requests] == [(0.0, 4), (0.5, 4), (1.0, 4)]
    assert texts_to_write(TASK, ("consistency",), zh.samples[:10], zh, options) == 10 * 3 * 4
    assert texts_to_write(TASK, ("correctness", "verifiability"), zh.samples[:10], zh, options) == 10


def test_consistency_scores_every_temperature(zh, options):
    results = [
        Generation("多喝水", 3, "stop", alternatives=("多喝水",) * 3),
        Generation("多喝水", 3, "stop", alternatives=("多喝茶", "多喝水", "休息")),
        Generation("", 0, "stop", alternatives=("", "", "")),
    ]
    outputs, metrics = TASK.score("consistency", zh.samples[0], results, options)
    assert outputs["consistency"]["0.5"] == ["多喝水", "多喝茶", "多喝水", "休息"]
    assert metrics["sim_1gram@0"] == 1.0 and metrics["length@0"] == 3.0
    # Pairs of {多,喝,水},{多,喝,茶},{多,喝,水},{休,息}: 0.5, 1, 0, 0.5, 0, 0 -> 2/6.
    assert metrics["sim_1gram@0.5"] == pytest.approx(2 / 6)
    assert metrics["length@0.5"] == pytest.approx((3 + 3 + 3 + 2) / 4)
    assert metrics["sim_1gram@1"] == 1.0  # empty answers agree with each other


def test_verifiability_reads_p_yes_from_log_probs(zh, options):
    sample = zh.samples[0]
    requests = TASK.requests("verifiability", sample, zh, options)
    spellings = (*YES_SPELLINGS, *NO_SPELLINGS)
    assert len(requests) == 5 * len(spellings) and all(isinstance(r, LoglikelihoodRequest) for r in requests)
    assert [r.continuation for r in requests[: len(spellings)]] == list(spellings)
    first = requests[0].prompt.text
    assert first.endswith("答：") and f"```{sample.question}```" in first and "Yes 或 No" in first
    # Candidate i: every yes spelling log 0.1·i, every no spelling log 0.1 -> P(yes) = 1/(1+e^(0.1-0.1i)).
    results = [
        LoglikelihoodResult(math.log(0.1 * (i + 1)) if j < 4 else math.log(0.1), 1)
        for i in range(5)
        for j in range(len(spellings))
    ]
    outputs, metrics = TASK.score("verifiability", sample, results, options)
    block = outputs["verifiability"]
    assert block["scoring"] == "logprob" and block["temperatures"] == [0.0, 0.5, 1.0] and metrics == {}
    for i, candidate in enumerate(block["candidates"]):
        assert candidate["p_yes"] == pytest.approx((i + 1) / (i + 2))
        assert candidate["log_odds"] == pytest.approx(math.log(i + 1))
        assert candidate["label"] == sample.meta["candidates"][i]["label"]


def test_verifiability_can_parse_generated_words(zh, options):
    generate = replace(options, own=replace(options.own, verify_scoring="generate"))
    sample = zh.samples[0]
    requests = TASK.requests("verifiability", sample, zh, generate)
    assert [r.temperature for r in requests[:3]] == [0.0, 0.5, 1.0] and len(requests) == 15
    assert all(isinstance(r, GenerationRequest) and r.max_new_tokens <= 8 for r in requests)
    words = ["Yes", "No.", "maybe"] * 5
    outputs, _ = TASK.score("verifiability", sample, [Generation(w, 1, "stop") for w in words], generate)
    assert outputs["verifiability"]["candidates"][0]["words"] == {"0": "yes", "0.5": "no", "1": "unparsed"}
    assert TASK.without_logprobs(options).own.verify_scoring == "generate"
    assert TASK.without_logprobs(replace(options, own=replace(options.own, verify_scoring="logprob"))) is None


def test_bad_options_are_refused(fixture_datasets, tmp_path):
    local = DataSource("local", fixture_datasets)
    with pytest.raises(MlbenchError, match="reads the XLingEval release"):
        TASK.validate(TaskOptions(DataSource("sample")))
    with pytest.raises(MlbenchError, match="datasets 'pubmedqa' is not one of healthqa, liveqa, medicationqa"):
        TASK.validate(TaskOptions(local, own=Own(datasets=("pubmedqa",))))
    # The fixture data dir has LiveQA and MedicationQA only.
    with pytest.raises(MlbenchError, match="dataset healthqa: no file found .*HealthQA.xlsx"):
        TASK.validate(TaskOptions(local, own=Own(datasets=("healthqa",))))
    with pytest.raises(MlbenchError, match="temperatures must be one or more numbers"):
        TASK.validate(TaskOptions(local, own=Own(temperatures=(-1.0,))))
    with pytest.raises(MlbenchError, match="zero-shot"):
        TASK.validate(TaskOptions(local, fewshot=2))


def test_a_users_healthqa_file_is_read_like_the_release(fixture_datasets, tmp_path):
    healthqa = tmp_path / "HealthQA.csv"
    healthqa.write_bytes(dataset_path_bytes(fixture_datasets))
    own = Own(datasets=("healthqa",), healthqa_file=healthqa, prompts="mlbench")
    options = TaskOptions(DataSource("hub"), own=own)
    TASK.validate(options)
    data = TASK.load("hi", options)
    assert len(data.samples) == 6 and data.samples[0].id == "healthqa:0"  # the fixture LiveQA


def dataset_path_bytes(fixture_datasets):
    return (fixture_datasets / "xlinghealth" / "LiveQA.csv").read_bytes()
