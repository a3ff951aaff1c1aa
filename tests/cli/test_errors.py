"""Bad input: one line on stderr, exit code 2, no traceback."""

import json

import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app

runner = CliRunner()


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def run_cli(*args):
    return runner.invoke(app, ["run", *map(str, args)])


def run_model(model, output, *args):
    """``mlbench run`` on ``model``, writing to ``output``, without the request cache."""
    return run_cli("--model", model, "--output", output, "--no-cache", *args)


@pytest.fixture
def base(tiny_model, fixture_datasets, tmp_path):
    return ["--model", tiny_model, "--data-dir", fixture_datasets, "--output", tmp_path / "out", "--no-cache",
            "--limit", "2"]  # fmt: skip


def test_unknown_task(base):
    assert_one_line_error(run_cli(*base, "--task", "nope"), "unknown task 'nope'", "veritasqa")


def test_unknown_language_lists_valid_ones(base):
    assert_one_line_error(
        run_cli(*base, "--task", "veritasqa", "--lang", "eu"), "no language eu", "valid: en, es, ca, gl"
    )


def test_fewshot_on_veritasqa(base):
    assert_one_line_error(run_cli(*base, "--task", "veritasqa", "--fewshot", "6"), "zero-shot")


def test_missing_model_path(fixture_datasets, tmp_path):
    result = run_model(tmp_path / "missing", tmp_path / "out", "--task", "veritasqa", "--data-dir", fixture_datasets)
    assert_one_line_error(result, "model path not found")


def test_not_a_causal_lm(fixture_datasets, tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps({"model_type": "t5"}))
    result = run_model(tmp_path / "m", tmp_path / "out", "--task", "veritasqa", "--data-dir", fixture_datasets)
    assert_one_line_error(result, "not a causal language model")


def test_data_dir_without_the_files(tiny_model, tmp_path):
    result = run_model(tiny_model, tmp_path / "out", "--task", "truthfulqa_multi", "--data-dir", tmp_path)
    assert_one_line_error(result, "data dir has no en questions", "validation.json")


def test_malformed_csv_row(tiny_model, tmp_path):
    (tmp_path / "veritasqa_en.csv").write_text(
        "id,Question,Best Answer,Correct Answers,Incorrect Answers\nveritas_001,Why?,,A,B\n"
    )
    result = run_model(tiny_model, tmp_path / "out", "--task", "veritasqa", "--lang", "en", "--data-dir", tmp_path)
    assert_one_line_error(result, "veritasqa_en.csv:2", "best_answer")


def test_malformed_jsonl_row(tiny_model, tmp_path):
    (tmp_path / "q.jsonl").write_text('{"id": 1}\n')
    result = run_model(tiny_model, tmp_path / "out", "--task", "veritasqa", "--data-file", tmp_path / "q.jsonl")
    assert_one_line_error(result, "q.jsonl:1", "missing field")


def test_language_with_only_primer_rows(tiny_model, tmp_path):
    row = {
        "id": "q",
        "lang": "en",
        "question": "Q?",
        "best_answer": "A.",
        "correct_answers": ["A."],
        "incorrect_answers": ["B."],
        "split": "train",
    }
    (tmp_path / "q.jsonl").write_text(
        json.dumps(row) + "\n" + json.dumps({**row, "lang": "eu", "split": "test"}) + "\n"
    )
    result = run_model(
        tiny_model, tmp_path / "out", "--task", "veritasqa", "--data-file", tmp_path / "q.jsonl", "--lang", "en"
    )
    assert_one_line_error(result, "no language en")


