"""Issue 35, item 18: ``--lang en,en`` (or ``--task X,X``) was refused as "being run by
another process (pid N)", N being mlbench's own pid: the run locked en twice. A name
given twice now means it once, in the order first given. And refused runs left
``.lock-<lang>`` files behind: a run removes its lock files when it lets go, so one that
is refused or fails before it starts leaves none."""

from __future__ import annotations

import json
import os

from mlbench.engine import lock
from mlbench.engine.lock import lock_path, take_language_lock
from tests.cli.test_cli import run_model

RUN = "--mode mc --sample --limit 2 --no-cache"


def lock_files(folder):
    return sorted(p.name for p in folder.rglob(".lock-*"))


def test_a_language_named_twice_runs_once(tiny_model, tmp_path):
    result = run_model(tiny_model, tmp_path, f"--task truthfulqa_multi --lang en,es,en {RUN}")
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / tiny_model.name / "truthfulqa_multi"
    assert len((run_dir / "samples_en.jsonl").read_text().splitlines()) == 2
    assert list(json.loads((run_dir / "results.json").read_text())["results"]) == ["en", "es"]
    assert lock_files(tmp_path) == []  # a finished run leaves no lock file either


def test_a_task_named_twice_runs_once(tiny_model, tmp_path):
    result = run_model(tiny_model, tmp_path, f"--task veritasqa,veritasqa --lang en {RUN}")
    assert result.exit_code == 0, result.output
    assert len((tmp_path / tiny_model.name / "veritasqa" / "samples_en.jsonl").read_text().splitlines()) == 2


def test_a_run_refused_after_its_locks_leaves_no_lock_files(tiny_model, tmp_path):
    assert run_model(tiny_model, tmp_path, f"--task veritasqa --lang en,es {RUN}").exit_code == 0
    refused = run_model(tiny_model, tmp_path, f"--task veritasqa --lang en,es {RUN}")  # no --resume
    assert refused.exit_code == 2 and "already holds results" in refused.stderr
    assert lock_files(tmp_path) == []


def test_a_run_refused_by_another_holder_leaves_only_the_holders_file(tiny_model, tmp_path):
    run_dir = tmp_path / tiny_model.name / "veritasqa"
    with take_language_lock(run_dir, "es"):  # en is locked by the run first, then es refuses it
        refused = run_model(tiny_model, tmp_path, f"--task veritasqa --lang en,es {RUN}")
        assert refused.exit_code == 2 and "es is being run by another process" in refused.stderr
        assert lock_files(tmp_path) == [".lock-es"]
    assert lock_files(tmp_path) == []


def test_a_lock_whose_file_was_removed_before_it_was_taken_is_taken_again(tmp_path, monkeypatch):
    """The holder before us removes its file just before it lets go: a run that opened
    that file meanwhile must not hold a lock on a file no other run will ever open."""
    real_flock, calls = lock.fcntl.flock, []

    def flock_after_the_holder_left(fd: int, operation: int) -> None:
        if not calls:
            lock_path(tmp_path, "en").unlink()  # what the previous holder's release does
        calls.append(fd)
        real_flock(fd, operation)

    monkeypatch.setattr(lock.fcntl, "flock", flock_after_the_holder_left)
    held = take_language_lock(tmp_path, "en")
    assert len(calls) == 2  # the orphaned file's lock was dropped and the path's taken
    assert os.fstat(held.fd).st_ino == os.stat(lock_path(tmp_path, "en")).st_ino
    held.release()
    assert lock_files(tmp_path) == []
