"""scripts/parity_templates.py without lm-eval: the rows of real text it adds to each hub
layout are read by the declared tasks, lm-eval's task files are named per language and
template, and they are copied to where mlbench reads them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

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
                 "mc2_targets": {"choices": ["yes", "sure", "no"], "labels": [1, 1, 0]}, "best_answer": "Yes",
                 "correct_answers": ["Yes", "Sure"], "incorrect_answers": ["No"]} for i in range(3)]  # fmt: skip
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
    for name, lang, before in (("nortruthfulqa_gen", "nn", 1), ("truthfulqax_gen", "el", 2)):
        samples = get_task(name).load(lang, TaskOptions(source=DataSource("local", copy))).samples
        assert len(samples) == before + 6 and samples[before].question == "es q0?"
        assert samples[-1].correct_answers == ("Yes", "Sure") and samples[-1].incorrect_answers == ("No",)


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


def test_the_generation_tasks_files(parity_templates, tmp_path):
    tasks_dir = tmp_path / "site" / "lm_eval" / "tasks"
    files = parity_templates.lm_eval_task_files("nortruthfulqa_gen", tasks_dir)
    assert len(files) == 10 and files["nb@p4"][0] == (
        tasks_dir / "noreval/nortruthfulqa/generation/nob/nortruthfulqa_gen_nob_p4.yaml"
    )
    tqax = parity_templates.lm_eval_task_files("truthfulqax_gen", tasks_dir, (tmp_path / "ogx", ["el", "pt"]))
    assert set(tqax) == {"el@gen", "pt@gen"} and tqax["pt@gen"][0].name == "ogx_truthfulqax_gen_pt-pt.yaml"
    assert parity_templates.run_langs("truthfulqax_gen", (tmp_path / "ogx", ["el"])) == ["el"]
    assert parity_templates.data_file(tmp_path, "truthfulqax_gen", "pt").name == "truthfulqa_gen_PT-PT_validation.jsonl"


def _logged(copy: Path, lang: str, row: int, completion: str, until: list[str], budget: int) -> dict:
    """A row as the driver writes lm-eval's log of a generation task."""
    question = json.loads((copy / "nortruthfulqa_gen" / lang / "validation.jsonl").read_text().splitlines()[row])
    return {"context": "?", "question": question["question"].strip(), "completion": completion, "until": until,
            "max_new_tokens": budget, "bleu_max": 0.0, "bleu_acc": 0.0, "bleu_diff": 0.0}  # fmt: skip


def test_mlbench_scores_lm_evals_completion_and_compares_the_stop_rules(parity_templates, tmp_path, monkeypatch):
    copy = write_template_copy(tmp_path / "copy")
    pin_fixture_copies(monkeypatch, copy)
    task = get_task("nortruthfulqa_gen")
    answer = " Den passerer gjennom magen."
    other = {"0": _logged(copy, "nb", 0, answer, ["\n"], 7), "1": _logged(copy, "nb", 1, " Ja", ["\n\n"], 7)}
    scored = parity_templates.mlbench_scores("nortruthfulqa_gen", "nb", "p1", copy, other)

    from mlbench.records import Generation

    sample = task.load("nb", TaskOptions(source=DataSource("local", copy))).samples[0]
    _, expected = task.score_gen(sample, Generation(answer, 0, "stop"))
    assert scored["0"]["bleu_max"] == expected["bleu_max"] == pytest.approx(100.0) and scored["0"]["bleu_acc"] == 1.0
    assert scored["0"]["same_stop"] and not scored["1"]["same_stop"]  # the fixture stops at a newline
    other["1"]["question"] = "Another question?"
    with pytest.raises(parity_templates.ParityError, match="question is not lm-eval's"):
        parity_templates.mlbench_scores("nortruthfulqa_gen", "nb", "p1", copy, other)


