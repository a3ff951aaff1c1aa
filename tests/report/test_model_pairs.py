"""Model against model in the report: a planted difference found and a null one not, the
values equal to scipy's and statsmodels' (McNemar, Wilcoxon, Holm), the minimum detectable
difference equal to a hand computation and to statsmodels' power functions, --ref-model,
and the new section in every format and in the terminal."""

import csv
import io
import json
import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestPower
from typer.testing import CliRunner

from mlbench.cli.main import app
from mlbench.errors import MlbenchError
from mlbench.report import make_report, write_report
from mlbench.report.machine import CSV_COLUMNS
from mlbench.stats.intervals import bootstrap_ci
from mlbench.stats.power import mdd_mcnemar

from .synthetic_runs import LANGS, write_run

N = 200
TASK = "truthfulqa_multi"
Z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)


def model_values(seed: int, n: int = N) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """Model → language → metric → question → value, for three models on the same
    questions: ``org/tuned`` repeats ``org/base`` with symmetric noise (10% of mc1 answers
    flipped either way, mc2 ± 0.05) except in Basque, where 40% of its mc1 answers turn
    wrong and its mc2 drops by 0.15; ``org/other`` is ``org/base`` with noise only."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i:03d}" for i in range(n)]
    out: dict[str, dict] = {"org/base": {}, "org/tuned": {}, "org/other": {}}
    for lang in LANGS:
        right = rng.random(n) < 0.6
        mc2 = rng.beta(4, 3, size=n)
        for model in ("org/tuned", "org/other"):
            flipped = np.where(rng.random(n) < 0.1, ~right, right)
            noisy = np.clip(mc2 + rng.normal(0, 0.05, size=n), 0, 1)
            if model == "org/tuned" and lang == "eu":
                flipped = np.where(rng.random(n) < 0.4, False, flipped)
                noisy = np.clip(noisy - 0.15, 0, 1)
            out[model][lang] = {"mc1": flipped.astype(float), "mc2": noisy}
        out["org/base"][lang] = {"mc1": right.astype(float), "mc2": mc2}
    return {
        model: {lang: {m: dict(zip(ids, v.tolist())) for m, v in by.items()} for lang, by in langs.items()}
        for model, langs in out.items()
    }


@pytest.fixture
def models(tmp_path):
    """``org/base`` and ``org/tuned`` (worse in Basque only)."""
    root = tmp_path / "results"
    values = model_values(11)
    for model in ("org/base", "org/tuned"):
        write_run(root, model, TASK, values[model])
    return root, values


def columns(values, model, lang, metric):
    ids = sorted(values[model][lang][metric])
    return np.array([values[model][lang][metric][q] for q in ids])


def test_a_planted_difference_is_found_and_a_null_one_is_not(models):
    root, _ = models
    report = make_report(root)
    assert [(t.metric, len(t.pairs)) for t in report.pairs] == [("mc1", 1), ("mc2", 1)]  # the headline metrics
    for table, test in zip(report.pairs, ("mcnemar", "wilcoxon")):
        assert table.langs == list(LANGS)
        pair = table.pairs[0]
        assert (pair.first, pair.second, pair.label) == ("org/base", "org/tuned", "org/tuned − org/base")
        for lang in LANGS:
            cell = pair.cell(lang)
            assert cell.gap.paired and cell.gap.test == test and cell.gap.n == N
            assert cell.gap.significant is (lang == "eu"), (table.metric, lang, cell.gap)
            assert cell.mdd is not None and cell.mdd > 0
        eu = pair.cell("eu").gap
        assert eu.diff < -0.1 and eu.ci_high < 0
        # A null language: its difference is within what the test could have missed.
        assert abs(pair.cell("es").gap.diff) < pair.cell("es").mdd


def test_values_equal_scipy_and_statsmodels(models):
    root, values = models
    report = make_report(root, seed=5)
    mc1, mc2 = report.pairs[0].pairs[0], report.pairs[1].pairs[0]
    raw = {"mc1": [], "mc2": []}
    for lang in LANGS:
        a, b = columns(values, "org/base", lang, "mc1"), columns(values, "org/tuned", lang, "mc1")
        cell = mc1.cell(lang)
        assert cell.gap.diff == pytest.approx(b.mean() - a.mean(), abs=1e-12)
        assert (cell.gap.ci_low, cell.gap.ci_high) == pytest.approx(bootstrap_ci(b - a, seed=5), abs=1e-12)
        only_b, only_a = int(((b == 1) & (a == 0)).sum()), int(((b == 0) & (a == 1)).sum())
        both = int(((a == 1) & (b == 1)).sum())
        table = [[both, only_a], [only_b, N - both - only_a - only_b]]
        reference = sm_mcnemar(table, exact=only_a + only_b < 25, correction=False)
        assert cell.gap.p == pytest.approx(reference.pvalue, rel=1e-9)
        assert cell.discordant == pytest.approx((only_a + only_b) / N)
        raw["mc1"].append(cell.gap.p)

        a, b = columns(values, "org/base", lang, "mc2"), columns(values, "org/tuned", lang, "mc2")
        cell = mc2.cell(lang)
        assert cell.gap.diff == pytest.approx(b.mean() - a.mean(), abs=1e-12)
        assert cell.gap.p == pytest.approx(float(stats.wilcoxon(b, a, method="asymptotic").pvalue), rel=1e-9)
        assert cell.sd_diff == pytest.approx(float(np.std(b - a, ddof=1)), rel=1e-12)
        raw["mc2"].append(cell.gap.p)
    # Holm over the languages of the pair on one metric.
    for metric, pair in (("mc1", mc1), ("mc2", mc2)):
        adjusted = multipletests(raw[metric], method="holm")[1]
        assert [pair.cell(lang).gap.p_holm for lang in LANGS] == pytest.approx(list(adjusted), rel=1e-12)


def connor_n(delta: float, discordant: float) -> float:
    """Connor (1987): the pairs McNemar's test needs to detect ``delta`` with 80% power at
    alpha 0.05 two-sided, for a discordant share ``discordant``."""
    z_a, z_b = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    return (z_a * math.sqrt(discordant) + z_b * math.sqrt(discordant - delta**2)) ** 2 / delta**2


def test_the_mdd_equals_a_hand_computation_and_statsmodels_power(models):
    root, values = models
    report = make_report(root)
    mc1, mc2 = report.pairs[0].pairs[0], report.pairs[1].pairs[0]
    for lang in LANGS:
        # Continuous: (z_0.975 + z_0.8) · sd / √n, and the effect size statsmodels solves for.
        cell = mc2.cell(lang)
        sd = float(np.std(columns(values, "org/tuned", lang, "mc2") - columns(values, "org/base", lang, "mc2"), ddof=1))
        assert cell.mdd == pytest.approx(Z * sd / math.sqrt(N), rel=1e-12)
        normal = NormalIndPower().solve_power(nobs1=N, alpha=0.05, power=0.8, ratio=0, alternative="two-sided")
        assert cell.mdd == pytest.approx(normal * sd, rel=1e-5)
        # The paired t-test's exact power needs a little more: within 1% at n = 200.
        t_test = TTestPower().solve_power(nobs=N, alpha=0.05, power=0.8, alternative="two-sided")
        assert cell.mdd < t_test * sd < cell.mdd * 1.01

        # Binary: Connor's sample size at the MDD is the n we have.
        cell = mc1.cell(lang)
        assert connor_n(cell.mdd, cell.discordant) == pytest.approx(N, rel=1e-9)
        assert cell.mdd == pytest.approx(Z * math.sqrt(cell.discordant / N), rel=0.03)  # its large-n form


def test_the_mcnemar_mdd_has_80_percent_power():
    """Simulated: pairs drawn with the discordant share and the difference of the MDD are
    found by McNemar's χ² test in about 80% of the samples."""
    n, discordant = 300, 0.2
    delta = mdd_mcnemar(discordant, n)
    rng = np.random.default_rng(0)
    tables = rng.multinomial(n, [(discordant + delta) / 2, (discordant - delta) / 2, 1 - discordant], size=4000)
    b, c = tables[:, 0], tables[:, 1]
    p = stats.chi2.sf((b - c) ** 2 / (b + c), df=1)
    assert sm_mcnemar([[0, b[0]], [c[0], 0]], exact=False, correction=False).pvalue == pytest.approx(p[0])
    assert float((p < 0.05).mean()) == pytest.approx(0.8, abs=0.025)


