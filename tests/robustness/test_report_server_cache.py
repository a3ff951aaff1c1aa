"""Issue 20: damaged inputs and misbehaving servers end in one line (or a note, or a
per-sample error), never a traceback; usage errors look like every other error."""

from __future__ import annotations

import errno
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mlbench.backends.base import Backend
from mlbench.backends.cache import CachedBackend
from mlbench.backends.openai import OpenAIBackend
from mlbench.backends.options import OpenAIOptions
from mlbench.backends.registry import create_backend, model_spec
from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from mlbench.records import (
    Generation,
    GenerationRequest,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Prompt,
    RunResult,
    SampleRecord,
)
from mlbench.results import merge_run, model_slug, write_language
from mlbench.results.aggregation import aggregate
from tests.report.synthetic_runs import without_per_question_in_results_json

runner = CliRunner()


def mlbench(*args: str) -> subprocess.CompletedProcess[str]:
    """The console script's path (main()), where click's usage errors used to be boxed."""
    return subprocess.run(
        [sys.executable, "-m", "mlbench", *args], capture_output=True, text=True, timeout=120, check=False
    )


def one_line(stderr: str, *fragments: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("mlbench: error: "), stderr
    assert "Traceback" not in stderr and "╭" not in stderr
    for fragment in fragments:
        assert fragment in lines[0], stderr


# -- usage errors (issue 10) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--limit", "-1"], "--limit"),
        (["--limit", "0"], "--limit"),
        (["--seed", "abc"], "--seed"),
        (["--backend", "openai", "-M", "base_url=http://x/v1", "-M", "request_timeout=0"], "request_timeout"),
        (["--request-timeout", "1"], "--request-timeout is now -M request_timeout"),
        (["--no-such-option"], "--no-such-option"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(args: list[str], fragment: str) -> None:
    result = mlbench("run", "--model", "m", "--task", "veritasqa", *args)
    assert result.returncode == 2, result.stderr
    one_line(result.stderr, fragment)
    assert result.stdout == ""


def test_help_version_and_bare_command_still_work() -> None:
    bare = mlbench()
    assert bare.returncode == 2 and "Usage:" in bare.stdout and "Commands" in bare.stdout and "run" in bare.stdout
    helped = mlbench("run", "--help")
    assert helped.returncode == 0 and "--model-option" in helped.stdout
    version = mlbench("--version")
    assert version.returncode == 0 and version.stdout.startswith("mlbench ")


# -- report inputs (issues 4 and 8) ------------------------------------------------------


def write_run(root: Path, values: dict[str, dict[str, float]], *, samples: bool = True) -> Path:
    """One run of model m on task t written as a real run writes it; ``values``:
    language → question id → mc1."""
    run_dir = root / model_slug("m") / "t"
    run_dir.mkdir(parents=True, exist_ok=True)
    for lang, column in values.items():
        records = [SampleRecord(q, lang, metrics={"mc1": v}, config_hash="h") for q, v in sorted(column.items())]
        write_language(run_dir, aggregate(lang, records, ["mc1"], 0), {"seed": 0, "timings_s": {lang: 0.5}}, "h", None)
        if samples:
            text = "".join(json.dumps(r.to_json()) + "\n" for r in records)
            (run_dir / f"samples_{lang}.jsonl").write_text(text)
    merge_run(run_dir, RunResult("m", "t", {"seed": 0}, {}), "h", ["mc1"], tuple(values))
    return run_dir


def test_report_notes_a_language_whose_per_question_values_miss_samples(tmp_path: Path) -> None:
    questions = [f"q{i:02d}" for i in range(60)]
    run_dir = write_run(
        tmp_path,
        {
            "en": {q: float(i % 2) for i, q in enumerate(questions)},
            "eu": {q: float(i % 3 == 0) for i, q in enumerate(questions)},
        },
    )
    # A run written before results.json held the per-question values, results_eu.json gone,
    # samples_eu.jsonl cut to 52 lines: 52 values beside a mean of 60.
    without_per_question_in_results_json(run_dir)
    (run_dir / "results_eu.json").unlink()
    lines = (run_dir / "samples_eu.jsonl").read_text().splitlines()
    (run_dir / "samples_eu.jsonl").write_text("\n".join(lines[:52]) + "\n")
    result = runner.invoke(app, ["report", str(tmp_path), "--ref-lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    notes = [line for line in result.stderr.splitlines() if "n=60" in line]
    assert len(notes) == 1, result.stderr
    assert "52 questions" in notes[0] and "eu" in notes[0] and str(run_dir) in notes[0]


def test_collect_leaves_the_mismatched_language_without_gaps(tmp_path: Path) -> None:
    from mlbench.report.collect import collect

    questions = [f"q{i:02d}" for i in range(10)]
    run_dir = write_run(tmp_path, {"en": dict.fromkeys(questions, 1.0), "eu": dict.fromkeys(questions, 0.0)})
    without_per_question_in_results_json(run_dir)
    (run_dir / "results_eu.json").unlink()
    lines = (run_dir / "samples_eu.jsonl").read_text().splitlines()
    (run_dir / "samples_eu.jsonl").write_text("\n".join(lines[:7]) + "\n")
    collection = collect(tmp_path)
    [entry] = collection.runs
    assert entry.languages["eu"].values.ids == [] and entry.languages["eu"].result.n == 10
    assert len(entry.languages["en"].values.ids) == 10


@pytest.mark.parametrize(
    "content",
    [
        "[1, 2, 3]",
        '{"model": "m", "task": "t", "results": "nope"}',
        '{"model": "m", "task": "t", "results": {"en": {"n-samples": "many"}}}',
        '{"model": ["m"], "task": "t", "results": {}}',
        '"just a string"',
    ],
)
def test_report_on_a_results_json_of_the_wrong_shape(tmp_path: Path, content: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "results.json").write_text(content)
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2, result.output
    one_line(result.stderr, "results.json", "not an mlbench results file")


def test_report_on_a_folder_named_results_json(tmp_path: Path) -> None:
    (tmp_path / "run" / "results.json").mkdir(parents=True)
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2, result.output
    one_line(result.stderr, "is a folder")


# -- the OpenAI-compatible server (issues 8 and 10) --------------------------------------


class Server:
    """A local server that answers every POST with ``answer()`` after ``delay_s``."""

    def __init__(self, answer: Callable[[], Any], delay_s: float = 0.0) -> None:
        self.calls = 0
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                self.rfile.read(int(self.headers["Content-Length"]))
                outer.calls += 1
                outer.release.wait(delay_s)
                payload = json.dumps(answer()).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(answer: Callable[[], Any], delay_s: float = 0.0) -> Server:
        servers.append(Server(answer, delay_s))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ({"choices": "nope"}, "choices is 'nope'"),
        ({"choices": [{"message": "hi"}]}, "message is 'hi'"),
        ({"choices": [{"text": 7}]}, "text is 7"),
        ({"choices": [1, 2]}, "not a list of objects"),
        ([1, 2], "not an object"),
    ],
)
def test_server_json_of_the_wrong_shape_fails_the_sample(
    serve: Callable[..., Server], answer: Any, fragment: str
) -> None:
    server = serve(lambda: answer)
    backend = OpenAIBackend("served", base_url=server.url, backoff_s=0.01)
    chat = Prompt(messages=None, text="Q: x?\nA:")
    [generation] = backend.generate([GenerationRequest(chat, max_new_tokens=5)])
    assert generation.finish_reason == "error" and generation.text == ""
    assert fragment in (generation.error or "")
    assert backend.stats["failed"] == 1


def test_a_hanging_server_times_out_after_request_timeout_and_says_so(serve: Callable[..., Server]) -> None:
    server = serve(lambda: {"choices": [{"text": "late"}]}, delay_s=30)
    warnings: list[str] = []
    backend = OpenAIBackend(
        "served", base_url=server.url, timeout_s=1.0, max_retries=1, backoff_s=0.01, warn=warnings.append
    )
    started = time.perf_counter()
    [generation] = backend.generate([GenerationRequest(Prompt(text="Q"), max_new_tokens=5)])
    elapsed = time.perf_counter() - started
    assert generation.finish_reason == "error" and "timed out" in (generation.error or "")
    assert elapsed < 10, elapsed  # 2 attempts of 1 s, not 300 s each
    assert server.calls == 2
    assert (
        len(warnings) == 1
        and "timed out after 1 s (-M request_timeout)" in warnings[0]
        and "retry 1 of 1" in warnings[0]
    )


def test_retry_warnings_go_to_stderr_by_default(
    serve: Callable[..., Server], capsys: pytest.CaptureFixture[str]
) -> None:
    server = serve(lambda: {"choices": [{"text": "late"}]}, delay_s=30)
    backend = OpenAIBackend("served", base_url=server.url, timeout_s=0.5, max_retries=2, backoff_s=0.01)
    backend.generate([GenerationRequest(Prompt(text="Q"), max_new_tokens=5)])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("mlbench: warning:")]
    assert len(lines) == 2 and "retry 2 of 2" in lines[1]


def test_request_timeout_reaches_the_backend() -> None:
    options = model_spec("served", "openai", base_url="http://127.0.0.1:9/v1", request_timeout=1.5)
    backend = create_backend(options, None)
    assert backend.timeout_s == 1.5  # type: ignore[attr-defined]
    assert backend._client.timeout.read == 1.5  # type: ignore[attr-defined]


def test_request_timeout_default_is_not_five_minutes() -> None:
    assert OpenAIOptions().request_timeout == 120.0


def test_request_timeout_is_an_option_of_the_served_backend() -> None:
    result = runner.invoke(app, ["backends", "openai"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "request_timeout" in result.output
    for command in ("run", "judge"):
        result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        assert "-M" in result.output or "-J" in result.output, command


# -- the request cache (issue 8) ---------------------------------------------------------


class Counting(Backend):
    name = "fake"
    fingerprint = "fake-1"

    def __init__(self) -> None:
        self.seen = 0

    def loglikelihood(self, requests: list[LoglikelihoodRequest], progress: Any = None) -> list[LoglikelihoodResult]:
        self.seen += len(requests)
        return [LoglikelihoodResult(-1.0, 1) for _ in requests]

    def generate(self, requests: list[GenerationRequest], progress: Any = None) -> list[Generation]:
        self.seen += len(requests)
        return [Generation("a", 1, "stop") for _ in requests]


def requests(n: int) -> list[LoglikelihoodRequest]:
    return [LoglikelihoodRequest(Prompt(text=f"question {i} " * 50), " yes") for i in range(n)]


def test_a_garbage_cache_is_moved_aside_and_a_fresh_one_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "requests.sqlite"
    path.write_bytes(b"not sqlite at all " * 200)
    inner = Counting()
    cached = CachedBackend(inner, path)
    assert len(cached.loglikelihood(requests(3))) == 3 and inner.seen == 3
    cached.close()
    [aside] = list(tmp_path.glob("requests.sqlite.corrupt-*"))
    assert aside.read_bytes().startswith(b"not sqlite")
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(warnings) == 1 and warnings[0].startswith("mlbench: warning:") and aside.name in warnings[0]
    again = Counting()
    assert len(CachedBackend(again, path).loglikelihood(requests(3))) == 3 and again.seen == 0  # the new cache works


def test_a_truncated_cache_is_moved_aside_and_a_fresh_one_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "requests.sqlite"
    first = CachedBackend(Counting(), path)
    first.loglikelihood(requests(300))
    first.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # "database disk image is malformed"
    inner = Counting()
    cached = CachedBackend(inner, path)
    assert len(cached.loglikelihood(requests(300))) == 300 and inner.seen == 300
    assert list(tmp_path.glob("requests.sqlite.corrupt-*"))
    err = capsys.readouterr().err
    assert err.count("mlbench: warning:") == 1 and "malformed" in err and "Traceback" not in err


# -- a full disk while writing results (issue 8) -----------------------------------------


def test_a_full_disk_while_writing_results_leaves_no_tmp_and_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mlbench import results as run_files

    run_dir = write_run(tmp_path, {"en": {"q1": 1.0, "q2": 0.0}})
    before = (run_dir / "results.json").read_text()
    real_write_text = Path.write_text

    def full_disk(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        if self.name.endswith(".tmp"):
            real_write_text(self, text[: len(text) // 2], *args, **kwargs)  # part of it reached the disk
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write_text(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(MlbenchError, match="No space left on device") as raised:
        merge_run(run_dir, RunResult("m", "t", {"seed": 0}, {}), "h", ["mc1"], ("en",))
    assert "results.json" in str(raised.value) or "table.md" in str(raised.value)
    assert not list(run_dir.glob("*.tmp"))
    assert (run_dir / "results.json").read_text() == before
    with pytest.raises(MlbenchError, match="No space left on device"):
        run_files.write_atomic(run_dir / "x.json", "{}")
    assert not list(run_dir.glob("*.tmp"))
