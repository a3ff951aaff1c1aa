"""An author's code files read like data (mlbench/data/untrusted/upstream.py): pinned, fetched with the
benchmark, found in a --data-dir copy, checked by sha256, refused in one line."""

from __future__ import annotations

import pytest

from mlbench.data.catalog import Source, sources_of
from mlbench.data.source import DataSource
from mlbench.data.store import cached_folder, fetch
from mlbench.data.untrusted.upstream import UpstreamFiles
from mlbench.errors import MlbenchError
from tests.data.conftest import COMMIT, github_source

FILES = {"code/prompts.py": b"def f():\n    return 'FX'\n", "code/labels.py": b"def g():\n    return 'G'\n"}
UPSTREAM = UpstreamFiles("demo", "demo-code", "demo", tuple(FILES))


@pytest.fixture
def pinned(add_source) -> Source:
    return add_source(github_source("demo-code", FILES))


def copy(root, files=FILES):
    for path, content in files.items():
        (root / "upstream" / "demo" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "upstream" / "demo" / path).write_bytes(content)
    return root


def test_a_data_dir_copy_is_found_and_checked(pinned, tmp_path):
    found = UPSTREAM.locate(DataSource("local", copy(tmp_path)))
    assert found == {path: tmp_path / "upstream" / "demo" / path for path in FILES}
    assert UPSTREAM.code(DataSource("local", tmp_path), "code/prompts.py").call("f") == "FX"
    record = UPSTREAM.record()
    assert record["repository"] == "owner/demo-code" and record["commit"] == COMMIT
    assert record["files"] == {path: f.sha256 for path, f in zip(FILES, pinned.files)}


def test_a_missing_or_changed_copy_is_one_line(pinned, tmp_path):
    copy(tmp_path, {"code/prompts.py": FILES["code/prompts.py"]})
    with pytest.raises(MlbenchError) as missing:
        UPSTREAM.locate(DataSource("local", tmp_path))
    message = str(missing.value)
    assert "upstream/demo/code/labels.py is missing" in message and "mlbench data fetch demo" in message
    assert "owner/demo-code @ aaaaaaa" in message and "\n" not in message
    copy(tmp_path, {**FILES, "code/labels.py": b"def g():\n    return 'changed'\n"})
    with pytest.raises(MlbenchError, match=r"labels.py: sha256 \w+… is not the pinned \w+… of code/labels.py"):
        UPSTREAM.locate(DataSource("local", tmp_path))


def test_without_data_dir_the_files_come_from_the_cache_fetched_on_first_use(homes, pinned):
    homes.github[("owner/demo-code", COMMIT)] = FILES
    found = UPSTREAM.locate(DataSource("hub"))
    assert {path: file.read_bytes() for path, file in found.items()} == FILES


def test_offline_with_a_cold_cache_names_the_fetch(pinned, monkeypatch, tmp_path):
    monkeypatch.setenv("MLBENCH_DATA_DIR", str(tmp_path / "empty"))
    with pytest.raises(MlbenchError) as caught:
        UPSTREAM.locate(DataSource("hub"))
    message = str(caught.value)
    assert "run `mlbench data fetch demo`" in message and "DIR/upstream/demo/" in message and "\n" not in message


def test_a_tasks_name_fetches_every_source_it_reads(add_source):
    data = add_source(Source("demo", ("demo",), "github", "owner/demo", COMMIT, "MIT"))
    code = add_source(Source("demo-code", ("demo",), "github", "owner/demo-code", COMMIT, "MIT"))
    assert sources_of(["demo"]) == [data, code]
    assert sources_of(["demo-code"]) == [code]


def test_a_cache_fetched_before_a_file_was_pinned_is_fetched_again(homes, add_source):
    homes.github[("owner/demo-code", COMMIT)] = FILES
    first = add_source(github_source("demo-code", {"code/prompts.py": FILES["code/prompts.py"]}))
    fetch(first)
    assert cached_folder(first) is not None
    grown = add_source(github_source("demo-code", FILES))
    assert cached_folder(grown) is None  # the lock lacks code/labels.py
    fetch(grown)
    assert (cached_folder(grown) / "code/labels.py").read_bytes() == FILES["code/labels.py"]


def test_a_clone_of_the_authors_repository_is_read_as_it_is(pinned, tmp_path):
    for path, content in FILES.items():  # DIR/<path>: the repository's own layout
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(content)
    assert UPSTREAM.locate(DataSource("local", tmp_path)) == {path: tmp_path / path for path in FILES}


def test_what_is_parsed_is_what_was_checked(pinned, tmp_path):
    copy(tmp_path)
    code = UPSTREAM.code(DataSource("local", tmp_path), "code/prompts.py")
    (tmp_path / "upstream/demo/code/prompts.py").write_text("def f():\n    return 'edited'\n")
    assert code.call("f") == "FX"  # the bytes read and checked, not the file as it is now
