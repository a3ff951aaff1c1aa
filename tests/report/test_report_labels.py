"""What the report's gap cells say (issue 19): the star and the interval are two labelled
statistics that can disagree, the Holm-adjusted p is printed beside every gap, and a
metric no language could compute (XLingHealth's AUC at temperature 0) is n/a, not gone."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from mlbench.report import build_tables, collect, make_report, write_report
from mlbench.report.terminal import caption, render

from .synthetic_runs import write_run

N = 200


def _disagreeing_values() -> dict[str, dict[str, dict[str, float]]]:
    """Two planted disagreements between the star and the interval, es against en.

    mc2: 176 questions 0.03 higher and 24 questions 0.25 lower. The signed ranks lean
    far up (Wilcoxon p < 0.001) while the mean difference is −0.0036: the star is there,
    the interval includes 0 (the issue's mc2 es).

    bleu_max: 40 questions 10 points higher, 25 questions 30 points lower. The mean falls
    by 1.75 points and its interval excludes 0, but the ranks barely lean (Wilcoxon
    p ≈ 0.1): no star (the issue's bleu_max es)."""
    rng = np.random.default_rng(19)
    ids = [f"q{i:03d}" for i in range(N)]
    en_mc2 = rng.uniform(0.3, 0.7, size=N)
    mc2_diff = np.where(np.arange(N) < 24, -0.25, 0.03)
    en_bleu = rng.integers(4, 7, size=N) * 10.0
    bleu_diff = np.zeros(N)
    bleu_diff[:40], bleu_diff[40:65] = 10.0, -30.0
    return {
        "en": {"mc2": dict(zip(ids, en_mc2.tolist())), "bleu_max": dict(zip(ids, en_bleu.tolist()))},
        "es": {
            "mc2": dict(zip(ids, (en_mc2 + mc2_diff).tolist())),
            "bleu_max": dict(zip(ids, (en_bleu + bleu_diff).tolist())),
        },
    }


@pytest.fixture
def disagreeing(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    write_run(root, "org/m", "truthfulqa_multi", _disagreeing_values())
    return root


def test_the_planted_star_and_interval_disagree_and_match_scipy(disagreeing):
    tables = {t.metric: t for t in build_tables(collect(disagreeing), resamples=2000)}
    values = _disagreeing_values()
    ids = sorted(values["en"]["mc2"])

    mc2 = tables["mc2"].gap("org/m", "es")
    assert mc2.test == "wilcoxon" and mc2.significant
    assert mc2.ci_low < 0 < mc2.ci_high  # a star whose interval includes 0
    es, en = ([values[lang]["mc2"][q] for q in ids] for lang in ("es", "en"))
    assert mc2.p == pytest.approx(float(stats.wilcoxon(es, en, method="asymptotic").pvalue), rel=1e-9)
    assert mc2.diff == pytest.approx(np.mean(es) - np.mean(en), abs=1e-12)

    bleu = tables["bleu_max"].gap("org/m", "es")
    assert bleu.test == "wilcoxon" and not bleu.significant
    assert bleu.ci_high < 0  # no star, yet the interval excludes 0
    es, en = ([values[lang]["bleu_max"][q] for q in ids] for lang in ("es", "en"))
    assert bleu.p == pytest.approx(float(stats.wilcoxon(es, en, method="asymptotic").pvalue), rel=1e-9)
    assert bleu.p_holm == bleu.p  # one language besides en: a family of one


def _report(root: Path, out: Path) -> None:
    report = make_report(root)
    write_report(report, out, formats=["md", "csv", "latex", "html", "json"], plots=False, seed=0, resamples=1000)


def test_every_format_shows_the_holm_p_and_labels_the_interval(disagreeing, tmp_path):
    out = tmp_path / "report"
    _report(disagreeing, out)
    gaps = {t.metric: t.gap("org/m", "es") for t in build_tables(collect(disagreeing), resamples=1000)}

    md = (out / "report.md").read_text()
    gap_rows = md.split("Gaps vs en: gap [95% CI, unadjusted], p (Holm)", 1)[1].split("\n\n", 2)[1].splitlines()
    for metric, decimals in (("mc2", 3), ("bleu_max", 2)):
        gap = gaps[metric]
        row = next(line for line in gap_rows if line.startswith(f"| {metric} |"))
        interval = f"[{gap.ci_low:+.{decimals}f}, {gap.ci_high:+.{decimals}f}]".replace("-", "−")
        p = "<0.001 ***" if metric == "mc2" else f"{gap.p_holm:.3f}"
        shown = f"{gap.diff:+.{decimals}f} ".replace("-", "−") + f"{interval}, p {p}"
        assert row == f"| {metric} | Wilcoxon signed-rank [2] | {shown} |"
    # Said once, in the notes the gap tables refer to.
    notes = md.split("## Notes", 1)[1]
    assert "[1] Gap: language − en" in notes and md.count("not adjusted for multiplicity") == 1
    assert "95% bootstrap CI of the mean difference, not adjusted for multiplicity" in notes
    assert "[2] Wilcoxon signed-rank: " in notes and "ranks of the paired differences, not their mean" in notes
    assert "can disagree" in notes

    rows = {r["metric"]: r for r in csv.DictReader(io.StringIO((out / "report.csv").read_text())) if r["lang"] == "es"}
    assert rows["mc2"]["significant_holm"] == "True" and float(rows["mc2"]["gap_ci95_unadjusted_low"]) < 0
    assert rows["bleu_max"]["significant_holm"] == "False" and float(rows["bleu_max"]["gap_ci95_unadjusted_high"]) < 0
    assert rows["bleu_max"]["test"] == "wilcoxon" and float(rows["bleu_max"]["p_holm"]) > 0.05

    data = json.loads((out / "report.json").read_text())
    assert {"gap_ci95_unadjusted_low, gap_ci95_unadjusted_high", "p_holm", "test"} <= set(data["fields"])

    html = (out / "report.html").read_text()
    assert re.search(r'<td class="significant"[^>]*>&lt;0\.001 \*\*\*</td>', html)
    assert re.search(rf'<td title="Wilcoxon signed-rank[^"]*">{gaps["bleu_max"].p_holm:.3f}</td>', html)

    tex = (out / "report.tex").read_text()
    assert r"$<$0.001$^{***}$" in tex and f"& {gaps['bleu_max'].p_holm:.3f} \\\\" in tex


def test_the_terminal_caption_says_what_the_star_tests(disagreeing):
    from rich.console import Console

    report = make_report(disagreeing)
    console = Console(width=80, record=True)
    for table in render(report.tables):
        console.print(table)
    console.print(caption(report.tables, report.ref_lang))
    text = " ".join(console.export_text().split())
    assert "McNemar for yes/no outcomes, Wilcoxon signed-rank otherwise" in text
    assert "95% bootstrap CI of the mean difference, not adjusted for multiplicity" in text
    assert "Holm-adjusted p" in text


def _xlinghealth_with_undefined_auc(tmp_path: Path) -> Path:
    """An XLingHealth run whose AUC at temperature 0 no language could compute (every
    decision Yes): verifiability.py leaves ``verify_auc@0`` out of the results."""
    root = tmp_path / "results"
    ids = {lang: {f"q{i}": float(i % 2) for i in range(20)} for lang in ("en", "es")}
    run_dir = write_run(root, "m", "xlinghealth", {lang: {"mc1": ids[lang]} for lang in ids})
    data = json.loads((run_dir / "results.json").read_text())
    for lang in ("en", "es"):
        for key in ("0", "1"):
            for name in ("precision", "recall", "f1", "accuracy", "auc"):
                if (name, key) == ("auc", "0"):
                    continue
                value = {"value": 0.5, "ci_low": 0.4, "ci_high": 0.6, "stderr": 0.05}
                data["results"][lang][f"verify_{name}@{key}"] = value
    (run_dir / "results.json").write_text(json.dumps(data))
    return root


def test_an_auc_no_language_could_compute_is_na_with_its_reason(tmp_path):
    root = _xlinghealth_with_undefined_auc(tmp_path)
    tables = {t.metric: t for t in build_tables(collect(root))}
    auc = tables["verify_auc@0"]
    # Listed after the other metrics of temperature 0, before those of temperature 1.
    order = list(tables)
    assert order.index("verify_accuracy@0") + 1 == order.index("verify_auc@0") < order.index("verify_precision@1")
    assert auc.langs == ["en", "es"] and not auc.per_question
    cell = auc.cell("m", "es")
    assert np.isnan(cell.value.value) and "AUC undefined" in cell.missing and cell.n == 20

    out = tmp_path / "report"
    _report(root, out)
    md = (out / "report.md").read_text()
    # n/a with a reference to its reason, said once; no gap row for a pooled metric.
    row = next(line for line in md.splitlines() if line.startswith("| verify_auc@0 |"))
    assert re.fullmatch(r"\| verify_auc@0 \| n/a \[(\d)\] \| n/a \[\1\] \|", row), row
    number = row.split("[", 1)[1].split("]", 1)[0]
    assert f"- [{number}] n/a: AUC undefined" in md and md.count("AUC undefined") == 1
    assert "verify_auc@0 (a pooled metric, no per-question values)" in md.split("No gap tested: ", 1)[1]
    rows = [r for r in csv.DictReader(io.StringIO((out / "report.csv").read_text())) if r["metric"] == "verify_auc@0"]
    assert [r["lang"] for r in rows] == ["en", "es"]
    assert all(r["value"] == "" and r["value_note"].startswith("AUC undefined") for r in rows)
    data = json.loads((out / "report.json").read_text())
    table = next(t for t in data["tables"] if t["metric"] == "verify_auc@0")
    assert table["rows"][0]["cells"]["es"]["value"] is None
    assert table["rows"][0]["cells"]["es"]["value_note"].startswith("AUC undefined")
    html = (out / "report.html").read_text()
    assert '<td title="AUC undefined' in html
    tex = (out / "report.tex").read_text()
    block = tex.split("verify\\_auc@0", 1)[0].rsplit(r"\begin{table}", 1)[1]
    assert "m & mean [95\\% CI] & n/a & n/a \\\\" in block


def test_the_terminal_shows_the_undefined_auc_as_na(tmp_path):
    from rich.console import Console

    # Chosen with --metric, the AUC is a terminal column: n/a where undefined, a mean elsewhere.
    report = make_report(_xlinghealth_with_undefined_auc(tmp_path), metrics=["verify_auc"])
    console = Console(width=80, record=True)
    for table in render(report.tables):
        console.print(table)
    console.print(caption(report.tables, report.ref_lang))
    text = console.export_text()
    assert re.search(r"verify_auc@0\s+verify_auc@1", text)
    assert re.search(r"en\s+\d+\s+n/a\s+0\.500", text)
    assert "n/a (m en, m es): AUC undefined" in " ".join(text.split())