def test_ref_model_compares_each_other_model_with_it(tmp_path):
    values = model_values(11)
    for model in values:
        write_run(tmp_path, model, TASK, values[model])
    every = make_report(tmp_path)
    assert [p.label for p in every.pairs[0].pairs] == [
        "org/other − org/base",
        "org/tuned − org/base",
        "org/tuned − org/other",
    ]
    # Each pair is its own Holm family, over its languages.
    for pair in every.pairs[0].pairs:
        raw = [pair.cell(lang).gap.p for lang in LANGS]
        assert [pair.cell(lang).gap.p_holm for lang in LANGS] == pytest.approx(
            list(multipletests(raw, method="holm")[1]), rel=1e-12
        )
    against = make_report(tmp_path, ref_model="org/tuned")
    assert against.ref_model == "org/tuned"
    assert [p.label for p in against.pairs[0].pairs] == ["org/base − org/tuned", "org/other − org/tuned"]
    tuned_base = against.pairs[0].pairs[0].cell("eu").gap
    assert tuned_base.diff == pytest.approx(-every.pairs[0].pairs[1].cell("eu").gap.diff)
    assert tuned_base.p == pytest.approx(every.pairs[0].pairs[1].cell("eu").gap.p)
    with pytest.raises(
        MlbenchError, match=r"^--ref-model org/tunde: no such model in the runs \(did you mean org/tuned"
    ):
        make_report(tmp_path, ref_model="org/tunde")