def _record(prompt: str, text: str, bleu: tuple[float, float, float]) -> SimpleNamespace:
    metrics = dict(zip(("bleu_max", "bleu_acc", "bleu_diff"), bleu, strict=True))
    return SimpleNamespace(prompt=prompt, outputs={"generation": text}, metrics=metrics)


def test_report_gen_passes_only_what_is_the_same_everywhere(parity_templates, capsys):
    other = {"0": {"context": "Q?", "completion": " A.", "until": ["\\n"], "max_new_tokens": 64, "bleu_max": 50.0,
                   "bleu_acc": 1.0, "bleu_diff": 10.0}}  # fmt: skip
    scored = {"0": {"bleu_max": 50.0, "bleu_acc": 1.0, "bleu_diff": 10.0, "same_stop": True}}
    mine = {"0": _record("Q?", " A.", (50.0, 1.0, 10.0))}
    assert parity_templates.report_gen("x nb p0", mine, other, scored)
    assert "completions identical: 1/1" in capsys.readouterr().out
    cases = [
        ({"0": _record("Q ?", " A.", (50.0, 1.0, 10.0))}, scored, "prompts identical: False"),
        ({"0": _record("Q?", " B.", (0.0, 0.0, 0.0))}, scored, "completions identical: 0/1"),
        (mine, {"0": {**scored["0"], "bleu_diff": 10.1}}, "3 metrics (BLEU) · max diff on lm-eval's text 1.0e-01"),
        (mine, {"0": {**scored["0"], "same_stop": False}}, "stop rules identical: False"),
        ({"0": _record("Q?", " A.", (50.0, 0.0, 10.0))}, scored, "on the run's 1.0e+00"),
    ]
    for records, scores, shown in cases:
        assert not parity_templates.report_gen("x nb p0", records, other, scores)
        out = capsys.readouterr().out
        assert shown in out and "MISMATCH" in out


def test_report_gen_compares_rouge_where_lm_eval_logged_it(parity_templates, capsys):
    rouge = {f"{kind}_{part}": 20.0 for kind in ("rouge1", "rouge2", "rougeL") for part in ("max", "acc", "diff")}
    other = {"0": {"context": "Q?", "completion": " A.", "until": ["\\n"], "max_new_tokens": 64, "bleu_max": 50.0,
                   "bleu_acc": 1.0, "bleu_diff": 10.0, **rouge}}  # fmt: skip
    scored = {"0": {"bleu_max": 50.0, "bleu_acc": 1.0, "bleu_diff": 10.0, **rouge, "same_stop": True}}
    mine = {"0": _record("Q?", " A.", (50.0, 1.0, 10.0))}
    mine["0"].metrics |= rouge
    assert parity_templates.report_gen("x nb p0", mine, other, scored)
    assert "12 metrics (BLEU, ROUGE)" in capsys.readouterr().out
    off = {"0": {**scored["0"], "rougeL_diff": 20.5}}
    assert not parity_templates.report_gen("x nb p0", mine, other, off)
    assert "max diff on lm-eval's text 5.0e-01" in capsys.readouterr().out


def test_rows_left_out_are_compared_with_those_lm_evals_code_fails_on(parity_templates, tmp_path, capsys):
    left = [{"reason": "no incorrect answer", "ids": ["9", "10"]}, {"reason": "no 0", "ids": ["6"], "metric": "mc2"}]
    (tmp_path / "results.json").write_text(json.dumps({"config": {"data_left_out": {"de": left}}}))
    assert parity_templates.report_left_out("x de gen", tmp_path, "de", "gen", {"9": "ValueError", "10": "ValueError"})
    assert parity_templates.report_left_out("x de mc2", tmp_path, "de", "mc2", {"9": "", "10": "", "6": ""})
    assert not parity_templates.report_left_out("x de mc1", tmp_path, "de", "mc1", {"9": ""})
    assert "MISMATCH" in capsys.readouterr().out.splitlines()[-1]
