"""A run asked under several prompt templates, on planted data: its own results.json,
table.md and terminal summary count questions (n = 20, not 100 samples), compute every
interval over each question's mean across the templates, and list each template's own
score, as `mlbench report` does."""

from __future__ import annotations

import json

import numpy as np
import pytest
from rich.console import Console

import mlbench.benchmarks  # noqa: F401  (fills the metric catalog)
from mlbench.cli.console import summary
from mlbench.records import RunResult, SampleRecord
from mlbench.report.collect import collect
from mlbench.report.template_means import question_means
from mlbench.results import merge_run, model_slug, read_run, write_language
from mlbench.results.aggregation import aggregate
from mlbench.stats.intervals import summarize

TEMPLATES = ("p0", "p1", "p2", "p3", "p4")
QUESTIONS = 20
# Each (question, template)'s MC1: question q is right under template t when q < RIGHT[t].
RIGHT = {"p0": 4, "p1": 8, "p2": 12, "p3": 16, "p4": 20}


def _records(lang: str) -> list[SampleRecord]:
    records = []
    for template in TEMPLATES:
        for q in range(QUESTIONS):
            record = SampleRecord(f"{lang}-{q:04d}@{template}", lang, metrics={"mc1": float(q < RIGHT[template])})
            record.labels = {"template": template, "question_id": f"{lang}-{q:04d}"}
            record.config_hash = "planted"
            records.append(record)
    return records


def _question_means() -> list[float]:
    """Each question's share of templates it is right under, by hand."""
    return [sum(q < RIGHT[t] for t in TEMPLATES) / len(TEMPLATES) for q in range(QUESTIONS)]


def test_the_language_is_summarised_over_questions_and_each_template_on_its_own():
    result = aggregate("nb", _records("nb"), ["mc1"], seed=0)
    assert (result.n, result.samples) == (QUESTIONS, QUESTIONS * len(TEMPLATES))
    expected = summarize(_question_means(), seed=0)
    assert result.metrics["mc1"] == expected
    assert result.metrics["mc1"].value == pytest.approx(np.mean([RIGHT[t] / QUESTIONS for t in TEMPLATES]))
    # As if the 100 samples were 100 questions, the interval would be narrower: not what is written.
    as_samples = summarize([r.metrics["mc1"] for r in _records("nb")], seed=0)
    assert as_samples.ci_high - as_samples.ci_low < expected.ci_high - expected.ci_low
    assert list(result.templates) == list(TEMPLATES)
    for template, one in result.templates.items():
        assert one.n == QUESTIONS and one.samples is None
        assert one.metrics["mc1"].value == pytest.approx(RIGHT[template] / QUESTIONS)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("templated")
    run_dir = root / model_slug("org/m") / "nortruthfulqa"
    run_dir.mkdir(parents=True)
    for lang in ("nb", "nn"):
        records = _records(lang)
        config = {"seed": 0, "timings_s": {lang: 0.5}, "fewshot": 0}
        write_language(run_dir, aggregate(lang, records, ["mc1"], 0), config, "planted", [r.id for r in records])
    merge_run(run_dir, RunResult("org/m", "nortruthfulqa", {"seed": 0}, {}), "planted", ["mc1"], ("nb", "nn"))
    return root, run_dir


def test_results_json_counts_questions_and_keeps_each_template(written):
    _, run_dir = written
    block = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))["results"]["nb"]
    assert block["n-samples"] == 100 and block["n-questions"] == 20
    assert block["mc1"] == summarize(_question_means(), seed=0).to_json()
    assert {t: b["n-samples"] for t, b in block["templates"].items()} == dict.fromkeys(TEMPLATES, 20)
    assert block["templates"]["p1"]["mc1"]["value"] == pytest.approx(0.4)
    run = read_run(run_dir)  # read back: n is the questions, the templates kept
    assert run.languages["nb"].n == 20 and run.languages["nb"].samples == 100
    assert run.languages["nb"].templates["p3"].metrics["mc1"].value == pytest.approx(0.8)


def test_table_md_shows_n_questions_and_a_row_per_template(written):
    _, run_dir = written
    table = (run_dir / "table.md").read_text(encoding="utf-8")
    assert "| n | 20 | 20 |" in table and "| n | 100" not in table
    assert "Asked under 5 prompt templates: n counts questions" in table
    assert "## By language and prompt template" in table
    assert "| nb | p1 | 20 | 0.400 [" in table


def test_the_terminal_summary_lists_each_template_under_its_language(written):
    _, run_dir = written
    console = Console(width=80, record=True)
    for part in summary(read_run(run_dir), ["mc1"], ("mc1",), console):
        console.print(part)
    text = console.export_text()
    lines = [line.split() for line in text.splitlines()]
    assert ["nb", "20", f"{np.mean(_question_means()):.3f}"] in lines
    assert ["p4", "20", "1.000"] in lines and ["p0", "20", "0.200"] in lines
    assert "n: questions" in text and all(len(line) <= 80 for line in text.splitlines())


def test_the_report_and_the_run_give_the_same_numbers(written):
    root, run_dir = written
    averaged = question_means(collect(root))
    [run] = averaged.runs
    written_run = read_run(run_dir)
    for lang in ("nb", "nn"):
        assert run.languages[lang].result.n == written_run.languages[lang].n == 20
        assert run.languages[lang].result.metrics["mc1"] == written_run.languages[lang].metrics["mc1"]
