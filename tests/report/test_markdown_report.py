"""report.md of a run shaped like `make demo`'s (2 tasks, 5 languages, 35 metrics): short,
each note written once in the Notes section the tables refer to, no significance note
where nothing was tested, and every number of every metric still there."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from mlbench.report import make_report, write_report
from mlbench.report.cells import gap_cell, value_text
from mlbench.report.notes import Notes

from .demo_shaped import MODEL, TASKS, write_demo_shaped
from .synthetic_runs import write_run


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, str]:
    root = write_demo_shaped(tmp_path_factory.mktemp("demo") / "results")
    report = make_report(root)
    out = tmp_path_factory.mktemp("demo-report")
    write_report(report, out, formats=["md"], plots=True, seed=0, resamples=200)
    return report, (out / "report.md").read_text()


def _rows(md: str, task: str, metric: str) -> list[list[str]]:
    """The rows (cells) of ``task``'s tables whose first cell is ``metric``, bare or with its label."""
    section = md.split(f"\n## {task}\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in section.splitlines() if line.startswith("| ")]
    return [row for row in rows if row[0] == metric or row[0].startswith(f"{metric} (")]


def test_the_demo_report_is_short_and_says_each_note_once(demo):
    report, md = demo
    assert sum(len(metrics) for _, metrics in TASKS.values()) == len(report.tables) == 35
    lines = md.splitlines()
    assert len(lines) < 200, len(lines)
    # No line outside the tables is repeated more than once per task.
    prose = Counter(line for line in lines if line.strip() and not line.startswith("|"))
    assert max(prose.values()) <= len(TASKS), prose.most_common(3)
    notes = md.split("\n## Notes\n", 1)[1]
    entries = [line[2:] for line in notes.splitlines() if line.startswith("- ")]
    assert entries[0] == "† low-resource language"
    for entry in entries:  # defined once, nowhere else in the file
        key, text = entry.split(" ", 1)
        assert md.count(text) == 1, text
        if key.startswith("["):
            assert md.split("\n## Notes\n")[0].count(key) > 0, key  # and referred to
    for text in ("so they can disagree", "McNemar's test compares", "Wilcoxon's signed-rank test compares"):
        assert md.count(text) == 1, text
    # Every [n] of a table is defined.
    keys = {entry.split(" ", 1)[0] for entry in entries}
    assert set(re.findall(r"\[\d+\]", md.split("\n## Notes\n")[0])) <= keys


def test_every_metric_keeps_its_numbers(demo):
    report, md = demo
    for table in report.tables:
        rows = _rows(md, table.task, table.metric)
        scores = rows[0]
        # The label of a metric whose descriptor declares one, beside its name.
        if table.metric == "truthful_informative":
            assert scores[0] == "truthful_informative (truthful & informative)"
        for i, lang in enumerate(table.langs):
            cell = table.cell(MODEL, lang)
            shown = scores[1 + [*TASKS[table.task][0]].index(lang)]
            assert shown == value_text(table.descriptor, cell), (table.title, lang)
            assert cell.n == 20 and i >= 0
        if table.metric == "marker_language_named":  # not measured in English: nothing tested
            assert len(rows) == 1 and f"{table.metric} (not measured in en)" in md
            continue
        gaps = rows[1]
        assert gaps[1] in ("McNemar [2]", "Wilcoxon signed-rank [3]", "Wilcoxon signed-rank [2]", "McNemar [3]")
        for lang in table.langs[1:]:
            gap = table.gap(MODEL, lang)
            assert gap is not None and gap.p_holm is not None
            assert gaps[2 + [*TASKS[table.task][0]][1:].index(lang)] == gap_cell(table.descriptor, gap)
    assert "n=20 per cell unless shown" in md and "(n=20)" not in md
    # The headline metrics' figures embedded, heatmap and bars on one line.
    figures = [line for line in md.splitlines() if line.startswith("![")]
    assert figures and all(line.count("![") == 2 for line in figures)
    assert "![truthfulqa_multi · mc1](plots/truthfulqa_multi__mc1__heatmap.png)" in md


def test_no_significance_note_where_nothing_was_tested(tmp_path: Path):
    # No English run: no language to compare with, so no gap table, no p and no test note.
    values = {lang: {"mc1": {f"q{i}": float(i % 3 == 0) for i in range(10)}} for lang in ("es", "ca")}
    write_run(tmp_path / "results", "m", "truthfulqa_multi", values)
    out = tmp_path / "report"
    report = make_report(tmp_path / "results")
    write_report(report, out, formats=["md"], plots=False, seed=0, resamples=200)
    md = (out / "report.md").read_text()
    assert "Gaps vs" not in md and "p (Holm)" not in md and "McNemar" not in md and "disagree" not in md
    assert "No gap tested: mc1 (no en results for this model)." in md
    table = report.tables[0]
    assert f"| mc1 | {' | '.join(value_text(table.descriptor, table.cell('m', lang)) for lang in ('es', 'ca'))} |" in md
    assert "no run has en: no gaps" in md.split("## Notes", 1)[1]


def test_notes_number_each_text_once():
    notes = Notes()
    assert notes.ref("a") == "[1]" and notes.ref("b") == "[2]" and notes.ref("a") == "[1]"
    assert notes.lines() == ["- [1] a", "- [2] b"]


def test_a_cells_n_where_it_differs(tmp_path: Path):
    sizes = {"en": 10, "es": 10, "ca": 8}
    values = {lang: {"mc1": {f"q{i}": float(i % 2) for i in range(n)}} for lang, n in sizes.items()}
    write_run(tmp_path / "results", "m", "truthfulqa_multi", values)
    out = tmp_path / "report"
    report = make_report(tmp_path / "results")
    write_report(report, out, formats=["md"], plots=False, seed=0, resamples=200)
    md = (out / "report.md").read_text()
    assert "n=10 per cell unless shown" in md
    table = report.tables[0]
    en, es, ca = (value_text(table.descriptor, table.cell("m", lang)) for lang in sizes)
    assert f"| mc1 | {en} | {es} | {ca} (n=8) |" in md


def test_the_html_report_says_each_note_once_too(tmp_path: Path):
    root = write_demo_shaped(tmp_path / "results")
    write_report(make_report(root), tmp_path / "out", formats=["html"], plots=False, seed=0, resamples=200)
    html = (tmp_path / "out" / "report.html").read_text()
    assert html.count("so they can disagree") == 1 and html.count("low-resource language") == 1
    assert html.count("McNemar&#x27;s test compares") == 1 and html.count("Wilcoxon&#x27;s signed-rank test") == 1
    # 34 metrics tested, each gap table's heading naming its test and the notes by number.
    assert html.count("<p>Gap vs en (McNemar [2]): gap [95% CI, unadjusted], p (Holm) [1]:</p>") == 24
    assert html.count("<p>No gap tested (not measured in en).</p>") == 2


def _report(tmp_path: Path, runs: dict[str, dict], fmt: str) -> str:
    for model, values in runs.items():
        write_run(tmp_path / "results", model, "truthfulqa_multi", values)
    write_report(make_report(tmp_path / "results"), tmp_path / "out", formats=[fmt], plots=False, seed=0, resamples=50)
    return (tmp_path / "out" / f"report.{fmt}").read_text()


def test_one_language_has_no_gap_table_and_no_gap_note(tmp_path: Path):
    md = _report(tmp_path, {"m": {"en": {"mc1": {f"q{i}": float(i % 2) for i in range(10)}}}}, "md")
    assert "Gaps vs" not in md and "Gap: language −" not in md and "No gap tested" not in md
    assert "| mc1 |" in md


def test_a_metric_not_measured_in_the_reference_language_says_so(tmp_path: Path):
    col = {f"q{i}": float(i % 2) for i in range(10)}
    md = _report(tmp_path, {"m": {"en": {"mc1": col}, "es": {"mc1": col, "mc2": col}}}, "md")
    assert "mc2 (not measured in en)" in md and "no en results" not in md
    # A language without a value reads n/a, as in table.md, and the Notes define it.
    assert any(row[:2] == ["mc2", "n/a"] for row in _rows(md, "truthfulqa_multi", "mc2"))
    assert "- n/a no value:" in md


def test_the_html_report_names_the_untested_models_beside_the_tested_ones(tmp_path: Path):
    col = {f"q{i}": float(i % 2) for i in range(10)}
    html = _report(tmp_path, {"a": {"en": {"mc1": col}, "es": {"mc1": col}}, "b": {"es": {"mc1": col}}}, "html")
    assert "Gap vs en" in html and "<p>No gap tested: b (no en results for this model).</p>" in html