def test_ref_model_takes_the_model_as_recorded(tmp_path):
    values = model_values(3)
    path = str(tmp_path / "ckpt" / "llama-eu")
    write_run(tmp_path / "runs", path, TASK, values["org/base"])
    write_run(tmp_path / "runs", "org/tuned", TASK, values["org/tuned"])
    for name in (path, "llama-eu"):
        report = make_report(tmp_path / "runs", ref_model=name)
        assert report.ref_model == "llama-eu" and report.pairs[0].pairs[0].label == "org/tuned − llama-eu"


def test_ref_model_notes_what_it_leaves_out(tmp_path):
    values = model_values(2)
    write_run(tmp_path, "org/base", TASK, values["org/base"])
    write_run(tmp_path, "org/tuned", TASK, values["org/tuned"])
    write_run(tmp_path, "org/tuned", "users_task", values["org/tuned"])
    write_run(tmp_path, "org/other", "users_task", values["org/other"])
    assert {t.task for t in make_report(tmp_path).pairs} == {TASK, "users_task"}
    report = make_report(tmp_path, ref_model="org/base")
    assert {t.task for t in report.pairs} == {TASK}
    assert report.collection.notes == ["--ref-model org/base has no run of users_task: its models are not compared"]
    alone = make_report(tmp_path, models=["org/base"], ref_model="org/base")
    assert alone.pairs == [] and "nothing to compare" in alone.collection.notes[0]


def test_only_questions_both_models_answered_are_paired(tmp_path):
    """A model run with --limit 50 is compared on those 50 questions, paired (no unpaired
    fallback); models with no question in common are not compared."""
    values = model_values(5)
    short = {
        lang: {m: dict(sorted(col.items())[:50]) for m, col in by.items()} for lang, by in values["org/tuned"].items()
    }
    write_run(tmp_path / "a", "org/base", TASK, values["org/base"])
    write_run(tmp_path / "a", "org/tuned", TASK, short)
    cell = make_report(tmp_path / "a").pairs[0].pairs[0].cell("en")
    a, b = columns(values, "org/base", "en", "mc1")[:50], columns(values, "org/tuned", "en", "mc1")[:50]
    assert cell.gap.n == 50 and cell.gap.paired and cell.gap.diff == pytest.approx(b.mean() - a.mean())
    renamed = {lang: {m: {f"x{q}": v for q, v in col.items()} for m, col in by.items()} for lang, by in short.items()}
    write_run(tmp_path / "b", "org/base", TASK, values["org/base"])
    write_run(tmp_path / "b", "org/tuned", TASK, renamed)
    assert make_report(tmp_path / "b").pairs == []


