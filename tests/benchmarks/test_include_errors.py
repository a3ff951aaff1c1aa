"""`--include` on bad input: each mistake is one line naming the file (and the line or row)
and exit code 2. Benchmark files are checked by `mlbench tasks --include` (no model);
data files when a run loads them, before any model is loaded. Also: a CSV benchmark in
the choices/labels layout, with its languages found from the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmarks.test_include import own_registry  # noqa: F401  (the benchmarks included here are forgotten after)
from tests.cli.test_cli import run_cli, run_model

GOOD_TOML = """[benchmark]
name = "{name}"
data = "data/{{lang}}.jsonl"
languages = ["en", "es"]
"""


def row(sample_id: str, question: str = "Q?", **extra: object) -> dict:
    return {"id": sample_id, "question": question, "correct_answers": ["yes"], "incorrect_answers": ["no"], **extra}


def write_benchmark(folder: Path, name: str, rows: dict[str, list[dict]], toml: str = GOOD_TOML) -> Path:
    (folder / "data").mkdir(parents=True, exist_ok=True)
    for lang, lines in rows.items():
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines)
        (folder / "data" / f"{lang}.jsonl").write_text(text, encoding="utf-8")
    path = folder / "benchmark.toml"
    path.write_text(toml.format(name=name), encoding="utf-8")
    return path


def one_error(result) -> str:
    """The error line of a command that must end with one line and exit code 2."""
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("mlbench: error: "), result.output
    return lines[0]


def tasks_error(*paths: Path) -> str:
    return one_error(run_cli("tasks", *[arg for path in paths for arg in ("--include", path)]))


def test_missing_path_and_wrong_kind_of_file(tmp_path):
    assert "no such file or folder" in tasks_error(tmp_path / "nope.toml")
    (tmp_path / "notes.txt").write_text("hello")
    assert "not a .py file, a benchmark .toml or a folder" in tasks_error(tmp_path / "notes.txt")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # not a benchmark: skipped
    assert "no benchmark in this folder" in tasks_error(tmp_path / "empty")


def test_python_files_that_fail(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("x = 1\ndef f(:\n    pass\n")
    assert f"{broken.resolve()}:2: syntax error" in tasks_error(broken)
    raising = tmp_path / "raising.py"
    raising.write_text("import os\n\nraise ValueError('bad\\nsetting')\n")
    assert f"{raising.resolve()}:3: ValueError: bad setting" in tasks_error(raising)
    nothing = tmp_path / "nothing.py"
    nothing.write_text("from mlbench.benchmarks.base import Task\n")
    assert "registers no benchmark" in tasks_error(nothing)


def test_toml_files_that_are_not_benchmarks(tmp_path):
    plain = tmp_path / "run.toml"
    plain.write_text('model = "x"\n')
    assert "not a benchmark file (it has no [benchmark] table)" in tasks_error(plain)
    broken = tmp_path / "broken.toml"
    broken.write_text("[benchmark\nname = 1\n")
    assert f"{broken.resolve()}: invalid TOML" in tasks_error(broken)
    cases = {
        'name = "a b"\ndata = "d/{lang}.jsonl"': "benchmark.name 'a b' must be",
        'name = "t1"\ndata = "d/{lang}.jsonl"\nlenguages = ["en"]': "[benchmark] has no key 'lenguages'",
        'name = "t2"\ndata = "d/all.jsonl"': "must contain {lang} once",
        'name = "t3"\ndata = "d/{lang}.txt"': "must name .jsonl, .json, .csv, .parquet files",
        'name = "t4"\ndata = "../{lang}.jsonl"': "must be a path inside the benchmark's folder",
        'name = "t5"\ndata = "d/{lang}.jsonl"\nmodes = ["mc", "judge"]': "benchmark.modes must be some of mc, gen",
        'name = "t6"\ndata = "d/{lang}.jsonl"\n[prompt]\nquestion = "Q: {q}"': "no other field (got {q})",
        'name = "t7"\ndata = "d/{lang}.jsonl"\n[prompt]\nshot = "{question} {"': "prompt.shot:",
        'name = "t8"\ndata = "d/{lang}.jsonl"\njudges = ["truthiness"]': "no judge 'truthiness'",
        'name = "t9"\ndata = "d/{lang}.jsonl"\n[fewshot]\nshots = 2': "there is no fewshot.primer file",
    }
    for i, (body, expected) in enumerate(cases.items()):
        path = tmp_path / f"case{i}.toml"
        path.write_text(f"[benchmark]\n{body}\n")
        line = tasks_error(path)
        assert expected in line and str(path.resolve()) in line, line


def test_two_benchmarks_of_one_name(tmp_path):
    builtin = write_benchmark(tmp_path / "a", "truthfulqa_multi", {"en": [row("1")], "es": [row("1")]})
    assert "a benchmark called 'truthfulqa_multi' exists already (mlbench.benchmarks" in tasks_error(builtin)
    first = write_benchmark(tmp_path / "b", "twice", {"en": [row("1")], "es": [row("1")]})
    second = write_benchmark(tmp_path / "c", "twice", {"en": [row("1")], "es": [row("1")]})
    line = tasks_error(first, second)
    assert f"{second.resolve()}: a benchmark called 'twice' exists already ({first.resolve()})" in line
    for stem in ("one", "two"):
        (tmp_path / f"{stem}.py").write_text(SAME)
    line = tasks_error(tmp_path / "one.py", tmp_path / "two.py")
    assert f"{(tmp_path / 'two.py').resolve()}: two benchmarks are called 'same'" in line


SAME = """from mlbench.benchmarks import register
from mlbench.benchmarks.base import Task


