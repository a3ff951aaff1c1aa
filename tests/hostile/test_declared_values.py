"""Issue 50, findings 10-14 and 20: a benchmark file's own values. A format spec in a
templated path, an empty template list, a thousand templates in an error line, a [vars]
name that clashes with a field mlbench gives, a [labels] column that no row has, and a
file name longer than a file system holds. Each is one line naming the key, exit 2."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.benchmarks.test_include import own_registry  # noqa: F401  (what is included here is forgotten after)
from tests.cli.test_cli import run_cli, run_model
from tests.cli.test_errors import assert_one_line_error

pytestmark = pytest.mark.usefixtures("own_registry")

SHIPPED = Path(__file__).resolve().parents[2] / "mlbench" / "benchmarks" / "declared" / "nortruthfulqa.toml"


def _nor_file(folder: Path, *edits: tuple[str, str]) -> Path:
    """The shipped NorTruthfulQA file as a user's own benchmark (``mynor``), edited."""
    text = SHIPPED.read_text(encoding="utf-8").replace('name = "nortruthfulqa"', 'name = "mynor"')
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "mynor.toml"
    path.write_text(text, encoding="utf-8")
    return path


NAMES = 'names = ["p0", "p1", "p2", "p3", "p4"]'
PATH = "nortruthfulqa_mc_{standard}_{template}.yaml"


@pytest.mark.parametrize("command", ["tasks", "run"])
def test_10_a_format_spec_in_a_template_path_is_refused(tmp_path, command, tiny_model):
    path = _nor_file(tmp_path, (PATH, "nortruthfulqa_mc_{standard}_{template:x>20000000}.yaml"))
    started = time.monotonic()
    args = ("--model", tiny_model, "--task", "mynor") if command == "run" else ()
    result = run_cli(command, "--include", path, *args)
    assert_one_line_error(result, "templates.mc may hold", "each bare", "{template:x>20000000}")
    assert len(result.stderr) < 400 and time.monotonic() - started < 30


@pytest.mark.parametrize("command", ["tasks", "run"])
def test_11_an_empty_template_list_is_one_line(tmp_path, command, tiny_model):
    path = _nor_file(tmp_path, (NAMES, "names = []"))
    args = ("--model", tiny_model, "--task", "mynor") if command == "run" else ()
    assert_one_line_error(run_cli(command, "--include", path, *args), "templates.names is empty")


def test_12_a_thousand_templates_make_a_short_error_line(tmp_path, tiny_model):
    names = ", ".join(f'"p{i}"' for i in range(1, 1001))
    path = _nor_file(tmp_path, (NAMES, f"names = [{names}]"))
    result = run_model(tiny_model, tmp_path / "out", "--include", path, "--task", "mynor", "-T", "prompt=p1001")
    assert_one_line_error(result, "p1001", "and 981 more")
    assert len(result.stderr) < 600, len(result.stderr)


@pytest.mark.parametrize("name", ["config", "split"])
def test_13_a_vars_name_that_mlbench_gives_is_refused(tmp_path, name):
    path = _nor_file(
        tmp_path,
        ('nb = { standard = "nob" }', f'nb = {{ standard = "nob", {name} = "x" }}'),
        ('nn = { standard = "nno" }', f'nn = {{ standard = "nno", {name} = "y" }}'),
    )
    result = run_cli("tasks", "--include", path)
    assert_one_line_error(result, f"vars.nb.{name}", "other than lang, template, config, split")


def _labelled_benchmark(folder: Path, column: str, name: str = "labelled") -> Path:
    """A small benchmark of the bundled sample's layout, its ``source`` column a label."""
    (folder / "data").mkdir(parents=True)
    rows = [
        {"id": f"q{i}", "question": f"Question {i}?", "best_answer": "Yes.", "correct_answers": ["Yes."],
         "incorrect_answers": ["No.", "Maybe."], "source": f"origin {i}"}
        for i in range(3)
    ]  # fmt: skip
    (folder / "data" / "en.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    path = folder / "labelled.toml"
    path.write_text(
        f'[benchmark]\nname = "{name}"\ndata = "data/{{lang}}.jsonl"\nlanguages = ["en"]\nmodes = ["mc"]\n'
        f'[labels]\nsource = "{column}"\n',
        encoding="utf-8",
    )
    return path


def test_14_a_labels_column_no_row_has_is_one_line(tmp_path, tiny_model):
    path = _labelled_benchmark(tmp_path / "bench", "sorce")
    result = run_model(tiny_model, tmp_path / "out", "--include", path, "--task", "labelled", "--no-cache")
    assert_one_line_error(result, "no row has the column 'sorce'", "labels.source", "its columns:", "source")
    spelt_right = _labelled_benchmark(tmp_path / "ok", "source", name="labelled_right")
    correct = run_model(
        tiny_model, tmp_path / "out2", "--include", spelt_right, "--task", "labelled_right", "--no-cache"
    )
    assert correct.exit_code == 0, correct.output


@pytest.mark.parametrize(
    ("key", "value"),
    [("data", "data/" + "d" * 300 + "_{lang}.jsonl"), ("data", "data/{lang:x>300}.jsonl")],
    ids=["literal", "format-spec"],
)
def test_20_a_data_file_name_past_the_file_system_is_one_line(tmp_path, tiny_model, key, value):
    path = _labelled_benchmark(tmp_path / "bench", "source")
    path.write_text(path.read_text(encoding="utf-8").replace('data = "data/{lang}.jsonl"', f'data = "{value}"'))
    result = run_model(tiny_model, tmp_path / "out", "--include", path, "--task", "labelled", "--no-cache")
    assert_one_line_error(result, f"benchmark.{key}")
    assert re.search(r"a file name of \d+ bytes|each bare", result.stderr), result.stderr


def test_20_a_primer_file_name_past_the_file_system_is_one_line(tmp_path, tiny_model):
    path = _labelled_benchmark(tmp_path / "bench", "source")
    primer = 'fewshot_primer = "' + "p" * 300 + '.jsonl"\n'
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "[labels]", "[fewshot]\n" + primer.replace("fewshot_", "") + "[labels]"
        )
    )
    result = run_model(tiny_model, tmp_path / "out", "--include", path, "--task", "labelled", "--no-cache")
    assert_one_line_error(result, "fewshot.primer", "a file name of 306 bytes")
