"""The same run through each backend: hf (reference), in-process vLLM, a real `vllm serve`,
and data-parallel replicas. MC scores must agree to 1e-3, greedy generations exactly."""

import json

import pytest

from tests.cli.test_cli import run_model
from tests.conftest import VLLM_TEST_SETTINGS

SAMPLE_RUN = "--task truthfulqa_multi,veritasqa --lang en,es --limit 4 --sample --no-cache"
VLLM_FLAGS = f"--dtype {VLLM_TEST_SETTINGS['dtype']} -M max_model_len={VLLM_TEST_SETTINGS['max_model_len']}"
MC_METRICS = {"truthfulqa_multi": ("mc1", "mc2"), "veritasqa": ("mc1", "mc2", "mc3", "lprob_max", "lprob_diff")}


def read_run(out, model, task):
    return json.loads((out / model.name / task / "results.json").read_text())


def read_samples(out, model, task, lang):
    path = out / model.name / task / f"samples_{lang}.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}


@pytest.fixture(scope="module")
def hf_run(tiny_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("hf")
    result = run_model(tiny_model, out, f"{SAMPLE_RUN} --backend hf --dtype float32")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def vllm_run(tiny_model, tmp_path_factory, vllm_backend):
    out = tmp_path_factory.mktemp("vllm")
    result = run_model(tiny_model, out, f"{SAMPLE_RUN} --backend vllm {VLLM_FLAGS}")
    assert result.exit_code == 0, result.output
    return out


def assert_same_runs(ours, reference, model, *, compare_generations: bool):
    for task, metrics in MC_METRICS.items():
        a, b = read_run(ours, model, task), read_run(reference, model, task)
        for lang in ("en", "es"):
            assert a["results"][lang]["n-samples"] == b["results"][lang]["n-samples"] == 4
            for metric in metrics:
                assert a["results"][lang][metric]["value"] == pytest.approx(
                    b["results"][lang][metric]["value"], abs=1e-3
                ), (task, lang, metric)
            if compare_generations:
                ours_samples = read_samples(ours, model, task, lang)
                theirs = read_samples(reference, model, task, lang)
                assert {i: r["outputs"]["generation"] for i, r in ours_samples.items()} == {
                    i: r["outputs"]["generation"] for i, r in theirs.items()
                }


def test_vllm_backend_equals_hf(vllm_run, hf_run, tiny_model):
    assert_same_runs(vllm_run, hf_run, tiny_model, compare_generations=True)
    config = read_run(vllm_run, tiny_model, "veritasqa")["config"]
    assert config["backend"] == "vllm" and config["engine"] == {"max_model_len": 2048}
    assert config["option_scoring"]["rescored"] == 0


def test_served_model_equals_in_process_vllm(vllm_server, vllm_run, tiny_model, tmp_path):
    result = run_model(
        tiny_model, tmp_path, f"{SAMPLE_RUN} --backend openai -M max_concurrency=4", "-M", f"base_url={vllm_server}"
    )
    assert result.exit_code == 0, result.output
    assert_same_runs(tmp_path, vllm_run, tiny_model, compare_generations=True)
    config = read_run(tmp_path, tiny_model, "truthfulqa_multi")["config"]
    assert config["backend"] == "openai" and config["requests"]["failed"] == 0


def test_served_model_records_overflowing_samples_as_failed(vllm_server, tiny_model, tmp_path):
    long_question = {
        "id": "long",
        "lang": "en",
        "question": "Why? " * 1200,
        "best_answer": "Because.",
        "correct_answers": ["Because."],
        "incorrect_answers": ["No reason."],
    }
    short = {**long_question, "id": "short", "question": "Why is the sky blue?"}
    data = tmp_path / "questions.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in (long_question, short)))
    result = run_model(
        tiny_model, tmp_path / "out", "--task veritasqa --mode gen --backend openai --no-cache", "-M",
        f"base_url={vllm_server}", "--data-file", data,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    samples = read_samples(tmp_path / "out", tiny_model, "veritasqa", "en")
    assert samples["long"]["outputs"]["error"].startswith("gen: HTTP 400: This model's maximum context length")
    assert samples["long"]["metrics"] == {} and samples["short"]["metrics"]
    block = read_run(tmp_path / "out", tiny_model, "veritasqa")["results"]["en"]
    assert block["n-samples"] == 2 and block["failed"] == 1


def test_data_parallel_replicas_equal_one_process(hf_run, tiny_model, tmp_path):
    result = run_model(tiny_model, tmp_path, f"{SAMPLE_RUN} --backend hf --dtype float32 -M data_parallel_size=2")
    assert result.exit_code == 0, result.output
    assert_same_runs(tmp_path, hf_run, tiny_model, compare_generations=True)
    assert read_run(tmp_path, tiny_model, "veritasqa")["config"]["data_parallel_size"] == 2
