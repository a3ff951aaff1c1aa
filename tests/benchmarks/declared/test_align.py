"""A benchmark file's ``[align]``: TruthfulQA's row of each question from a column (at an
offset), or why the benchmark cannot be aligned; the shipped translations of TruthfulQA
say which they are, and ``mlbench tasks`` shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.declarative.data import read_language
from mlbench.benchmarks.declarative.spec import read_spec
from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.errors import MlbenchError
from tests.benchmarks.declared.template_fixture import write_template_copy
from tests.cli.test_cli import run_cli
from tests.upstream_pins import pin_fixture_copies

HEAD = """[benchmark]
name = "mine"
data = "data/{lang}.jsonl"
languages = ["de"]
"""


def _benchmark(tmp_path: Path, align: str, rows: list[dict]) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    lines = [json.dumps(row) for row in rows]
    (tmp_path / "data" / "de.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml = tmp_path / "benchmark.toml"
    toml.write_text(HEAD + align, encoding="utf-8")
    return toml


def _row(number: int, **more) -> dict:
    return {"id": f"q{number}", "question": f"Frage {number}?", "correct_answers": ["Ja."],
            "incorrect_answers": ["Nein."], **more}  # fmt: skip


def test_a_column_at_an_offset_labels_each_question(tmp_path):
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "meta.row"\noffset = -1\n',
                      [_row(1, meta={"row": 1}), _row(2, meta={"row": "817"})])  # fmt: skip
    samples = read_language(read_spec(toml), "de").samples
    assert [s.meta[TQA_INDEX_LABEL] for s in samples] == ["0", "816"]
    assert read_spec(toml).align.alignment.how == "TruthfulQA's row = the column meta.row - 1"


def test_a_row_without_the_column_or_with_no_row_there_is_refused(tmp_path):
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', [_row(1, row=3), _row(2)])
    with pytest.raises(MlbenchError, match=r"de\.jsonl:2: no 'row' \(align\.tqa_index\)"):
        read_language(read_spec(toml), "de")
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "row"\n', [_row(1, row=900)])
    with pytest.raises(MlbenchError, match="900 is no TruthfulQA row"):
        read_language(read_spec(toml), "de")


@pytest.mark.parametrize(
    ("align", "said"),
    [
        ('[align]\ntqa_index = "id"\nunaligned = "no"\n', "takes one of tqa_index (a column), english"),
        ('[align]\nenglish = "en"\nunaligned = "no"\n', "takes one of tqa_index (a column), english"),
        ("[align]\noffset = 1\n", "takes one of tqa_index (a column), english"),
        ('[align]\nenglish = "en"\noffset = 1\n', "align.offset goes with align.tqa_index"),
        ('[align]\nunaligned = "no"\ntranslator = "DeepL"\n', "align.translator goes with align.translation"),
        ('[align]\nunaligned = "rewritten"\noffset = 1\n', "align.offset goes with align.tqa_index"),
        ('[align]\ntqa_index = "id"\noffset = 900\n', "align.offset must be a whole number between -816 and 816"),
        ('[align]\ntqa_index = "id"\noffset = true\n', "align.offset must be a whole number"),
        ('[align]\ntqa_index = ""\n', "align.tqa_index must be a non-empty string"),
        ('[align]\ntqa_index = "id"\ncolumn = "id"\n', "column"),
        ('[labels]\ntqa_index = "id"\n', "other than template, question_id, group, tqa_index ([align])"),
        ('[[align]]\ntqa_index = "id"\n', "align must be a table ([align])"),
    ],
)
def test_mistakes_in_align_are_one_line(tmp_path, align, said):
    toml = _benchmark(tmp_path, align, [_row(1)])
    with pytest.raises(MlbenchError, match="benchmark.toml") as caught:
        read_spec(toml)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_the_shipped_translations_say_whether_they_align():
    assert get_task("truthfulqax").alignment.aligned and get_task("truthfulqax_gen").alignment.aligned
    for name, why in [("m_truthfulqa", "no id and no English text"), ("nortruthfulqa", "written anew"),
                      ("nortruthfulqa_gen", "written anew"), ("aradice_truthfulqa", "no id")]:  # fmt: skip
        alignment = get_task(name).alignment
        assert not alignment.aligned and alignment.how.startswith("cannot be aligned: ") and why in alignment.how


def test_truthfulqax_rows_carry_their_id_as_the_row(tmp_path, monkeypatch):
    copy = write_template_copy(tmp_path)
    pin_fixture_copies(monkeypatch, copy)
    task = get_task("truthfulqax")
    spec = task.spec
    rows = read_language(spec, "de", copy / "truthfulqax")
    assert [(s.id, s.meta[TQA_INDEX_LABEL]) for s in rows.samples] == [("0", "0"), ("1", "1")]


def test_mlbench_tasks_shows_it_and_its_json_carries_it():
    shown = run_cli("tasks", "truthfulqax")
    assert (
        shown.exit_code == 0 and "aligned (report --align tqa_index): TruthfulQA's row = the column id" in shown.output
    )
    unaligned = run_cli("tasks", "m_truthfulqa")
    assert "cannot be aligned: Okapi's rows carry no id" in " ".join(unaligned.output.split())
    listed = json.loads(run_cli("tasks", "truthfulqa_multi", "--json").output)["task"]
    assert listed["alignment"]["aligned"] is True and "id - 1" in listed["alignment"]["how"]
    assert json.loads(run_cli("tasks", "msqad", "--json").output)["task"]["alignment"] is None


def test_a_benchmark_says_how_it_was_translated_and_mlbench_tasks_shows_it(tmp_path):
    """What the authors' chi-square takes as its expected side (a human translation), where a
    benchmark says: TruthfulQA-Multi's human one, its MT twin's and TruthfulQA-X's machine ones."""
    kinds = {name: get_task(name).alignment.translation for name in
             ("truthfulqa_multi", "truthfulqa_multi_mt", "truthfulqax", "truthfulqax_gen", "m_truthfulqa")}  # fmt: skip
    assert kinds == {"truthfulqa_multi": "human", "truthfulqa_multi_mt": "machine", "truthfulqax": "machine",
                     "truthfulqax_gen": "machine", "m_truthfulqa": "machine"}  # fmt: skip
    translators = {name: get_task(name).alignment.translator for name in kinds}
    assert translators == {"truthfulqa_multi": "professional translators",
                           "truthfulqa_multi_mt": "Claude 3.5 Sonnet", "truthfulqax": "DeepL",
                           "truthfulqax_gen": "DeepL", "m_truthfulqa": "GPT-3.5-turbo"}  # fmt: skip
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "id"\ntranslation = "human"\n', [_row(1)])
    assert read_spec(toml).align.alignment.translation == "human"
    toml = _benchmark(tmp_path, '[align]\ntqa_index = "id"\ntranslation = "deepl"\n', [_row(1)])
    with pytest.raises(MlbenchError, match=r"align\.translation is one of human, machine"):
        read_spec(toml)
    shown = " ".join(run_cli("tasks", "truthfulqa_multi_mt").output.split())
    assert "translation: machine (Claude 3.5 Sonnet)" in shown and "licence (its data's): Apache-2.0" in shown
    listed = json.loads(run_cli("tasks", "truthfulqa_multi", "--json").output)["task"]
    assert listed["alignment"]["translation"] == "human"
