"""A run of a benchmark aligned to TruthfulQA's rows (``[align]``): two questions naming one
row are refused when the data is read; a resumed run gives its saved samples the rows the
data gives now (an ``[align]`` edited since, a run saved before rows were derived); a
limited run saved under the earlier draw by ids is refused, not mixed into the new draw."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mlbench.data import source
from tests.cli.test_cli import run_cli

HEAD = """[benchmark]
name = "{name}"
data = "data/{{lang}}.jsonl"
languages = ["de"]
"""


def _benchmark(folder: Path, align: str, rows: list[int]) -> Path:
    """A benchmark of ``len(rows)`` questions ``q1``, ``q2``, …, whose column ``row`` holds
    ``rows``, named after ``folder`` (a name is registered once a process)."""
    (folder / "data").mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps({"id": f"q{i}", "row": row, "question": f"Frage {i}?", "correct_answers": [f"Ja {i}."],
                    "incorrect_answers": [f"Nein {i}.", "Vielleicht."]})
        for i, row in enumerate(rows, start=1)
    ]  # fmt: skip
    (folder / "data" / "de.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml = folder / "benchmark.toml"
    toml.write_text(HEAD.format(name=_name(folder)) + align, encoding="utf-8")
    return toml


def _name(folder: Path) -> str:
    return "al_" + "".join(c for c in folder.name.lower() if c.isalnum())[:30]


def _run(model: Path, toml: Path, out: Path, *more: str):
    """In this process: a benchmark file is read once a process, at its first --include."""
    return run_cli("run", "--model", model, "--include", toml, "--task", _name(toml.parent), "--lang", "de",
                   "--mode", "mc", "--backend", "hf", "--no-cache", "--output", out, *more)  # fmt: skip


def _run_afresh(model: Path, toml: Path, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    """In a process of its own, which reads the benchmark file as it is now."""
    flags = ["--model", model, "--include", toml, "--task", _name(toml.parent), "--lang", "de", "--mode", "mc",
             "--backend", "hf", "--no-cache", "--output", out, *more]  # fmt: skip
    command = [sys.executable, "-m", "mlbench", "run", *map(str, flags)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})


def _saved(out: Path, model: Path) -> list[dict]:
    path = out / model.name / _name(out.parent) / "samples_de.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_two_questions_naming_one_row_are_refused_when_the_data_is_read(tiny_model, tmp_path):
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', [5, 6, 5, 7])
    result = _run(tiny_model, toml, tmp_path / "out")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [
        f"mlbench: error: {_name(tmp_path)} de: questions 'q1' and 'q3' both name TruthfulQA row 5 (tqa_index); "
        "a row is one question, so fix the data or its [align] rule"
    ]
    assert not (tmp_path / "out" / tiny_model.name).exists()  # refused before anything was written


def test_a_resumed_run_takes_the_rows_of_an_edited_align(tiny_model, tmp_path):
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', [1, 2, 3, 4])
    out = tmp_path / "out"
    assert _run(tiny_model, toml, out).exit_code == 0
    before = {s["id"]: s for s in _saved(out, tiny_model)}
    assert [before[f"q{i}"]["labels"]["tqa_index"] for i in range(1, 5)] == ["1", "2", "3", "4"]
    # The user notices the column counts from 1 and says so; the answers need not be asked again.
    toml.write_text(HEAD.format(name=_name(tmp_path)) + '[align]\ntqa_index = "row"\noffset = -1\n', encoding="utf-8")
    resumed = _run_afresh(tiny_model, toml, out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert (
        f"{_name(tmp_path)} de: 4 saved sample(s) named other TruthfulQA rows than the data now gives "
        "(e.g. 'q1': row 1, now 0): their rows updated; their scores kept"
        in " ".join((resumed.stdout + resumed.stderr).split())
    )
    after = {s["id"]: s for s in _saved(out, tiny_model)}
    assert [after[f"q{i}"]["labels"]["tqa_index"] for i in range(1, 5)] == ["0", "1", "2", "3"]
    assert all(after[i]["metrics"] == before[i]["metrics"] for i in before)  # scored once
    results = json.loads((out / tiny_model.name / _name(tmp_path) / "results.json").read_text(encoding="utf-8"))
    per_question = results["per_question"]["de"]
    assert per_question["labels"]["tqa_index"] == ["0", "1", "2", "3"]
    again = _run_afresh(tiny_model, toml, out, "--resume")  # nothing left to change: no note
    assert again.returncode == 0 and "TruthfulQA row" not in again.stdout + again.stderr


def test_a_run_saved_before_rows_were_derived_resumes_and_gets_them(tiny_model, tmp_path):
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', [10, 20, 30])
    out = tmp_path / "out"
    assert _run(tiny_model, toml, out).exit_code == 0
    path = out / tiny_model.name / _name(tmp_path) / "samples_de.jsonl"
    older = []
    for line in path.read_text(encoding="utf-8").splitlines():  # as a version without tqa_index wrote them
        sample = json.loads(line)
        del sample["labels"]["tqa_index"]
        older.append(json.dumps(sample, ensure_ascii=False))
    path.write_text("\n".join(older) + "\n", encoding="utf-8")
    resumed = _run(tiny_model, toml, out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "3 saved sample(s) given the TruthfulQA row the data now gives" in " ".join(resumed.output.split())
    assert [s["labels"]["tqa_index"] for s in _saved(out, tiny_model)] == ["10", "20", "30"]


def test_a_limited_run_drawn_by_ids_does_not_resume_into_the_draw_by_rows(tiny_model, tmp_path, monkeypatch):
    # Rows far from the ids, so that the two rules draw different questions.
    rows = [(7 * i + 300) % 817 for i in range(1, 13)]
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', rows)
    out = tmp_path / "out"
    by_ids = source.subset
    with monkeypatch.context() as earlier:  # the draw of versions before rows were drawn
        earlier.setattr("mlbench.engine.pipeline.subset", lambda s, n, seed: by_ids(s, n, seed, by_row=False))
        assert _run(tiny_model, toml, out, "--limit", "4").exit_code == 0
    old_ids = {s["id"] for s in _saved(out, tiny_model)}
    resumed = _run(tiny_model, toml, out, "--limit", "4", "--resume")
    assert resumed.exit_code == 2
    assert (
        f"{_name(tmp_path)} de: the 4 saved samples were drawn by the --limit rule of earlier versions (question "
        "ids); --limit now draws TruthfulQA's rows, the same in every translation, so they do not resume into "
        "this draw: run it again with --overwrite" in " ".join(resumed.output.split())
    )
    assert {s["id"] for s in _saved(out, tiny_model)} == old_ids  # nothing written
    fresh = _run(tiny_model, toml, out, "--limit", "4", "--overwrite")
    assert fresh.exit_code == 0
    assert {s["id"] for s in _saved(out, tiny_model)} != old_ids
    assert _run(tiny_model, toml, out, "--limit", "4", "--resume").exit_code == 0  # the new draw resumes


def test_a_limited_run_resumed_after_an_edited_align_is_refused_as_such(tiny_model, tmp_path):
    # Under offset -1 the rows are the ids less one: the draw by rows was the draw by ids.
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\noffset = -1\n', list(range(1, 41)))
    out = tmp_path / "out"
    assert _run(tiny_model, toml, out, "--limit", "4").exit_code == 0
    toml.write_text(HEAD.format(name=_name(tmp_path)) + '[align]\ntqa_index = "row"\n', encoding="utf-8")
    resumed = _run_afresh(tiny_model, toml, out, "--limit", "4", "--resume")
    assert resumed.returncode == 2
    said = " ".join((resumed.stdout + resumed.stderr).split())
    assert (
        f"{_name(tmp_path)} de: the 4 saved samples were drawn by --limit from other TruthfulQA rows than the data "
        "gives now (an [align] edited since), so this draw holds other questions: run it again with --overwrite"
    ) in said
    assert "earlier versions" not in said
