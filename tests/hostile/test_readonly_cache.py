"""Issue 35, item 16: a cache that cannot be written is one line before the model loads,
never an sqlite traceback after it. (Tests run as root, whom a read-only folder does not
stop: the cache file is made a folder, and the cache folder a file, which fail the same
ways: sqlite cannot open it, the OS cannot make it.)"""

import pytest

import mlbench.backends.registry
from tests.cli.test_cli import run_model

RUN = "--task truthfulqa_multi --lang en --sample --mode mc --backend hf --limit 2"


@pytest.mark.parametrize("broken", ["file_is_a_folder", "folder_is_a_file"])
def test_a_cache_that_cannot_be_written_is_one_line_before_loading(tiny_model, tmp_path, monkeypatch, broken):
    cache = tmp_path / "cache"
    if broken == "file_is_a_folder":
        (cache / "requests.sqlite").mkdir(parents=True)
    else:
        cache.write_text("not a folder")
    loaded = []
    real = mlbench.backends.registry._single_backend
    monkeypatch.setattr(mlbench.backends.registry, "_single_backend", lambda *a: loaded.append(a) or real(*a))
    result = run_model(tiny_model, tmp_path / "out", RUN, "--cache-dir", cache)
    assert result.exit_code == 2, result.output
    assert f"the cache {cache / 'requests.sqlite'} cannot be written" in result.output
    assert "--no-cache" in result.output and "Traceback" not in result.output
    assert not loaded  # said before the model loads
