"""Fetching into the data cache: pinned hashes, faults, offline, locking, re-fetching."""

from __future__ import annotations

import threading

import pytest

from mlbench.data import source_folder
from mlbench.data.catalog import get_source
from mlbench.data.store import cached_folder, data_root, fetch, read_lock
from mlbench.data.verify import verify
from mlbench.errors import MlbenchError
from tests.data.conftest import COMMIT, NEW_COMMIT, github_source, sha256

FILES = {"data/a b.json": b'[{"x": 1}, {"x": 2}]', "data/c.json": b"[1, 2, 3]"}


def test_a_pinned_github_source_is_fetched_checked_and_then_read_from_the_cache(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    folder = source_folder("demo")
    assert (folder / "data" / "a b.json").read_bytes() == FILES["data/a b.json"]  # a space in the name: quoted
    lock = read_lock(get_source("demo"))
    assert lock.commit == COMMIT
    assert lock.files["data/c.json"] == {"sha256": sha256(FILES["data/c.json"]), "size": 9}
    served = len(homes.requests)
    assert source_folder("demo") == folder
    assert len(homes.requests) == served  # a warm cache asks nothing of the network
    assert verify(get_source("demo")).ok


def test_a_file_whose_hash_differs_from_the_pin_is_refused_and_the_cache_left_as_it_was(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = {**FILES, "data/c.json": b"[1, 2, 4]"}
    add_source(github_source("demo", FILES))
    with pytest.raises(MlbenchError, match=r"sha256 .* is not the pinned"):
        fetch(get_source("demo"))
    assert cached_folder(get_source("demo")) is None
    assert [p.name for p in data_root().iterdir() if not p.name.endswith(".lock")] == []  # no staging left


def test_a_missing_file_is_one_line_naming_the_404(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = {"data/a b.json": FILES["data/a b.json"]}
    add_source(github_source("demo", FILES))
    with pytest.raises(MlbenchError, match=r"data/c\.json: not found \(HTTP 404\)") as error:
        fetch(get_source("demo"))
    assert "\n" not in str(error.value)


def test_a_dropped_connection_is_retried_and_a_persistent_one_fails_cleanly(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    homes.faults["data/c.json"] = "drop-once"
    fetch(get_source("demo"))
    assert homes.requests.count("/raw/owner/demo/" + COMMIT + "/data/c.json") == 2

    add_source(github_source("demo2", FILES))
    homes.github[("owner/demo2", COMMIT)] = FILES
    homes.faults["data/c.json"] = "drop"
    with pytest.raises(MlbenchError, match="data/c.json"):
        fetch(get_source("demo2"))
    assert not (data_root() / "demo2").exists()


def test_a_server_error_once_is_retried(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    homes.faults["data/a b.json"] = "500-once"
    assert fetch(get_source("demo")).commit == COMMIT


def test_a_cold_cache_offline_names_the_fetch_command_and_the_url(homes, add_source, monkeypatch):
    add_source(github_source("demo", FILES))
    monkeypatch.setenv("MLBENCH_OFFLINE", "1")
    with pytest.raises(MlbenchError) as error:
        source_folder("demo")
    message = str(error.value)
    assert "`mlbench data fetch demo`" in message and "https://github.com/owner/demo/tree/" + COMMIT in message
    assert homes.requests == []


def test_an_unreachable_network_gives_the_same_advice(homes, add_source, monkeypatch):
    add_source(github_source("demo", FILES))
    monkeypatch.setenv("MLBENCH_GITHUB_RAW_URL", "http://127.0.0.1:9/raw")  # the discard port: refused
    with pytest.raises(MlbenchError, match=r"cannot fetch demo .*`mlbench data fetch demo`"):
        fetch(get_source("demo"))


def test_a_branch_is_locked_to_its_commit_and_unpinned_hashes_are_recorded_then_held(homes, add_source):
    homes.branches[("owner/demo", "main")] = COMMIT
    homes.github[("owner/demo", COMMIT)] = FILES
    source = add_source(github_source("demo", FILES, revision="main", pin=False))
    lock = fetch(source)
    assert (lock.revision, lock.commit) == ("main", COMMIT)
    assert lock.files["data/c.json"]["sha256"] == sha256(FILES["data/c.json"])
    # Upstream moves on: the cache keeps the locked commit until fetched again.
    homes.branches[("owner/demo", "main")] = NEW_COMMIT
    homes.github[("owner/demo", NEW_COMMIT)] = {**FILES, "data/c.json": b"[9]"}
    assert source_folder("demo").joinpath("data/c.json").read_bytes() == b"[1, 2, 3]"
    # A file changed in the cache is caught by verify, not used silently.
    (source_folder("demo") / "data" / "c.json").write_bytes(b"[1, 2, 5]")
    verdict = verify(source)
    assert not verdict.ok and "differs from the one recorded at fetch" in verdict.problems[0]
    assert fetch(source, force=True).commit == NEW_COMMIT


def test_a_new_pin_in_the_catalog_makes_the_cache_stale_and_it_is_fetched_again(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    homes.github[("owner/demo", NEW_COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    source_folder("demo")
    source = add_source(github_source("demo", FILES, revision=NEW_COMMIT))
    assert cached_folder(source) is None
    source_folder("demo")
    assert read_lock(source).commit == NEW_COMMIT


def test_two_fetches_at_once_download_once(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            source_folder("demo")
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(path.endswith("/data/c.json") for path in homes.requests) == 1


def test_verify_counts_rows_against_the_catalog(homes, add_source):
    homes.github[("owner/demo", COMMIT)] = FILES
    source = add_source(github_source("demo", FILES, **{"data/c.json": 4}))
    fetch(source)
    verdict = verify(source)
    assert verdict.problems == ["data/c.json: 3 rows, expected 4"]
    assert verdict.rows == 5


def test_unknown_source_is_one_line_listing_the_known_ones():
    known = (
        "aradice_truthfulqa, aradice_truthfulqa-code, calmqa, m_truthfulqa, msqad, msqad-code, nortruthfulqa, "
        "nortruthfulqa-code, nortruthfulqa_gen, nortruthfulqa_gen-code, truthfulqa-multi, truthfulqa-multi-MT, "
        "truthfulqa-multi-code, truthfulqa-multi-scope, truthfulqax, truthfulqax-code, truthfulqax_gen, "
        "truthfulqax_gen-code, uhura_truthfulqa, uhura_truthfulqa_gen, veritasqa, x_truthfulqa, xlinghealth, "
        "xlinghealth-code"
    )
    with pytest.raises(MlbenchError, match=rf"unknown data source 'nope'; known: {known}$"):
        get_source("nope")
    assert get_source("truthfulqa_multi_mt").name == "truthfulqa-multi-MT"  # a task name works too


def test_a_run_records_the_commit_and_every_files_hash(homes, add_source, tmp_path):
    from mlbench.data.record import data_record
    from mlbench.data.source import DataSource

    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    assert data_record("demo", DataSource("hub")) == {"kind": "cache", "source": "demo"}  # not fetched yet
    source_folder("demo")
    assert data_record("demo", DataSource("hub")) == {
        "kind": "cache",
        "source": "demo",
        "home": "https://github.com/owner/demo",
        "revision": COMMIT,
        "files": {path: sha256(content) for path, content in sorted(FILES.items())},
    }
    assert data_record("demo", DataSource("local", tmp_path)) == {"kind": "local", "path": str(tmp_path)}


def test_a_fetch_during_a_runs_progress_display_works(homes, add_source):
    # (rich before 14.1 refuses a second live display: then one line is printed instead of a bar)
    from rich.progress import Progress

    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    with Progress():  # a run's bars are live (rich allows one live display at a time)
        folder = source_folder("demo")
    assert folder.joinpath("data/c.json").is_file()


def test_where_rich_refuses_a_second_display_the_fetch_prints_one_line(homes, add_source, monkeypatch, capsys):
    from rich.errors import LiveError
    from rich.progress import Progress

    def refuse(self) -> None:
        raise LiveError("Only one live display may be active at once")

    monkeypatch.setattr(Progress, "start", refuse)
    homes.github[("owner/demo", COMMIT)] = FILES
    add_source(github_source("demo", FILES))
    assert source_folder("demo").joinpath("data/c.json").is_file()
    assert "mlbench: fetching demo into the data cache" in capsys.readouterr().err