def test_a_report_of_one_model_has_no_comparison(tmp_path):
    write_run(tmp_path / "runs", "org/base", TASK, model_values(1)["org/base"])
    report = make_report(tmp_path / "runs")
    assert report.pairs == []
    write_report(
        report, tmp_path / "out", formats=["md", "csv", "latex", "html", "json"], plots=False, seed=0, resamples=1000
    )
    assert "Model against model" not in (tmp_path / "out" / "report.md").read_text()
    for name in ("report.tex", "report.html"):
        assert "MDD (80% power)" not in (tmp_path / "out" / name).read_text()
    header = (tmp_path / "out" / "report.csv").read_text().splitlines()[0]
    assert header == ",".join(CSV_COLUMNS)
    assert not {"model_pairs", "ref_model"} & set(json.loads((tmp_path / "out" / "report.json").read_text()))


def test_the_cli_shows_the_comparison(models, tmp_path):
    root, _ = models
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["report", str(root), "--format", "md,json,csv", "--out", str(out)], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    printed = result.stdout.split("wrote ")[0]  # the last line names the folder, as long as it is
    assert max(len(line) for line in printed.splitlines()) <= 80
    assert "truthfulqa_multi · org/tuned − org/base" in result.stdout and "mdd" in result.stdout
    eu = next(line for line in result.stdout.splitlines() if line.strip().startswith("eu†") and "−0." in line)
    assert "***" in eu
    md = (out / "report.md").read_text()
    section = md.split("## Model against model", 1)[1]
    assert (
        "### truthfulqa_multi · mc1 (McNemar)" in section
        and "### truthfulqa_multi · mc2 (Wilcoxon signed-rank)" in section
    )
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows[0] == "| models |  | en | es | ca | gl† | eu† |"
    assert rows[2].startswith("| org/tuned − org/base | difference [95% CI, unadjusted] | ")
    assert rows[3].startswith("|  | p (Holm) | ") and rows[3].split("|")[-2].strip().endswith("*")  # eu
    assert rows[4].startswith("|  | MDD (80% power), n | ") and "(n=200)" in rows[4]
    assert "Connor (1987)" in section or "Connor's (1987)" in section
    data = json.loads((out / "report.json").read_text())
    assert data["ref_model"] is None and "mdd80" in data["model_pairs_fields"]
    mc1 = data["model_pairs"][0]
    assert (mc1["metric"], mc1["pairs"][0]["model"], mc1["pairs"][0]["vs_model"]) == ("mc1", "org/tuned", "org/base")
    eu_cell = mc1["pairs"][0]["cells"]["eu"]
    assert eu_cell["significant_holm"] is True and eu_cell["gap_n"] == 200 and eu_cell["mdd80"] > 0
    rows = [r for r in csv.DictReader(io.StringIO((out / "report.csv").read_text())) if r["vs_model"]]
    assert len(rows) == 2 * len(LANGS) and {r["model"] for r in rows} == {"org/tuned"}
    assert float(rows[-1]["mdd80"]) == pytest.approx(
        data["model_pairs"][1]["pairs"][0]["cells"]["eu"]["mdd80"], rel=1e-5
    )


def test_the_terminal_shows_at_most_six_pairs_of_a_task(tmp_path):
    from mlbench.report.terminal import pairs_caption, render_pairs

    for i in range(5):
        write_run(tmp_path, f"org/m{i}", TASK, model_values(i)["org/base"])
    report = make_report(tmp_path)
    assert len(report.pairs[0].pairs) == 10
    assert len(render_pairs(report.pairs)) == 6
    assert "4 more pair(s) of models there too (or choose one with --ref-model)." in pairs_caption(report.pairs, None)
    assert len(render_pairs(make_report(tmp_path, ref_model="org/m0").pairs)) == 4


def test_an_unknown_ref_model_is_one_line(models):
    root, _ = models
    result = CliRunner().invoke(app, ["report", str(root), "--ref-model", "org/tunde"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "--ref-model org/tunde: no such model in the runs (did you mean org/tuned?)" in lines[0]
