"""VeritasQA aligned with TruthfulQA through the TruthfulQA-Multi authors' map: the
questions VeritasQA took from TruthfulQA carry its row, so a VeritasQA run and a
TruthfulQA-Multi run of one language are two professional translations of the same
questions, paired in ``report --align tqa_index``; every VeritasQA question is universal."""

from __future__ import annotations

import json
import shutil

import pytest

from mlbench.benchmarks import get_task
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.alignment import SCOPE_LABEL, TQA_INDEX_LABEL
from mlbench.data.source import DataSource
from tests.benchmarks.truthfulqa_multi.fixtures import SCOPE_MAP_ROWS
from tests.benchmarks.veritasqa.fixtures import VERITAS
from tests.cli.test_cli import run_cli, run_model


def test_the_questions_the_map_names_carry_their_truthfulqa_row(scoped_datasets):
    task = get_task("veritasqa")
    samples = task.load("gl", TaskOptions(DataSource("local", scoped_datasets))).samples
    rows = {s.id: s.meta.get(TQA_INDEX_LABEL) for s in samples}
    assert rows == {s.id: str(SCOPE_MAP_ROWS[s.id] - 1) if s.id in SCOPE_MAP_ROWS else None for s in samples}
    assert {s.meta[SCOPE_LABEL] for s in samples} == {"universal"}  # VeritasQA's own questions too
    labels = task.sample_labels(samples[5])
    assert labels[TQA_INDEX_LABEL] == str(SCOPE_MAP_ROWS[samples[5].id] - 1) and labels[SCOPE_LABEL] == "universal"
    assert "288 of 353 align" in task.alignment.how and task.alignment.translation == "human"


@pytest.fixture(scope="module")
def two_catalan_runs(tiny_model, scoped_datasets, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    for task in ("veritasqa", "truthfulqa_multi"):
        result = run_model(tiny_model, out, f"--task {task} --lang ca,en --mode mc --backend hf --no-cache",
                           "--data-dir", scoped_datasets)  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "not at hand" not in result.output
    return out


def _report(out, folder, *flags: str) -> dict:
    result = run_cli("report", out, *flags, "--format", "json", "--out", folder)
    assert result.exit_code == 0, result.output
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


def test_veritasqa_gap_to_truthfulqa_multis_catalan_is_paired_on_the_shared_questions(two_catalan_runs, tmp_path):
    payload = _report(two_catalan_runs, tmp_path, "--align", "tqa_index", "--ref-lang", "ca (truthfulqa_multi)")
    assert payload["ref_lang"] == "ca (truthfulqa_multi)"
    mc1 = next(t for t in payload["tables"] if t["metric"] == "mc1")
    cells = mc1["rows"][0]["cells"]
    shared = len(SCOPE_MAP_ROWS)  # 7 of VeritasQA's 12 fixture questions are TruthfulQA's
    assert cells["ca (veritasqa)"]["n"] == shared and cells["ca (truthfulqa_multi)"]["n"] == 20
    assert cells["ca (veritasqa)"]["gap_n"] == shared and cells["ca (veritasqa)"]["paired"] is True
    assert cells["ca (veritasqa)"]["test"] == "mcnemar"
    # Two translations of Catalan, compared question by question on the shared ones; the
    # authors' chi-square takes the named reference's counts as the expected ones.
    catalan = next(r for r in payload["translations"] if r["metric"] == "mc1" and r["lang"] == "ca")
    assert set(catalan["scores"]) == {"truthfulqa_multi", "veritasqa"} and catalan["n"] == shared
    assert catalan["translations"] == {"truthfulqa_multi": "human", "veritasqa": "human"}
    (pair,) = catalan["pairs"]
    assert pair["n"] == shared and pair["authors_chi_square"]["expected"] == "truthfulqa_multi"
    own = len(VERITAS) - shared
    assert any(f"veritasqa · ca: {own} question(s) without tqa_index left out" in note for note in payload["notes"])


def test_report_by_scope_splits_truthfulqa_multi_into_universal_and_local(two_catalan_runs, tmp_path):
    payload = _report(two_catalan_runs, tmp_path, "--by", "scope")
    tables = [t for t in payload["tables"] if t["metric"] == "mc1"]
    n = {(t["task"], lang): cell["n"] for t in tables for row in t["rows"] for lang, cell in row["cells"].items()}
    shared = len(SCOPE_MAP_ROWS)
    assert n[("truthfulqa_multi · scope=universal", "ca")] == shared
    assert n[("truthfulqa_multi · scope=local", "ca")] == 20 - shared
    assert n[("veritasqa · scope=universal", "ca")] == len(VERITAS)  # VeritasQA holds universal questions only
    assert not any(task == "veritasqa · scope=local" for task, _ in n)


def test_a_resume_without_the_map_keeps_the_rows_it_cannot_read(tiny_model, scoped_datasets, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(scoped_datasets / "veritasqa", data / "veritasqa")
    shutil.copytree(scoped_datasets / "upstream", data / "upstream")
    out = tmp_path / "out"
    flags = "--task veritasqa --lang ca --mode mc --backend hf --no-cache"
    first = run_model(tiny_model, out, f"{flags} --limit 4", "--data-dir", data)
    assert first.exit_code == 0, first.output
    samples = out / tiny_model.name / "veritasqa" / "samples_ca.jsonl"

    def rows() -> dict[str, str | None]:
        lines = samples.read_text(encoding="utf-8").splitlines()
        return {json.loads(line)["id"]: json.loads(line)["labels"].get(TQA_INDEX_LABEL) for line in lines}

    before = rows()
    assert any(before.values())
    # The same data without the map beside it: a limited draw went by the rows, so it is refused...
    shutil.rmtree(data / "upstream")
    limited = run_model(tiny_model, out, f"{flags} --limit 6 --resume", "--data-dir", data)
    assert limited.exit_code == 2
    assert "drawn by --limit from TruthfulQA's rows, which this run cannot read" in " ".join(limited.output.split())
    # ...and a whole run resumes with the saved rows kept, told why none are new.
    whole = run_model(tiny_model, out, f"{flags} --resume", "--data-dir", data)
    assert whole.exit_code == 0, whole.output
    assert "its questions carry no TruthfulQA row" in " ".join(whole.output.split())
    after = rows()
    assert {i: after[i] for i in before} == before and len(after) == len(VERITAS)
