"""Each model's reference column, chosen by the one rule (``alignment.reference_column``)
on its own runs: a model that ran English in another benchmark than the others is
measured from that one, in the Translations section and under ``--align``, and every
format names each model's reference; a model with none at all gets a note."""

from __future__ import annotations

import json

import pytest

from mlbench.report.make import make_report
from tests.cli.test_cli import run_cli
from tests.report.aligned_runs import planted, write_aligned_run

EN = planted(1, range(817), 0.6)
HUMAN = planted(2, range(817), 0, like=EN, flips=0.05)
MACHINE = planted(3, range(817), 0, like=EN, flips=0.2)
OTHER = planted(4, range(817), 0, like=EN, flips=0.3)
MULTI, MT = "en (truthfulqa_multi)", "en (truthfulqa_multi_mt)"


@pytest.fixture
def runs(tmp_path):
    """alpha: English in TruthfulQA-Multi; beta: English in its machine translation only
    (as many questions: the tie across models was broken by name, for both); gamma: no
    English at all."""
    write_aligned_run(tmp_path, "alpha", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    write_aligned_run(tmp_path, "alpha", "truthfulqa_multi_mt", {"es": {"mc1": MACHINE}})
    write_aligned_run(tmp_path, "beta", "truthfulqa_multi_mt", {"en": {"mc1": EN}, "es": {"mc1": MACHINE}})
    write_aligned_run(tmp_path, "beta", "truthfulqax", {"es": {"mc1": OTHER}})
    write_aligned_run(tmp_path, "gamma", "truthfulqa_multi_mt", {"es": {"mc1": MACHINE}})
    write_aligned_run(tmp_path, "gamma", "truthfulqax", {"es": {"mc1": OTHER}})
    return tmp_path


def test_the_translations_section_measures_each_model_from_its_own_reference(runs):
    report = make_report(runs)
    rows = {row.model: row for row in report.per_translation}
    assert (rows["alpha"].reference, rows["beta"].reference, rows["gamma"].reference) == (MULTI, MT, "")
    assert all(gap is not None and gap.p is not None for _, gap in rows["beta"].gaps)  # es (mt), es (x) vs en (mt)
    assert all(gap is None for _, gap in rows["gamma"].gaps)
    assert any("gamma: no run of en aligned by tqa_index" in note for note in report.collection.notes)


def test_aligned_tables_measure_each_model_from_its_own_reference(runs):
    report = make_report(runs, align="tqa_index")
    assert report.ref_langs == {"alpha": MULTI, "beta": MT}
    for model, reference in report.ref_langs.items():
        (table,) = [t for t in report.tables if model in t.rows]
        assert table.ref_lang == reference
        gaps = [cell.gap for lang, cell in table.rows[model].items() if lang != reference]
        assert gaps and all(gap is not None and gap.p is not None for gap in gaps), model
    assert any("gamma: no run of en aligned by tqa_index" in note for note in report.collection.notes)
    # Models are still compared with each other on the columns they share, whatever their references.
    labels = {pair.label for table in report.pairs for pair in table.pairs}
    assert labels == {"beta − alpha", "gamma − alpha", "gamma − beta"}  # as one table of the three would pair them


def test_every_format_names_each_models_reference(runs, tmp_path):
    out = tmp_path / "report"
    result = run_cli("report", runs, "--align", "tqa_index", "--format", "md,csv,latex,json,html", "--out", out)
    assert result.exit_code == 0, result.output
    payload = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert payload["ref_langs"] == {"alpha": MULTI, "beta": MT} and payload["ref_lang"] == "en"
    assert {t["ref_lang"] for t in payload["tables"]} == {MULTI, MT}
    csv = (out / "report.csv").read_text(encoding="utf-8")
    assert f"beta,es (truthfulqax),{MT}," in csv and f"alpha,es (truthfulqa_multi_mt),{MULTI}," in csv
    for name in ("report.md", "report.html", "report.tex"):
        text = (out / name).read_text(encoding="utf-8").replace("\\_", "_")  # LaTeX's escaped _
        assert f" vs {MT}" in text and f" vs {MULTI}" in text, name
    md = (out / "report.md").read_text(encoding="utf-8")
    assert f"beta: {MT}" in md and "gaps to none" in md
    assert f"gaps to {MT}" in " ".join(result.stdout.split())  # the terminal's title of beta's table


def test_a_model_without_the_reference_language_has_a_table_of_its_own_that_says_so(runs):
    report = make_report(runs, align="tqa_index")
    (table,) = [t for t in report.tables if "gamma" in t.rows]
    assert set(table.rows) == {"gamma"}
    assert table.task == "aligned by tqa_index · no run of the reference language"
    assert all(
        cell.gap.p is None and "no en (truthfulqa_multi) results" in cell.gap.note
        for cell in table.rows["gamma"].values()
    )
