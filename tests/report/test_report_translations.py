"""The report's Translations section: a language run under two or more translations of
TruthfulQA, each translation's score on the shared questions, their spread, each one's
gap to the reference language and under how many it is significant, the translations
compared pair by pair, and the TruthfulQA-Multi authors' chi-square beside the paired test."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import chisquare, wilcoxon

from mlbench.errors import MlbenchError
from mlbench.report.make import make_report
from mlbench.stats.multiple import holm
from mlbench.stats.paired import mcnemar_counts
from tests.cli.test_cli import run_cli
from tests.report.aligned_runs import planted, write_aligned_run

EN = planted(1, range(817), 0.6)
HUMAN = planted(2, range(817), 0, like=EN, flips=0.01)  # close to English: no significant gap
MACHINE = planted(3, range(400), 0, like=EN, flips=0.3)  # 400 rows, far below English


@pytest.fixture
def runs(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": MACHINE}})
    return tmp_path


def _counts(a: np.ndarray, b: np.ndarray) -> dict[str, int]:
    return {"both": int(np.sum((a == 1) & (b == 1))), "only_a": int(np.sum((a == 0) & (b == 1))),
            "only_b": int(np.sum((a == 1) & (b == 0))), "neither": int(np.sum((a == 0) & (b == 0)))}  # fmt: skip


def test_a_gap_significant_under_one_translation_and_not_the_other(runs):
    (row,) = make_report(runs).per_translation
    assert (row.model, row.metric, row.lang, row.reference) == ("tiny", "mc1", "es", "en (truthfulqa_multi)")
    assert row.n == 400  # the questions both translations answered
    human, machine = (np.array([d[r] for r in range(400)]) for d in (HUMAN, MACHINE))
    en = np.array([EN[r] for r in range(400)])
    assert row.scores == (
        ("truthfulqa_multi", pytest.approx(human.mean())),
        ("truthfulqa_multi_mt", pytest.approx(machine.mean())),
    )
    gaps = dict(row.gaps)
    assert not gaps["truthfulqa_multi"].significant and gaps["truthfulqa_multi_mt"].significant
    assert gaps["truthfulqa_multi_mt"].n == 400 and gaps["truthfulqa_multi_mt"].p == pytest.approx(
        mcnemar_counts(**_counts(en, machine)).p
    )
    assert [gaps[t].p_holm for t in gaps] == pytest.approx(holm([gaps[t].p for t in gaps]))
    assert row.robustness == "some" and not row.sign_flips
    low, high, sd = row.spread
    assert (low, high) == (pytest.approx(machine.mean()), pytest.approx(human.mean()))
    assert sd == pytest.approx(np.std([human.mean(), machine.mean()], ddof=1))
    (pair,) = row.pairs
    assert (pair.first, pair.second, pair.gap.n, pair.gap.test) == (
        "truthfulqa_multi",
        "truthfulqa_multi_mt",
        400,
        "mcnemar",
    )
    assert pair.gap.diff == pytest.approx(machine.mean() - human.mean())
    assert pair.gap.p == pytest.approx(mcnemar_counts(**_counts(human, machine)).p)
    # Theirs: the machine translation's [yes, no] observed against the human one's.
    theirs = chisquare([machine.sum(), 400 - machine.sum()], [human.sum(), 400 - human.sum()])
    assert pair.chi_square.statistic == pytest.approx(theirs.statistic) and pair.chi_square.p == pytest.approx(
        theirs.pvalue
    )


def test_three_translations_are_compared_pair_by_pair_with_holm_and_a_ranked_metric(tmp_path):
    rng = np.random.default_rng(9)
    mc2 = {lang: {r: float(v) for r, v in enumerate(rng.beta(4, 3, 817))} for lang in ("en", "es1", "es2", "es3")}
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc2": mc2["en"]}, "es": {"mc2": mc2["es1"]}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc2": mc2["es2"]}})
    shifted = {r: min(1.0, v + 0.1) for r, v in mc2["es3"].items()}
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"es": {"mc2": shifted}})
    (row,) = make_report(tmp_path).per_translation
    assert [t for t, _ in row.scores] == ["truthfulqa_multi", "truthfulqa_multi_mt", "truthfulqax"]
    assert [(p.first, p.second) for p in row.pairs] == [
        ("truthfulqa_multi", "truthfulqa_multi_mt"),
        ("truthfulqa_multi", "truthfulqax"),
        ("truthfulqa_multi_mt", "truthfulqax"),
    ]
    first = row.pairs[0]
    a, b = (np.array([mc2[k][r] for r in range(817)]) for k in ("es1", "es2"))
    assert first.gap.test == "wilcoxon" and first.gap.p == pytest.approx(wilcoxon(b, a).pvalue, rel=1e-6)
    assert first.chi_square is None  # not a yes/no metric: theirs does not apply
    assert [p.gap.p_holm for p in row.pairs] == pytest.approx(holm([p.gap.p for p in row.pairs]))


def test_a_gap_above_english_in_one_translation_and_below_in_another_flips_sign(tmp_path):
    rows = range(817)
    above = {r: 1.0 if r % 10 else EN[r] for r in rows}
    below = {r: 0.0 if r % 10 else EN[r] for r in rows}
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": above}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": below}})
    (row,) = make_report(tmp_path).per_translation
    assert row.sign_flips and row.robustness == "every"


def test_no_section_for_a_language_in_one_translation(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"de": {"mc1": MACHINE}})
    assert make_report(tmp_path).per_translation == []


def test_the_section_in_markdown_html_and_json(runs, tmp_path):
    out = tmp_path / "report"
    result = run_cli("report", runs, "--format", "md,html,json", "--out", out)
    assert result.exit_code == 0, result.output
    assert "Translations: es in 2 under several translations of TruthfulQA" in " ".join(result.output.split())
    md = (out / "report.md").read_text(encoding="utf-8")
    section = md[md.index("## Translations") :]
    assert "### mc1 · tiny · gaps to en (truthfulqa_multi)" in section
    assert "| es | truthfulqa_multi_mt (machine) | 400 |" in section and "gap significant under some (1/2)" in section
    assert "| es | truthfulqa_multi_mt − truthfulqa_multi | 400 |" in section and "McNemar" in section
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Translations</h2>" in html and "truthfulqa_multi_mt − truthfulqa_multi" in html
    (record,) = json.loads((out / "report.json").read_text(encoding="utf-8"))["translations"]
    assert record["n"] == 400 and record["gap_significant"] == "some"
    assert set(record["scores"]) == {"truthfulqa_multi", "truthfulqa_multi_mt"}
    assert record["pairs"][0]["test"] == "mcnemar" and record["pairs"][0]["authors_chi_square"]["p"] is not None
    assert record["gaps"]["truthfulqa_multi_mt"]["n"] == 400


def test_a_metric_one_translation_of_a_language_lacks_leaves_that_language_out_of_it(tmp_path):
    mc2 = {r: 0.5 for r in range(817)}
    human = {"en": {"mc1": EN}, "es": {"mc1": HUMAN, "mc2": mc2}, "eu": {"mc1": HUMAN, "mc2": mc2}}
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", human)
    write_aligned_run(
        tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": MACHINE, "mc2": mc2}, "eu": {"mc1": MACHINE}}
    )
    rows = make_report(tmp_path).per_translation
    assert sorted((row.metric, row.lang) for row in rows) == [("mc1", "es"), ("mc1", "eu"), ("mc2", "es")]
    assert [(row.metric, row.lang) for row in make_report(tmp_path, metrics=["mc2"]).per_translation] == [("mc2", "es")]


def test_the_expected_side_is_the_column_named_in_full_else_the_human_translation(tmp_path):
    """The first translation of each pair (the authors' expected counts): the benchmark of
    a reference column named in full, whichever it is; else the human translation, even
    where the machine one answered more English questions and is the gaps' reference."""
    write_aligned_run(
        tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": {r: EN[r] for r in range(400)}}, "es": {"mc1": HUMAN}}
    )
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"en": {"mc1": EN}, "es": {"mc1": MACHINE}})
    en, row = make_report(tmp_path).per_translation
    assert (en.lang, row.lang) == ("en", "es")  # English too is in two benchmarks here
    assert dict(en.gaps)["truthfulqa_multi_mt"] is None  # the reference itself
    assert row.reference == "en (truthfulqa_multi_mt)"  # the most questions in English
    assert (row.pairs[0].first, row.pairs[0].second) == ("truthfulqa_multi", "truthfulqa_multi_mt")
    assert row.pairs[0].expected == "truthfulqa_multi"  # the human translation, as the authors compared
    for align in (None, "tqa_index"):
        report = make_report(tmp_path, ref_lang="EN (truthfulqa_multi)", align=align)
        _, row = report.per_translation
        assert row.reference == "en (truthfulqa_multi)"
        assert (row.pairs[0].first, row.pairs[0].expected) == ("truthfulqa_multi", "truthfulqa_multi")
        assert report.ref_lang == ("en" if align is None else "en (truthfulqa_multi)")
        report = make_report(tmp_path, ref_lang="en (truthfulqa_multi_mt)", align=align)
        _, row = report.per_translation  # named in full: the user's choice, even of the machine one
        assert (row.pairs[0].first, row.pairs[0].expected) == ("truthfulqa_multi_mt", "truthfulqa_multi_mt")
    with pytest.raises(MlbenchError, match=r"--ref-lang en \(truthfulqax\): no run of that benchmark has en"):
        make_report(tmp_path, ref_lang="en (truthfulqax)")


