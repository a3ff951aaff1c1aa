"""Issue 32: a full, read-only or foreign folder under the output, the cache or the data
store ends the command with one line and exit code 2, never a traceback, and leaves
nothing half-written that ``--resume`` would trust: a run that hit a full disk finishes,
once there is room, with every sample once and the scores of a run that never stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmarks.declared.okapi_fixture import write_okapi_copy
from tests.cli.test_cli import run_cli, run_model
from tests.data.conftest import COMMIT, homes  # noqa: F401  (a fake hub, and mlbench's data cache in tmp_path)
from tests.hostile.small_disk import small_disk

RUN = "--task truthfulqa_multi --lang en,es --mode mc --sample --no-cache --backend hf"


def last_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("mlbench: error: "), result.output
    return line


def samples(run_dir: Path, lang: str) -> dict[str, dict]:
    rows = [json.loads(line) for line in (run_dir / f"samples_{lang}.jsonl").read_text().splitlines()]
    by_id = {row["id"]: row for row in rows}
    assert len(by_id) == len(rows), "a sample was written twice"
    return by_id


def sqlite_says(message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a real small disk, SQLite (which writes past Python's open()) is made to
    answer as it does on a full or read-only one."""
    import sqlite3

    import mlbench.backends.cache as cache

    class Refusing:
        def __getattr__(self, name: str) -> object:
            return getattr(sqlite3, name)

        @staticmethod
        def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
            raise sqlite3.OperationalError(message)

    monkeypatch.setattr(cache, "sqlite3", Refusing())


@pytest.fixture(scope="module")
def reference(tiny_model, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reference")
    assert run_model(tiny_model, out, RUN).exit_code == 0
    return out / tiny_model.name / "truthfulqa_multi"


def test_disk_fills_while_samples_are_written_then_resume_finishes_the_same(
    tiny_model, reference, tmp_path, monkeypatch
):
    with small_disk(tmp_path / "disk", 24, monkeypatch) as disk:
        line = last_line(run_model(tiny_model, disk.path, RUN))
        assert "samples_en.jsonl" in line and "No space left on device" in line
        run_dir = disk.path / tiny_model.name / "truthfulqa_multi"
        partial = samples(run_dir, "en") if (run_dir / "samples_en.jsonl").exists() else {}
        assert len(partial) < 20  # every line that is there is whole (json.loads read each)
        disk.make_room()
        result = run_model(tiny_model, disk.path, RUN, "--resume")
        assert result.exit_code == 0, result.output
        for lang in ("en", "es"):
            finished, expected = samples(run_dir, lang), samples(reference, lang)
            assert finished.keys() == expected.keys()
            assert all(finished[i]["metrics"] == expected[i]["metrics"] for i in expected)


def test_disk_fills_while_a_languages_results_are_written(tiny_model, tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk", 40, monkeypatch) as disk:
        line = last_line(run_model(tiny_model, disk.path, RUN))
        assert "No space left on device" in line
        assert not list(disk.path.rglob("*.tmp"))  # no half-written file stays behind


def test_output_folder_on_a_read_only_file_system(tiny_model, tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk", 100, monkeypatch, read_only=True) as disk:
        line = last_line(run_model(tiny_model, disk.path / "out", RUN))
        assert "Read-only file system" in line or "read-only" in line


def test_request_cache_on_a_read_only_file_system(tiny_model, tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk", 100, monkeypatch, read_only=True) as disk:
        flags = RUN.replace("--no-cache", f"--cache-dir {disk.path}")
        if not disk.mounted:
            sqlite_says("attempt to write a readonly database", monkeypatch)
        line = last_line(run_model(tiny_model, tmp_path / "out", flags))
        assert "cannot be written" in line and "--no-cache" in line


def test_data_store_fills_while_fetching(homes, tmp_path, monkeypatch):  # noqa: F811
    copy = write_okapi_copy(tmp_path / "hub", ("es", "ru", "hi", "zh"))
    homes.hub[("alexandrainst/m_truthfulqa", COMMIT)] = {
        p.relative_to(copy).as_posix(): p.read_bytes() for p in copy.rglob("*") if p.is_file()
    }
    homes.branches[("alexandrainst/m_truthfulqa", "main")] = COMMIT
    with small_disk(tmp_path / "disk", 4, monkeypatch) as disk:
        monkeypatch.setenv("MLBENCH_DATA_DIR", str(disk.path))
        line = last_line(run_cli("data", "fetch", "m_truthfulqa"))
        assert "no space left" in line.lower()
        assert not (disk.path / "m_truthfulqa").exists()  # no folder that looks fetched
        disk.make_room()
        assert run_cli("data", "fetch", "m_truthfulqa").exit_code == 0


def test_report_and_explorer_into_a_read_only_folder(reference, tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk", 100, monkeypatch, read_only=True) as disk:
        for command in (("report", "--out", disk.path), ("explore", "-o", disk.path / "x.html")):
            line = last_line(run_cli(command[0], reference.parent.parent, *command[1:]))
            assert "read-only" in line.lower(), line


def test_request_cache_fills(tiny_model, tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk", 40, monkeypatch) as disk:
        flags = RUN.replace("--no-cache", f"--cache-dir {disk.path}")
        if not disk.mounted:
            sqlite_says("database or disk is full", monkeypatch)
        line = last_line(run_model(tiny_model, tmp_path / "out", flags))
        assert "cannot be written" in line and "full" in line