@register
class Same(Task):
    name = "same"
    title = "Same"
    languages = ("en",)
    hub_id = "-"
    prompt_files = ()

    def load(self, lang, options):
        raise NotImplementedError
"""


@pytest.fixture(scope="module")
def model(tiny_model):
    return tiny_model


def run_error(model: Path, toml: Path, out: Path, task: str) -> str:
    return one_error(run_model(model, out, f"--task {task} --backend hf --no-cache", "--include", toml))


def test_bad_data_names_the_file_and_row(model, tmp_path):
    cases = {
        "not_parallel": ({"en": [row("1"), row("2"), row("3")], "es": [row("1"), row("4")]},
                         "es.jsonl is not parallel to", "missing ids 2, 3; extra ids 4"),
        "repeated_id": ({"en": [row("1"), row("1")], "es": [row("1")]}, "en.jsonl:2: id '1' repeats", "en.jsonl:1"),
        "no_question": ({"en": [row("1", question="  ")], "es": [row("1")]}, "en.jsonl:1: no 'question'", ""),
        "both_ways": ({"en": [row("1", correct_answers=["yes"], incorrect_answers=["yes"])], "es": [row("1")]},
                      "en.jsonl:1: 'yes' is both a correct and an incorrect answer", ""),
        "no_answers": ({"en": [{"id": "1", "question": "Q?"}], "es": [row("1")]},
                       "en.jsonl:1: needs 'correct_answers' and 'incorrect_answers', or 'choices' and 'labels'", ""),
        "bad_labels": ({"en": [{"id": "1", "question": "Q?", "choices": ["a", "b"], "labels": [1, 2]}],
                        "es": [row("1")]}, "en.jsonl:1: labels must be 0/1", ""),
        "list_question": ({"en": [row("1", question=["a"])], "es": [row("1")]},
                          "en.jsonl:1: question must be a string, not list", ""),
    }  # fmt: skip
    for name, (rows, expected, more) in cases.items():
        toml = write_benchmark(tmp_path / name, name, rows)
        line = run_error(model, toml, tmp_path / "out", name)
        assert expected in line and more in line, line
    # A line that is not JSON, and a data file that is not there.
    broken = write_benchmark(tmp_path / "broken", "broken_json", {"en": [row("1")], "es": [row("1")]})
    (broken.parent / "data" / "es.jsonl").write_text('{"id": "1",\n')
    assert "es.jsonl:1: invalid JSON" in run_error(model, broken, tmp_path / "out", "broken_json")
    missing = write_benchmark(tmp_path / "missing", "missing_file", {"en": [row("1")]})
    assert "missing_file es data not found:" in run_error(model, missing, tmp_path / "out", "missing_file")


CSV_TOML = """[benchmark]
name = "{name}"
data = "items_{{lang}}.csv"
modes = ["mc"]