def test_a_run_under_several_templates_is_compared_on_its_questions_means_whatever_by_says(tmp_path):
    """A translation asked under two templates (``<row>@p0``, ``<row>@p1``): its
    question's value is the mean over them, with ``--by template`` too."""
    from mlbench.data.source import QUESTION_LABEL, TEMPLATE_LABEL
    from mlbench.records import RunResult, SampleRecord
    from mlbench.results import merge_run, model_slug, write_language
    from mlbench.results.aggregation import aggregate

    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    run_dir = tmp_path / model_slug("tiny") / "truthfulqax"
    run_dir.mkdir(parents=True)
    records = []
    for row in range(100):
        for template, value in (("p0", 1.0), ("p1", float(row % 2))):
            labels = {"tqa_index": str(row), QUESTION_LABEL: str(row), TEMPLATE_LABEL: template}
            record = SampleRecord(f"{row}@{template}", "es", metrics={"mc1": value}, labels=labels)
            record.config_hash = "aligned"
            records.append(record)
    config = {"seed": 0, "timings_s": {"es": 0.5}}
    write_language(run_dir, aggregate("es", records, ["mc1"], 0), config, "aligned", [r.id for r in records])
    merge_run(run_dir, RunResult("tiny", "truthfulqax", {"seed": 0}, {}), "aligned", ["mc1"], ("es",))
    for by in (None, "template"):
        (row,) = make_report(tmp_path, by=by).per_translation
        assert row.n == 100 and dict(row.scores)["truthfulqax"] == pytest.approx(0.75)


