"""scripts/parity_templates.py without lm-eval: the rows of real text it adds to each hub
layout are read by the declared tasks, lm-eval's task files are named per language and
template, and they are copied to where mlbench reads them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import DataSource
from tests.benchmarks.declared.template_fixture import write_template_copy
from tests.upstream_pins import pin_fixture_copies

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def parity_templates():
    sys.path.insert(0, str(SCRIPTS))  # it imports parity_lm_eval as a sibling
    try:
        import parity_templates

        yield parity_templates
    finally:
        sys.path.remove(str(SCRIPTS))


def _multi(root: Path) -> Path:
    for lang in ("es", "ca", "eu"):
        rows = [{"question": f"{lang} q{i}?", "mc1_targets": {"choices": ["yes", "no"], "labels": [1, 0]},
                 "mc2_targets": {"choices": ["yes", "sure", "no"], "labels": [1, 1, 0]}} for i in range(3)]  # fmt: skip
        (root / "truthfulqa-multi" / lang).mkdir(parents=True)
        (root / "truthfulqa-multi" / lang / "validation.json").write_text(json.dumps(rows), encoding="utf-8")
    return root


def test_real_text_joins_every_layout_and_the_tasks_read_it(parity_templates, tmp_path, monkeypatch):
    copy = write_template_copy(tmp_path / "copy")
    pin_fixture_copies(monkeypatch, copy)
    parity_templates.add_real_text(_multi(tmp_path / "shared"), copy, limit=2)
    for name, lang, before in (("nortruthfulqa", "nn", 3), ("aradice_truthfulqa", "arz", 3), ("truthfulqax", "el", 2)):
        task = get_task(name)
        samples = task.load(lang, TaskOptions(source=DataSource("local", copy))).samples
        assert len(samples) == before + 6 and samples[before].question == "es q0?"
        assert samples[-1].mc1_choices == ("yes", "no")
    tqax = get_task("truthfulqax").load("de", TaskOptions(source=DataSource("local", copy))).samples
    assert [s.id for s in tqax][-2:] == ["6", "7"] and tqax[-1].mc2_labels == (1, 1, 0)


def test_lm_evals_task_files_and_where_mlbench_reads_them(parity_templates, tmp_path):
    tasks_dir = tmp_path / "site" / "lm_eval" / "tasks"
    files = parity_templates.lm_eval_task_files("nortruthfulqa", tasks_dir)
    assert len(files) == 10 and files["nn@p3"] == (
        tasks_dir / "noreval/nortruthfulqa/multiple_choice/nno/nortruthfulqa_mc_nno_p3.yaml",
        "validation",
    )
    assert parity_templates.lm_eval_task_files("aradice_truthfulqa", tasks_dir)["apc@default"][0].name == (
        "truthfulqa_mc1_lev.yaml"
    )
    tqax = parity_templates.lm_eval_task_files("truthfulqax", tasks_dir, (tmp_path / "ogx", ["pt"]))
    assert set(tqax) == {"pt@mc1", "pt@mc2"} and tqax["pt@mc2"][0].name == "ogx_truthfulqax_mc2_pt-pt.yaml"
    for path, _ in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("task: x\n")
    (files["nb@p0"][0].parent / "utils.py").write_text("def p0_nb(doc):\n    return doc\n")
    copy = tmp_path / "copy"
    parity_templates._copy_task_files(copy, "nortruthfulqa", [p for p, _ in files.values()], tasks_dir.parent.parent)
    base = copy / "upstream/nortruthfulqa/lm_eval/tasks/noreval/nortruthfulqa/multiple_choice"
    assert (base / "nob/utils.py").is_file() and (base / "nno/nortruthfulqa_mc_nno_p4.yaml").is_file()
