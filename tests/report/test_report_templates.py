"""The report's prompt-templates section, on planted runs where the gap of one language to
the reference flips sign from one template to another: each template's score, the spread,
and under how many templates the gap is significant (Holm within template), in md, html
and json."""

from __future__ import annotations

import json
import statistics

import numpy as np
import pytest

import mlbench.benchmarks  # noqa: F401  (fills the metric catalog)
from mlbench.records import RunResult, SampleRecord
from mlbench.report.collect import collect
from mlbench.report.templates import template_rows
from mlbench.results import merge_run, model_slug, write_language
from mlbench.results.aggregation import aggregate

TEMPLATES = ("p0", "p1", "p2")
# Share right per (template, language): nn well below nb under p0, well above under p1, level under p2.
RATES = {
    ("p0", "nb"): 0.8,
    ("p0", "nn"): 0.3,
    ("p1", "nb"): 0.3,
    ("p1", "nn"): 0.8,
    ("p2", "nb"): 0.5,
    ("p2", "nn"): 0.5,
}
N = 200


def _write(root, model="org/m", task="nortruthfulqa"):
    run_dir = root / model_slug(model) / task
    run_dir.mkdir(parents=True)
    rng = np.random.default_rng(3)
    for lang in ("nb", "nn"):
        records = []
        for template in TEMPLATES:
            right = rng.permutation(N) < RATES[(template, lang)] * N
            for i in range(N):
                record = SampleRecord(f"{lang}-{i:04d}@{template}", lang, metrics={"mc1": float(right[i])})
                record.labels = {"template": template, "question_id": f"{lang}-{i:04d}"}
                record.config_hash = "planted"
                records.append(record)
        config = {"seed": 0, "timings_s": {lang: 0.5}, "fewshot": 0}
        write_language(run_dir, aggregate(lang, records, ["mc1"], 0), config, "planted", [r.id for r in records])
    merge_run(run_dir, RunResult(model, task, {"seed": 0}, {}), "planted", ["mc1"], ("nb", "nn"))
    return root


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("templates-report"))


def test_each_templates_score_the_spread_and_the_gaps_robustness(planted):
    rows = {row.lang: row for row in template_rows(collect(planted), "nb", seed=0, resamples=500)}
    assert set(rows) == {"nb", "nn"}
    nn = rows["nn"]
    assert dict(nn.scores) == pytest.approx({t: RATES[(t, "nn")] for t in TEMPLATES})
    low, high, sd = nn.spread
    assert (low, high) == pytest.approx((0.3, 0.8))
    assert sd == pytest.approx(statistics.stdev([0.3, 0.8, 0.5]))
    # Significant under p0 and p1 (opposite signs), not under p2.
    assert (nn.significant, nn.tested, nn.robustness, nn.sign_flips) == (2, 3, "some", True)
    assert rows["nb"].significant is None and rows["nb"].robustness == ""


def test_the_section_in_every_format(planted, tmp_path):
    from tests.cli.test_cli import run_cli

    out = tmp_path / "report"
    result = run_cli("report", planted, "--ref-lang", "nb", "--format", "md,html,json", "--out", out)
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text(encoding="utf-8")
    section = md[md.index("## Prompt templates") :]
    table = [
        "|  | nb | nn |",
        "|---|---|---|",
        "| p0 | 0.800 | 0.300 |",
        "| p1 | 0.300 | 0.800 |",
        "| p2 | 0.500 | 0.500 |",
        "| min | 0.300 | 0.300 |",
        "| max | 0.800 | 0.800 |",
        "| SD | 0.252 | 0.252 |",
        "| gap significant under | reference | some (2/3), sign flips |",
    ]
    assert "\n".join(table) in section
    assert all(len(line) <= 80 for line in section.splitlines())
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Prompt templates</h2>" in html and "some (2/3), sign flips" in html
    records = json.loads((out / "report.json").read_text(encoding="utf-8"))["prompt_templates"]
    nn = next(r for r in records if r["lang"] == "nn")
    assert nn["gap_significant"] == "some" and nn["sign_flips"] is True and nn["scores"]["p1"] == 0.8


def test_no_section_without_templates(tmp_path):
    from tests.report.synthetic_runs import planted_values, write_run

    write_run(tmp_path, "org/m", "truthfulqa_multi", planted_values(1, gap_lang="eu", n=30))
    assert template_rows(collect(tmp_path), "en", seed=0, resamples=100) == []


def test_many_languages_turn_the_table_a_row_per_language():
    from mlbench.report.templates import TemplateRow, grid

    rows = [TemplateRow("m", "t", "mc1", f"l{i}", (("p0", 0.5), ("p1", 0.25)), 1, 2, False) for i in range(12)]
    header, body = grid(rows)
    assert header == ["lang", "p0", "p1", "min", "max", "SD", "gap significant under"]
    assert body[3] == ["l3", "0.500", "0.250", "0.250", "0.500", "0.177", "some (1/2)"]


def test_the_tables_count_each_question_once_with_its_mean_over_the_templates(planted):
    from mlbench.report.make import make_report

    report = make_report(planted, ref_lang="nb", resamples=200)
    table = next(t for t in report.tables if t.metric == "mc1")
    cell = table.cell("org/m", "nn")
    assert cell.n == N  # not N × 3 templates
    assert cell.value.value == pytest.approx(sum(RATES[(t, "nn")] for t in TEMPLATES) / 3)
    assert any("mean over them" in note for note in report.collection.notes)
    assert {row.lang for row in report.per_template} == {"nb", "nn"}  # each template's own, kept beside
    by_template = make_report(planted, ref_lang="nb", resamples=200, by="template")
    assert {t.task for t in by_template.tables} == {f"nortruthfulqa · template={t}" for t in TEMPLATES}