def _md_rows(md: str, first: str) -> list[list[str]]:
    section = md[md.index("## Translations") :]
    return [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith(first)]


def test_each_gap_and_test_shows_the_n_it_was_computed_on(tmp_path):
    """Both translations of Spanish answered the 817 rows, English only 400 of them: the
    scores are over 817 questions, each gap over the 400 it pairs with English."""
    write_aligned_run(
        tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": {r: EN[r] for r in range(400)}}, "es": {"mc1": HUMAN}}
    )
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": planted(5, range(817), 0.4)}})
    out = tmp_path / "report"
    assert run_cli("report", tmp_path, "--format", "md,html,json", "--out", out).exit_code == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    (header,) = _md_rows(md, "| lang | translation |")
    rows = [
        row for row in _md_rows(md, "| es |") if row[1] in ("truthfulqa_multi (human)", "truthfulqa_multi_mt (machine)")
    ]
    gap_n = header.index("gap n")
    assert [(row[header.index("n")], row[gap_n]) for row in rows] == [("817", "400"), ("817", "400")]
    assert "<th>gap n</th>" in (out / "report.html").read_text(encoding="utf-8")
    (record,) = json.loads((out / "report.json").read_text(encoding="utf-8"))["translations"]
    assert record["n"] == 817 and {gap["n"] for gap in record["gaps"].values()} == {400}
    (pair,) = record["pairs"]
    assert pair["n"] == 817 and pair["authors_chi_square"]["n"] == 817