def test_limit_must_be_positive(base):
    result = run_cli(*base, "--task", "veritasqa", "--limit", "0")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_unwritable_output_dir(tiny_model, fixture_datasets, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run_model(
        tiny_model, blocker / "out", "--task", "veritasqa", "--data-dir", fixture_datasets, "--limit", "2"
    )
    assert_one_line_error(result, "cannot write to output dir")


def test_two_data_sources(base):
    assert_one_line_error(run_cli(*base, "--task", "veritasqa", "--sample"), "choose one data source")


def test_a_cold_data_cache_offline_names_the_fetch_command_and_the_url(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_model(tiny_model, tmp_path / "out", "--task", "veritasqa", "--lang", "en")
    assert_one_line_error(
        result,
        "`mlbench data fetch veritasqa`",
        "https://huggingface.co/datasets/projecte-aina/veritasQA",
        "--data-dir",
    )


def test_empty_task_and_language_lists(base):
    assert_one_line_error(run_cli(*base, "--task", ","), "no task given")
    assert_one_line_error(run_cli(*base, "--task", "veritasqa", "--lang", ","), "no language given")


def test_cuda_without_a_gpu(base):
    assert_one_line_error(run_cli(*base, "--task", "veritasqa", "-M", "device=cuda"), "no CUDA GPU")


@pytest.mark.parametrize(
    ("flags", "fragments"),
    [
        (["--backend", "bogus"], ("--backend must be one of", "vllm", "openai")),
        (["--backend", "openai"], ("backend openai needs -M base_url=URL",)),
        (["--backend", "hf", "-M", "base_url=http://127.0.0.1:9/v1"], ("backend hf has no option 'base_url'",)),
        # --backend auto takes every backend's keys, and refuses those its backend does not.
        (
            ["-M", "base_url=http://127.0.0.1:9/v1", "-M", "max_model_len=64"],
            ("-M max_model_len: backend openai does not take it (it takes base_url",),
        ),
        (["--backend", "hf", "-M", "tensor_parallel_size=2"], ("backend hf has no option 'tensor_parallel_size'",)),
        (["--backend", "hf", "-M", "vllm.swap_space=4"], ("backend hf has no option 'vllm.swap_space'",)),
        (["--backend", "vllm", "-M", "swap_space"], ("-M must look like KEY=VALUE",)),
        (
            ["--backend", "openai", "-M", "base_url=http://x/v1", "-M", "data_parallel_size=2"],
            ("backend openai has no option 'data_parallel_size'", "max_concurrency"),
        ),
        (
            ["--backend", "openai", "-M", "base_url=http://x/v1", "-M", "api_key_env=MLBENCH_NO_SUCH_VAR"],
            ("MLBENCH_NO_SUCH_VAR: that environment variable is not set",),
        ),
    ],
)
def test_backend_options_that_do_not_fit(base, flags, fragments):
    assert_one_line_error(run_cli(*base, "--task", "veritasqa", "--lang", "en", *flags), *fragments)


def test_vllm_with_a_missing_model_path(tmp_path):
    result = run_model(tmp_path / "nope", tmp_path / "out", "--sample", "--task", "veritasqa", "--backend", "vllm")
    assert_one_line_error(result, "model path not found")


def test_unreachable_server_fails_the_samples_and_the_run(tiny_model, tmp_path, monkeypatch):
    """Every sample failed: recorded (for --resume), and the run exits 1 saying so."""
    import mlbench.backends.openai as openai_backend

    # Nothing listens on port 9: every request fails after its retries (made instant here).
    monkeypatch.setattr(openai_backend.time, "sleep", lambda seconds: None)
    result = run_model(
        tiny_model, tmp_path / "out", "--sample", "--task", "veritasqa", "--lang", "en", "--limit", "2",
        "--mode", "gen", "--backend", "openai", "-M", "base_url=http://127.0.0.1:9/v1",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "mlbench: error: veritasqa en: 2 of 2 samples failed (first: gen: connection failed" in result.stderr
    samples = [
        json.loads(line) for line in (tmp_path / "out" / tiny_model.name / "veritasqa" / "samples_en.jsonl").open()
    ]
    assert len(samples) == 2
    assert all(s["outputs"]["error"].startswith("gen: connection failed") and not s["metrics"] for s in samples)
    results = json.loads((tmp_path / "out" / tiny_model.name / "veritasqa" / "results.json").read_text())
    assert results["results"]["en"]["failed"] == 2 and "bleu_max" not in results["results"]["en"]
