"""`mlbench data list | fetch | verify | path` against the fake homes."""

from __future__ import annotations

from typer.testing import CliRunner

from mlbench.cli.main import app
from tests.data.conftest import COMMIT, github_source

FILES = {"data/q.json": b"[1, 2]"}


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_list_fetch_verify_path(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    listed = run("data", "list")
    assert listed.exit_code == 0
    for text in ("truthfulqa-multi", "veritasqa", "calmqa", "msqad", "xlinghealth", "demo", "owner/demo", "MIT"):
        assert text in listed.stdout
    assert "demo" in listed.stdout and "  cached: no" in listed.stdout  # 80 columns: a block per source

    fetched = run("data", "fetch", "demo")
    assert fetched.exit_code == 0, fetched.output
    assert f"demo: 1 file(s), 0.0 MB, owner/demo@{COMMIT[:12]}" in fetched.stdout
    assert run("data", "fetch", "demo").stdout.strip() == "demo: cached"

    verified = run("data", "verify", "demo")
    assert verified.exit_code == 0 and "demo: ok (1 file(s), 2 rows)" in verified.stdout
    path = run("data", "path", "demo").stdout.strip()
    assert path.endswith("/demo/files")
    (__import__("pathlib").Path(path) / "data" / "q.json").write_bytes(b"[1, 3]")
    broken = run("data", "verify", "demo")
    assert broken.exit_code == 1 and "differs from the one recorded at fetch" in broken.output


def test_verify_of_a_source_never_fetched_fails(homes, add_source):
    add_source(github_source("demo", FILES))
    result = run("data", "verify", "demo")
    assert result.exit_code == 1 and "demo: not fetched" in result.output


def test_errors_are_one_line_with_exit_code_2(homes, add_source, monkeypatch):
    add_source(github_source("demo", FILES))
    unknown = run("data", "fetch", "nope")
    assert unknown.exit_code == 2 and unknown.output.strip().startswith("mlbench: error: unknown data source 'nope'")
    monkeypatch.setenv("MLBENCH_OFFLINE", "1")
    offline = run("data", "path", "demo")
    assert offline.exit_code == 2
    assert len(offline.output.strip().splitlines()) == 1 and "`mlbench data fetch demo`" in offline.output
