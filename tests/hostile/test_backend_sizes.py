"""Issue 50, findings 18 and 19: the sizes a backend option gives.

18. ``-M batch_size=²`` ended in a ValueError traceback: ``str.isdigit()`` is true for a
    superscript, which ``int()`` then refuses; and ``int()`` itself reads other scripts'
    digits (``١٢``), full-width ones (``１``) and underscores (``1_0``), so such a value ran
    as a number nobody typed. A whole number is the ASCII digits 0-9 (a sign first where
    the option's range allows one); anything else is one line naming the key and the value.
19. ``-M data_parallel_size=100000`` on a machine without GPUs started replica processes by
    the thousand (the only check was ``>= 1``). Replicas are at most the devices they run
    on: the visible GPUs, or the CPU cores on a machine without one; more is one line,
    before any process starts or any model loads.
"""

from __future__ import annotations

import multiprocessing.context
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mlbench.records.options import parse_value
from tests.cli.test_cli import run_cli
from tests.cli.test_errors import assert_one_line_error
from tests.cli.test_messages import one_error_line

RUN = ["--task", "truthfulqa_multi", "--lang", "en", "--sample", "--limit", "1", "--no-cache", "--mode", "mc"]
LONG = "9" * 5000  # past int()'s 4,300 digits: a ValueError of its own


def run(model: Path, tmp_path: Path, *args: str) -> Any:
    return run_cli("run", "--model", model, "--output", tmp_path / "out", *RUN, *args)


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("-M", "batch_size=²"), ("-M batch_size", "'²'")),  # isdigit() true, int() refuses it
        (("-M", "batch_size=١٢"), ("-M batch_size", "'١٢'")),  # Arabic-Indic 12: int() reads it
        (("-M", f"batch_size={LONG}"), ("-M batch_size", "'9999", "5,002 characters")),
        (("-M", "data_parallel_size=１"), ("-M data_parallel_size", "'１'", "digits 0-9")),  # full-width 1
        (("-M", "data_parallel_size=0_1"), ("-M data_parallel_size", "'0_1'", "not a whole number")),
    ],
)
def test_18_an_integer_option_takes_only_ascii_digits(tiny_model, tmp_path, args, fragments):
    result = run(tiny_model, tmp_path, "--backend", "hf", *args)
    assert_one_line_error(result, *fragments)
    assert not (tmp_path / "out").exists()  # refused while the options were read


@pytest.mark.parametrize("value", ['"²"', '"٣"'])
def test_18_a_run_files_count_is_read_by_the_same_rule(tiny_model, tmp_path, value):
    (tmp_path / "run.toml").write_text(f'backend = "hf"\n[model]\nbatch_size = {value}\n', encoding="utf-8")
    result = run(tiny_model, tmp_path, "--config", tmp_path / "run.toml")
    assert_one_line_error(result, "batch_size", value.strip('"'))


def test_18_a_judges_count_too(tiny_model, tmp_path):
    result = run_cli("run", "--model", tiny_model, "--output", tmp_path / "out", *RUN[:-2], "--mode", "gen",
                     "--judge", tiny_model, "-J", "backend=hf", "-J", "search_results=١٠")  # fmt: skip
    assert_one_line_error(result, "-J search_results", "'١٠'")


@pytest.mark.parametrize(
    ("flag", "value"), [("--limit", "١"), ("--limit", "1_0"), ("--seed", "０"), ("--max-cost", "１.５")]
)
def test_18_a_flags_number_too(tiny_model, tmp_path, monkeypatch, capsys, flag, value):
    """The flags' own numbers (cli.options.at_least) read int() and float() the same way;
    run as the console script runs them (click's errors worded by mlbench)."""
    args = [arg for arg in RUN if arg not in ("--limit", "1")] + ["--backend", "hf", flag, value]
    line = one_error_line(monkeypatch, capsys, "run", "--model", tiny_model, "--output", tmp_path / "out", *args)
    assert line.startswith(f"{flag}: {value!r} is not a") and not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("hint", "text", "expected"),
    [
        (int, "-3", -3),  # a sign stays: the option's own range says whether it may be negative
        (int, "+3", 3),
        (int, " 12 ", 12),
        (float, "0.5", 0.5),
        (float, "1e-3", 0.001),
        (float, "-2", -2.0),
    ],
)
def test_18_ascii_numbers_still_read(hint, text, expected):
    assert parse_value("-M key", hint, text) == expected


@pytest.mark.parametrize(
    ("hint", "text"), [(int, "١٢"), (int, "1_000"), (int, "３"), (float, "０.５"), (float, "1_0.5")]
)
def test_18_other_digits_are_refused_by_the_shared_parser(hint, text):
    from mlbench.errors import MlbenchError

    with pytest.raises(MlbenchError, match=r"^-M key: "):
        parse_value("-M key", hint, text)


@pytest.fixture
def nothing_starts(monkeypatch) -> list[str]:
    """Fails the run, not the machine, if a replica process starts or a model loads: before
    the fix, 100000 replicas would have been started here."""
    started: list[str] = []

    def refuse(what: str) -> Callable[..., None]:
        def stop(*args: object, **kwargs: object) -> None:
            started.append(what)
            raise AssertionError(f"{what} started")

        return stop

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", refuse("a replica process"))
    monkeypatch.setattr("mlbench.backends.registry._single_backend", refuse("a model"))
    return started