[columns]
id = "key"
question = "prompt"
group = "topic"

[prompt]
question = "Question: {{question}}\\nAnswer:"
"""


def test_a_csv_benchmark_with_choices_and_labels(model, tmp_path):
    rows = {
        "en": [("a", "Sky colour?", "blue;green;red", "1;0;0", "nature"), ("b", "2+2?", "4;5", "1;0", "maths")],
        "fr": [("a", "Couleur du ciel ?", "bleu;vert;rouge", "1;0;0", "nature"), ("b", "2+2 ?", "4;5", "1;0", "maths")],
    }
    for lang, lines in rows.items():
        text = "key,prompt,choices,labels,topic\n" + "".join(",".join(cells) + "\n" for cells in lines)
        (tmp_path / f"items_{lang}.csv").write_text(text, encoding="utf-8")
    toml = tmp_path / "bench.toml"
    toml.write_text(CSV_TOML.format(name="csv_mc"), encoding="utf-8")
    out = tmp_path / "out"
    result = run_model(model, out, "--task csv_mc --backend hf --no-cache", "--include", toml)
    assert result.exit_code == 0, result.output
    run_dir = out / model.name / "csv_mc"
    results = json.loads((run_dir / "results.json").read_text())
    assert set(results["results"]) == {"en", "fr"}  # found from the files
    record = json.loads((run_dir / "samples_fr.jsonl").read_text().splitlines()[0])
    assert record["prompt"] == "Question: Couleur du ciel ?\nAnswer:"
    assert record["outputs"]["mc1_choices"] == ["bleu", "vert", "rouge"]
    assert record["outputs"]["mc2_labels"] == [1, 0, 0]
    assert "bleu_max" not in results["results"]["en"]  # mc only
    # A CSV row with more cells than the header has columns is named by its line.
    (tmp_path / "items_fr.csv").write_text("key,prompt,choices,labels,topic\na,Q,x;y,1;0,t,extra\n")
    bad = tmp_path / "bad.toml"  # another file: each file is read once per process
    bad.write_text(CSV_TOML.format(name="csv_bad"), encoding="utf-8")
    assert "items_fr.csv:2: more cells than the header" in run_error(model, bad, out, "csv_bad")


def test_options_that_do_not_fit_a_declared_benchmark(model, tmp_path):
    from tests.benchmarks.test_include import EXAMPLE

    def error(flags: str) -> str:
        return one_error(run_model(model, tmp_path, f"--task capitals --backend hf {flags}", "--include", EXAMPLE))

    assert "capitals has no embedded sample set (--sample covers: truthfulqa_multi," in error("--sample")
    assert "drop --sample to read the files benchmark.toml names, or give --data-dir DIR" in error("--sample")
    line = error("--fewshot 3 --lang de")
    assert "capitals de: 3-shot but" in line and "primer/de.jsonl has 2 rows" in line
    assert "has no mode consistency; valid: mc, gen" in error("--mode consistency")


def test_data_dir_reads_the_same_layout_elsewhere(tmp_path):
    import shutil

    from mlbench.benchmarks import get_task, include_files
    from mlbench.benchmarks.base import TaskOptions
    from mlbench.data.source import DataSource
    from tests.benchmarks.test_include import EXAMPLE

    for folder in ("data", "primer"):
        shutil.copytree(EXAMPLE / folder, tmp_path / folder)
    es = tmp_path / "data" / "es.jsonl"
    es.write_text(es.read_text(encoding="utf-8").replace("Australia?", "Australia, hoy?"), encoding="utf-8")
    include_files([EXAMPLE])
    task = get_task("capitals")
    moved = task.load("es", TaskOptions(DataSource("local", tmp_path)))
    assert moved.samples[0].question == "¿Cuál es la capital de Australia, hoy?"
    assert task.load("es", TaskOptions()).samples[0].question == "¿Cuál es la capital de Australia?"
