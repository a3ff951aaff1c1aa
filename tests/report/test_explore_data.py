"""`mlbench explore`: the page's data from the runs' own files, the HTML's safety, and the
CLI's answers to bad input."""

from __future__ import annotations

import json
import re

import pytest

from mlbench.report.explore_data import explorer_data
from mlbench.report.explore_page import data_block, explorer_page
from tests.cli.test_cli import run_cli
from tests.report.explore_runs import PAYLOAD_SCRIPT, make_explore_runs


@pytest.fixture(scope="module")
def explore_runs(tiny_model, make_tiny_model, tmp_path_factory):
    root = tmp_path_factory.mktemp("explore")
    other = make_tiny_model(root / "models" / "other", size="tiny", seed=1)
    return make_explore_runs(root / "out", tiny_model, other)


def test_every_question_language_and_model_is_a_cell(explore_runs, tiny_model):
    data = explorer_data([explore_runs])
    assert data.models == ["other", "tiny"] and not data.skipped  # in path order
    tiny = data.models.index("tiny")
    tqa = data.tasks["truthfulqa_multi"]
    assert tqa.langs == ["en", "es"] and len(tqa.questions) == 8
    assert all(len(cells) == 4 for cells in tqa.questions.values())  # 2 languages × 2 models
    lines = (explore_runs / "tiny" / "truthfulqa_multi" / "samples_es.jsonl").read_text().splitlines()
    saved = {r["id"]: r for r in map(json.loads, lines)}
    for question_id, cells in tqa.questions.items():
        (cell,) = [c for c in cells if c["l"] == "es" and c["mo"] == tiny]
        record = saved[question_id]
        assert cell["q"] == record["question"] and cell["a"] == record["outputs"]["answer"]
        assert cell["m"] == record["metrics"]
        # The options as scored: the probabilities sum to 1, the correct ones as the data marks them.
        assert abs(sum(p for _, p, _ in cell["o"]) - 1) < 1e-3
        assert [c for _, _, c in cell["o"]] == [o["correct"] for o in record["outputs"]["options"]]
    assert tqa.metrics["mc1"]["binary"] is True and tqa.metrics["mc2"]["binary"] is False


def test_markup_in_the_data_stays_text(explore_runs):
    page = explorer_page(explorer_data([explore_runs]))
    block = re.search(r'<script id="explorer-data" type="application/json">(.*?)</script>', page, re.S).group(1)
    assert "<" not in block  # so no </script> can end the block early
    questions = json.loads(block)["tasks"]["veritasqa"]["questions"]
    assert PAYLOAD_SCRIPT in questions[0]["cells"][0]["q"]
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert page.count("<script") == 2  # the data block and the explorer's own script, nothing else


def test_data_block_escapes_what_would_end_a_script():
    from mlbench.report.explore_data import ExplorerData

    data = ExplorerData(models=["m"], skipped=["</script><script>alert(1)</script>\u2028"])
    text = data_block(data)
    assert "<" not in text and "\u2028" not in text and json.loads(text)["skipped"] == data.skipped


def test_cli_writes_the_page_and_lists_what_it_skipped(explore_runs, tmp_path):
    broken = tmp_path / "broken" / "m" / "t"
    broken.mkdir(parents=True)
    (broken / "results.json").write_text("{}")
    out = tmp_path / "page.html"
    result = run_cli("explore", explore_runs, tmp_path / "empty-folder", tmp_path / "broken", "-o", out)
    assert result.exit_code == 0, result.output
    assert "skipped: no such results folder" in result.output
    assert f"skipped: {broken / 'results.json'}" in result.output
    assert "explorer in" in result.output and "(11 questions, 2 models)" in result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_nothing_to_show_is_exit_2(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run_cli("explore", tmp_path / "empty", "-o", tmp_path / "page.html")
    assert result.exit_code == 2 and "nothing to explore" in result.output
    assert not (tmp_path / "page.html").exists()
    folder = run_cli("explore", tmp_path, "-o", tmp_path)
    assert folder.exit_code == 2 and "is a folder" in folder.output


def test_a_slices_file_adds_labels_of_ones_own(explore_runs, tmp_path):
    from mlbench.report.slices import read_slices

    ids = sorted(explorer_data([explore_runs]).tasks["truthfulqa_multi"].questions)[:3]
    path = tmp_path / "slices.csv"
    path.write_text(
        "id,task,context\n" + f"{ids[0]},,cultural\n{ids[1]},truthfulqa_multi,general\n{ids[2]},veritasqa,x\n"
    )
    data = explorer_data([explore_runs], read_slices(path))
    questions = data.tasks["truthfulqa_multi"].questions
    assert {c["s"]["context"] for c in questions[ids[0]]} == {"cultural"}
    assert {c["s"]["context"] for c in questions[ids[1]]} == {"general"}
    assert all("context" not in c.get("s", {}) for c in questions[ids[2]])  # that row is another benchmark's
    assert all(c["s"]["category"] for c in questions[ids[0]])  # the data's own labels stay


@pytest.mark.parametrize(
    ("text", "message"),
    [("question,context\n1,a\n", "with an id column"), ("id\n1\n", "no slice column"),
     ("id,context\n1,a\n1,b\n", "labelled twice"), ("id,context\n1,a,b\n", "more cells than the header")],
)  # fmt: skip
def test_a_bad_slices_file_is_one_line(tmp_path, text, message):
    path = tmp_path / "slices.csv"
    path.write_text(text)
    result = run_cli("explore", tmp_path, "--slices", path, "-o", tmp_path / "page.html")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_corrupt_samples_file_is_skipped_and_the_rest_shown(explore_runs, tmp_path):
    import shutil

    copy = tmp_path / "runs"
    shutil.copytree(explore_runs, copy)
    path = copy / "tiny" / "truthfulqa_multi" / "samples_es.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    out = tmp_path / "page.html"
    result = run_cli("explore", copy, "-o", out)
    assert result.exit_code == 0, result.output
    assert "skipped: tiny · truthfulqa_multi · es:" in result.output
    data = explorer_data([copy])
    cells = data.tasks["truthfulqa_multi"].questions[lines and json.loads(lines[0])["id"]]
    tiny = data.models.index("tiny")
    assert {(c["l"], c["mo"]) for c in cells} == {("en", 0), ("es", 0), ("en", 1), ("es", 1)} - {("es", tiny)}
    assert any("tiny · truthfulqa_multi · es" in line for line in data.skipped)


def test_a_metric_with_a_setting_takes_its_base_metrics_description():
    from mlbench.report.explore_data import TaskView, _add_seen_metrics

    share = {"binary": True, "higher": False, "decimals": 3, "share": True, "headline": True}
    task = TaskView(metrics={"wrong_language": share, "refusal": dict(share)})
    task.questions = {"q": [{"m": {"wrong_language@adversarial": 1.0, "mc9": 0.5}}]}
    _add_seen_metrics(task)
    assert task.metrics["wrong_language@adversarial"] == share
    assert task.metrics["mc9"]["higher"] is None  # described nowhere
    assert "refusal" not in task.metrics and "wrong_language" not in task.metrics  # no sample holds them


def test_a_refusal_of_either_response_is_a_flag():
    from mlbench.records import SampleRecord
    from mlbench.report.explore_data import cell

    record = SampleRecord("q", "en", metrics={"refusal@direct": 0.0, "refusal@adversarial": 1.0}, question="Q?")
    assert cell(record, "en", 0)["f"] == ["refusal"]
    assert "f" not in cell(SampleRecord("q", "en", metrics={"refusal@direct": 0.0}, question="Q?"), "en", 0)