def machine(monkeypatch, gpus: int, cores: int) -> None:
    """The devices the check sees, whatever this machine has."""
    monkeypatch.setattr("mlbench.backends.data_parallel.gpu_count", lambda: gpus, raising=False)
    monkeypatch.setattr("mlbench.backends.data_parallel.cpu_cores", lambda: cores, raising=False)


@pytest.mark.parametrize(
    ("gpus", "cores", "args", "line"),
    [
        (0, 2, ("--backend", "hf", "-M", "data_parallel_size=100000"),
         "-M data_parallel_size=100000: this machine has 2 CPU cores and no GPU; at most 2"),
        (0, 1, ("--backend", "hf", "-M", "data_parallel_size=2"),
         "-M data_parallel_size=2: this machine has 1 CPU core and no GPU; at most 1"),
        (2, 64, ("--backend", "hf", "-M", "data_parallel_size=3"),
         "-M data_parallel_size=3: this machine has 2 GPUs and a replica takes 1; at most 2"),
        (2, 4, ("--backend", "hf", "-M", "device=cpu", "-M", "data_parallel_size=8"),
         "-M data_parallel_size=8: device=cpu, and this machine has 4 CPU cores; at most 4"),
        (4, 64, ("--backend", "vllm", "-M", "tensor_parallel_size=2", "-M", "data_parallel_size=3"),
         "-M data_parallel_size=3: this machine has 4 GPUs and a replica takes 2 (tensor_parallel_size); at most 2"),
        (1, 64, ("--backend", "vllm", "-M", "tensor_parallel_size=2", "-M", "data_parallel_size=2"),
         "-M data_parallel_size=2: this machine has 1 GPU and a replica takes 2 (tensor_parallel_size); not one fits"),
        (0, 64, ("--backend", "hf", "-M", "device=cuda", "-M", "data_parallel_size=2"),
         "-M data_parallel_size=2: device=cuda, but torch sees no CUDA GPU; use device=cpu or auto"),
    ],
)  # fmt: skip
def test_19_replicas_are_at_most_the_devices(
    tiny_model, tmp_path, monkeypatch, nothing_starts, gpus, cores, args, line
):
    machine(monkeypatch, gpus, cores)
    began = time.perf_counter()
    result = run(tiny_model, tmp_path, *args)
    assert_one_line_error(result, line)
    assert nothing_starts == [] and not (tmp_path / "out").exists()
    assert time.perf_counter() - began < 5  # read with the options: no process, no model, no data


def test_19_a_run_file_and_a_judge_are_checked_alike(tiny_model, tmp_path, monkeypatch, nothing_starts):
    machine(monkeypatch, 0, 2)
    (tmp_path / "run.toml").write_text('backend = "hf"\n[model]\ndata_parallel_size = 100000\n', encoding="utf-8")
    assert_one_line_error(run(tiny_model, tmp_path, "--config", tmp_path / "run.toml"), "100000", "at most 2")
    judge = ("--judge", tiny_model, "-J", "backend=hf", "-J", "data_parallel_size=100000")
    judged = run_cli("run", "--model", tiny_model, "--output", tmp_path / "out", *RUN[:-2], "--mode", "gen",
                     "--backend", "hf", *judge)  # fmt: skip
    assert_one_line_error(judged, "-J data_parallel_size=100000: this machine has 2 CPU cores and no GPU; at most 2")
    assert nothing_starts == []


@pytest.mark.parametrize(("gpus", "device", "on_gpus"), [(2, "auto", True), (0, "auto", False), (2, "cpu", False)])
def test_19_hf_replicas_on_a_gpu_machine_get_a_gpu_each(tmp_path, monkeypatch, gpus, device, on_gpus):
    """device=auto on a GPU machine: each replica its own GPU (its CUDA_VISIBLE_DEVICES), not
    every one of them on the first GPU, which is what "at most the GPUs" counts on."""
    from mlbench.backends import registry

    machine(monkeypatch, gpus, 8)
    made: dict[str, object] = {}
    monkeypatch.setattr("mlbench.backends.data_parallel.DataParallelBackend", lambda *a, **kw: made.update(kw))
    options = registry.model_spec(str(tmp_path), "hf", device=device, data_parallel_size=2)
    registry.create_backend(options, None)
    assert made["use_gpus"] is on_gpus


def test_18_a_superscript_terminal_size_is_ignored_not_a_traceback():
    """$COLUMNS and $LINES passed isdigit() too (mlbench's and rich's): COLUMNS=² stopped a
    command that prints a table with a ValueError. The real command: main() reads them."""
    env = {**os.environ, "COLUMNS": "²", "LINES": "٣"}
    done = subprocess.run([sys.executable, "-m", "mlbench", "tasks"], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_18_outside_names_with_other_digits_still_sort():
    """A logged lm-eval doc id and a prompt template's name are outside text: a superscript
    (isdigit() true, int() refuses it) sorts as text, digits 0-9 as numbers."""
    from mlbench.engine.lm_eval_import.importer import _id_order
    from mlbench.results.aggregation import _natural

    assert sorted(["10", "²", "9", "x"], key=_id_order) == ["9", "10", "x", "²"]
    assert sorted(["p10", "p1²", "p2"], key=_natural) == ["p1²", "p2", "p10"]