def test_the_authors_expected_side_is_the_reference_benchmark_never_the_first_by_name(tmp_path):
    """A benchmark of the user's named to sort first (``aaa_mine``) is still the observed
    side: the expected counts are the reference's benchmark's, TruthfulQA-Multi's."""
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    mine = planted(6, range(817), 0.3)
    write_aligned_run(tmp_path, "tiny", "aaa_mine", {"es": {"mc1": mine}})
    (row,) = make_report(tmp_path).per_translation
    (pair,) = row.pairs
    assert (pair.first, pair.second, pair.expected) == ("truthfulqa_multi", "aaa_mine", "truthfulqa_multi")
    human, observed = (np.array([d[r] for r in range(817)]) for d in (HUMAN, mine))
    theirs = chisquare([observed.sum(), 817 - observed.sum()], [human.sum(), 817 - human.sum()])
    assert pair.chi_square.statistic == pytest.approx(theirs.statistic) and pair.chi_square.p == pytest.approx(
        theirs.pvalue
    )
    out = tmp_path / "report"
    assert run_cli("report", tmp_path, "--format", "md,html,json", "--out", out).exit_code == 0
    (header,) = _md_rows((out / "report.md").read_text(encoding="utf-8"), "| lang | translations |")
    assert header[-1] == "authors' χ² p (expected: truthfulqa_multi)"
    assert "authors&#x27; χ² p (expected: truthfulqa_multi)" in (out / "report.html").read_text(encoding="utf-8")
    (record,) = json.loads((out / "report.json").read_text(encoding="utf-8"))["translations"]
    chi = record["pairs"][0]["authors_chi_square"]
    assert (chi["expected"], chi["observed"]) == ("truthfulqa_multi", "aaa_mine")


def test_no_chi_square_where_neither_translation_is_the_references_benchmark(tmp_path):
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi_mt", {"es": {"mc1": HUMAN}})
    write_aligned_run(tmp_path, "tiny", "truthfulqax", {"es": {"mc1": MACHINE}})
    (row,) = make_report(tmp_path).per_translation
    (pair,) = row.pairs
    assert pair.gap.test == "mcnemar" and pair.expected == ""
    assert pair.chi_square.p is None
    assert pair.chi_square.note == (
        "no expected side: the pair holds neither the human translation nor the reference's benchmark "
        "(truthfulqa_multi)"
    )


def test_a_tie_in_the_reference_language_goes_to_the_human_translation_never_to_the_name(tmp_path):
    """``aaa_mine`` answered as many English questions as TruthfulQA-Multi and sorts first;
    TruthfulQA-Multi's run says it is a human translation, so it is the gaps' reference and
    the chi-square's expected side. Runs that say nothing of their translation (before it
    was recorded) fall back to the reference's benchmark, still not to the name."""
    mine = planted(6, range(817), 0.3)
    write_aligned_run(tmp_path, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}})
    write_aligned_run(tmp_path, "tiny", "aaa_mine", {"en": {"mc1": EN}, "es": {"mc1": mine}})
    for align in (None, "tqa_index"):
        report = make_report(tmp_path, align=align)
        for row in report.per_translation:
            assert row.reference == "en (truthfulqa_multi)"
            assert [(p.first, p.second, p.expected) for p in row.pairs] == [
                ("truthfulqa_multi", "aaa_mine", "truthfulqa_multi")
            ]
    older = tmp_path / "older"
    write_aligned_run(older, "tiny", "truthfulqa_multi", {"en": {"mc1": EN}, "es": {"mc1": HUMAN}}, translation="")
    write_aligned_run(older, "tiny", "aaa_mine", {"es": {"mc1": mine}})
    (row,) = make_report(older).per_translation
    assert (row.pairs[0].first, row.pairs[0].expected) == ("truthfulqa_multi", "truthfulqa_multi")
