"""``mlbench report --align tqa_index``: a language of one benchmark against a language of
another, questions paired by TruthfulQA's row, with the report's own tests, intervals and
Holm correction, n = the questions both answered."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from mlbench.report.alignment import ALIGNED_TASK, aligned_runs, column_name, nonempty, parse_column
from mlbench.report.collect import collect
from mlbench.report.make import make_report
from mlbench.report.slicing import available_fields, slice_collection
from mlbench.stats.multiple import holm
from mlbench.stats.paired import mcnemar_counts
from tests.cli.test_cli import run_cli
from tests.report.aligned_runs import planted, write_aligned_run

EN = planted(1, range(817), 0.6)


@pytest.fixture
def runs(tmp_path):
    """English in TruthfulQA-Multi (817 rows), German in TruthfulQA-X (rows 0-799 only),
    Spanish in both TruthfulQA-Multi translations."""
    write_aligned_run(
        tmp_path,
        "tiny",
        "truthfulqa_multi",
        {"en": {"mc1": EN}, "es": {"mc1": planted(2, range(817), 0, like=EN, flips=0.02)}},
    )
    write_aligned_run(
        tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": planted(3, range(817), 0, like=EN, flips=0.25)}}
    )
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"de": {"mc1": planted(4, range(800), 0, like=EN, flips=0.3)}})
    return tmp_path


def _cells(report):
    (table,) = report.tables
    return table, table.rows["tiny"]


def test_german_of_one_benchmark_against_english_of_another_on_the_shared_questions(runs):
    report = make_report(runs, align="tqa_index")
    table, cells = _cells(report)
    assert table.task == ALIGNED_TASK and report.ref_lang == "en (truthfulqa_multi)"
    assert table.langs == [
        "en (truthfulqa_multi)",
        "de (truthfulqax)",
        "es (truthfulqa_multi)",
        "es (truthfulqa_multi_mt)",
    ]
    de = planted(4, range(800), 0, like=EN, flips=0.3)
    gap = cells["de (truthfulqax)"].gap
    a = np.array([EN[row] for row in range(800)])
    b = np.array([de[row] for row in range(800)])
    assert gap.paired and gap.test == "mcnemar" and gap.n == 800  # the shared questions, not 817
    assert gap.diff == pytest.approx(b.mean() - a.mean(), abs=1e-12)
    counts = {"both": int(np.sum((a == 1) & (b == 1))), "only_a": int(np.sum((a == 0) & (b == 1))),
              "only_b": int(np.sum((a == 1) & (b == 0))), "neither": int(np.sum((a == 0) & (b == 0)))}  # fmt: skip
    assert gap.p == pytest.approx(mcnemar_counts(**counts).p)
    assert gap.ci_low < gap.diff < gap.ci_high
    # Holm over the model's gaps in the table, as inside one benchmark.
    tested = [cells[lang].gap for lang in table.langs[1:]]
    assert [g.p_holm for g in tested] == pytest.approx(holm([g.p for g in tested]))
    assert cells["de (truthfulqax)"].n == 800 and cells["en (truthfulqa_multi)"].gap is None


def test_few_shared_questions_are_still_paired_never_taken_as_independent(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"de": {"mc1": planted(5, range(780, 817), 0.5)}})
    _, cells = _cells(make_report(tmp_path, align="tqa_index"))
    gap = cells["de (truthfulqax)"].gap
    assert gap.paired and gap.n == 37 and gap.test == "mcnemar"


def test_the_reference_is_the_benchmark_with_the_most_questions_in_it_or_the_one_named(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"en": {"mc1": EN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": {r: EN[r] for r in range(500)}}})
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"de": {"mc1": planted(6, range(817), 0.5)}})
    assert make_report(tmp_path, align="tqa_index").ref_lang == "en (truthfulqa_multi_mt)"
    named = make_report(tmp_path, align="tqa_index", ref_lang="en (truthfulqa_multi)")
    assert named.ref_lang == "en (truthfulqa_multi)" and _cells(named)[1]["de (truthfulqax)"].gap.n == 500
    with pytest.raises(MlbenchError, match=r"--ref-lang en \(truthfulqax\): no aligned run has it"):
        make_report(tmp_path, align="tqa_index", ref_lang="en (truthfulqax)")


def test_a_benchmark_without_the_row_is_left_out_in_a_note_and_none_at_all_is_one_line(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}})
    write_aligned_run(
        tmp_path,
        "tiny",
        "veritasqa",
        {"en": {"mc1": planted(7, range(20), 0.5)}, "es": {"mc1": planted(8, range(20), 0.5)}},
        labelled=False,
    )
    report = make_report(tmp_path, align="tqa_index")
    assert (
        "tiny · veritasqa (en, es): no question carries tqa_index, left out of the aligned tables"
        in report.collection.notes
    )
    with pytest.raises(
        MlbenchError, match=r"--align tqa_index: no question of these runs \(veritasqa\) carries tqa_index"
    ):
        make_report(tmp_path, tasks=["veritasqa"], align="tqa_index")


def test_two_questions_under_one_row_leave_the_language_out(tmp_path):
    collection = collect(write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}}).parent.parent)
    entry = collection.runs[0].languages["en"]
    entry.result.per_question.labels["tqa_index"][1] = entry.result.per_question.labels["tqa_index"][0]
    with pytest.raises(MlbenchError, match="no question of these runs"):
        nonempty(aligned_runs(collection), collection)


def test_align_and_by_do_not_go_together_and_the_row_is_no_slice(runs):
    with pytest.raises(MlbenchError, match="--align compares benchmarks and --by cuts one into slices"):
        make_report(runs, align="tqa_index", by="category")
    collection = collect(runs)
    assert "tqa_index" not in available_fields(collection, None)
    with pytest.raises(MlbenchError, match="--by tqa_index: no question has that label"):
        slice_collection(collection, "tqa_index", None)
    with pytest.raises(MlbenchError, match="did you mean tqa_index"):
        make_report(runs, align="tqa_idx")


def test_column_names_name_the_benchmark():
    assert column_name("de", "truthfulqax") == "de (truthfulqax)"
    assert parse_column("de (truthfulqax)").task == "truthfulqax" and parse_column("de") is None


def test_the_command_writes_every_format_with_the_benchmarks_named(runs, tmp_path):
    out = tmp_path / "report"
    result = run_cli("report", runs, "--align", "tqa_index", "--format", "md,csv,latex,json,html", "--out", out)
    assert result.exit_code == 0, result.output
    assert "de (truthfulqax)" in result.output and "en (truthfulqa_multi)" in result.output
    payload = json.loads((out / "report.json").read_text(encoding="utf-8"))
    (table,) = payload["tables"]
    assert table["task"] == ALIGNED_TASK and payload["ref_lang"] == "en (truthfulqa_multi)"
    for name in ("report.md", "report.csv", "report.tex", "report.html"):
        assert "de (truthfulqax)" in (out / name).read_text(encoding="utf-8"), name


def test_a_row_named_by_two_questions_of_an_older_run_is_noted_once_everywhere(tmp_path):
    """A run from before `mlbench run` refused such data: two Spanish questions under one
    row. The language is left out of the aligned tables and the Translations section, and
    the note saying so is printed once in the terminal and written once in every file."""
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": EN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": EN}}, relabel={1: 0})
    out = tmp_path / "report"
    result = run_cli("report", tmp_path, "--align", "tqa_index", "--format", "md,html,json", "--out", out)
    assert result.exit_code == 0, result.output
    note = "tiny · truthfulqa_multi_mt · es: 1 tqa_index value(s) name two questions"
    assert result.stderr.count(note) == 1, result.stderr
    assert "run again by this version" in result.stderr
    for name in ("report.md", "report.html"):
        assert (out / name).read_text(encoding="utf-8").count(note) == 1, name
    notes = json.loads((out / "report.json").read_text(encoding="utf-8"))["notes"]
    assert sum(note in n for n in notes) == 1 and len(notes) == len(set(notes))
    assert "es (truthfulqa_multi_mt)" not in json.loads((out / "report.json").read_text())["tables"][0]["langs"]


def test_an_aligned_gap_on_fewer_questions_than_its_column_shows_its_n_in_every_format(tmp_path):
    """English answered rows 0-19, German rows 10-29: each column has n = 20, the gap is
    on the 10 rows both hold, and every format says so beside the gap."""
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": {r: EN[r] for r in range(20)}}})
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"de": {"mc1": planted(9, range(10, 30), 0.5)}})
    out = tmp_path / "report"
    args = ("report", tmp_path, "--align", "tqa_index", "--format", "md,csv,latex,json,html", "--out", out)
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    (de,) = [line for line in result.stdout.splitlines() if line.strip().startswith("de (truthfulqax)")]
    assert "20" in de.split() and "(gap on 10)" in de
    assert max(len(line) for line in result.stdout.splitlines() if not line.startswith("wrote ")) <= 80
    assert "(gap on N): the gap's n" in " ".join(result.stdout.split())
    for name in ("report.md", "report.html", "report.tex"):
        assert "(gap on 10)" in (out / name).read_text(encoding="utf-8"), name
    payload = json.loads((out / "report.json").read_text(encoding="utf-8"))
    cell = payload["tables"][0]["rows"][0]["cells"]["de (truthfulqax)"]
    assert (cell["n"], cell["gap_n"]) == (20, 10)
    csv_row = next(line for line in (out / "report.csv").read_text().splitlines() if "de (truthfulqax)" in line)
    assert ",20," in csv_row and ",10," in csv_row
