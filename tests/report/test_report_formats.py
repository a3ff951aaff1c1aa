"""Every report format written and read back: Markdown and LaTeX tables, CSV and JSON
rows, the HTML file's tables and embedded figures, the PNG files."""

import base64
import csv
import io
import json
import re
from html.parser import HTMLParser

import numpy as np
from PIL import Image

from mlbench.report import make_report, write_report

from .synthetic_runs import LANGS, write_run

FORMATS = ["md", "csv", "latex", "html", "json"]
# The column headers of LANGS: † marks the low-resource languages (Galician, Basque).
LABELS = ["en", "es", "ca", "gl†", "eu†"]


def write_all(root, out, ref_lang=None):
    report = make_report(root, ref_lang=ref_lang)
    written = write_report(report, out, formats=FORMATS, plots=True, seed=0, resamples=1000)
    return report.tables, written


class TableReader(HTMLParser):
    """The tables (rows of cell texts) and image sources of an HTML page."""

    def __init__(self):
        super().__init__()
        self.tables, self.images, self.scripts, self._cell = [], [], 0, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "img":
            self.images.append(dict(attrs)["src"])
        elif tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self._cell.strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def test_every_format_is_written_and_reads_back(two_models, tmp_path):
    out = tmp_path / "report"
    tables, written = write_all(two_models, out)
    names = {p.name for p in written}
    assert {"report.md", "report.csv", "report.tex", "report.html", "report.json"} <= names
    gap_tables = [t for t in tables if t.per_question]
    models = ["org/flat-model", "org/gap-model"]

    # JSON: every table, every model and language, the gaps.
    data = json.loads((out / "report.json").read_text())
    assert data["ref_lang"] == "en" and len(data["tables"]) == len(tables) == 3
    mc1 = next(t for t in data["tables"] if t["metric"] == "mc1")
    assert [row["model"] for row in mc1["rows"]] == models
    eu = mc1["rows"][1]["cells"]["eu"]
    assert eu["significant_holm"] is True and eu["test"] == "mcnemar" and eu["n"] == 200
    assert eu["gap_ci95_unadjusted_low"] < eu["gap"] < eu["gap_ci95_unadjusted_high"] < 0
    assert "not adjusted for multiplicity" in data["fields"]["gap_ci95_unadjusted_low, gap_ci95_unadjusted_high"]
    assert mc1["low_resource"] == ["gl", "eu"]
    assert "gap" not in mc1["rows"][1]["cells"]["en"]
    assert {r["model"] for r in data["runs"]} == set(models)

    # CSV: one row per task, metric, model and language, the same numbers as the JSON.
    rows = list(csv.DictReader(io.StringIO((out / "report.csv").read_text())))
    rows = [r for r in rows if not r["vs_model"]]  # the models' comparison rows: test_model_pairs.py
    assert len(rows) == 3 * 2 * 5
    row = next(r for r in rows if (r["metric"], r["model"], r["lang"]) == ("mc1", "org/gap-model", "eu"))
    # CSV numbers to 6 significant digits; JSON has full precision.
    assert float(row["value"]) == float(f"{eu['value']:.6g}") and float(row["p_holm"]) == float(f"{eu['p_holm']:.6g}")
    assert row["significant_holm"] == "True" and row["paired"] == "True"
    assert next(r for r in rows if r["lang"] == "en")["gap"] == ""
    numbers = [r[c] for r in rows for c in ("value", "ci_low", "ci_high", "gap", "p", "p_holm") if r[c]]
    assert all(len(text.lstrip("-").replace(".", "").split("e")[0].lstrip("0")) <= 6 for text in numbers)

    # Markdown: per task one scores table (a row per metric and model) and one gap table
    # (a row per metric and model, each cell the gap and its Holm p), every row complete.
    md = (out / "report.md").read_text()
    # The language tables; the section comparing the two models comes after them (test_model_pairs.py).
    md_tables = re.findall(r"((?:^\|.*\|\n)+)", md.split("## Model against model")[0], flags=re.M)
    assert len(md_tables) == 2
    for block in md_tables:
        lines = block.strip().splitlines()
        assert len({line.count("|") for line in lines}) == 1 and len(lines) == 2 + len(tables) * len(models)
    scores, gaps_md = ([[c.strip() for c in row.split("|")[1:-1]] for row in b.strip().splitlines()] for b in md_tables)
    assert scores[0] == ["metric", "model", *LABELS] and gaps_md[0] == ["metric", "model", "test", *LABELS[1:]]
    assert [row[:2] for row in scores[2:4]] == [["mc1", models[0]], ["", models[1]]]
    # n is the same in every cell: said once, not in each cell.
    assert "n=200 per cell unless shown" in md and "(n=200)" not in md.split("## Model against model")[0]
    mc1_eu = next(t for t in tables if t.metric == "mc1").cell("org/gap-model", "eu")
    assert scores[3][-1] == f"{mc1_eu.value.value:.3f} [{mc1_eu.value.ci_low:.3f}, {mc1_eu.value.ci_high:.3f}]"
    gap_row = gaps_md[3]
    assert gap_row[:3] == ["", "org/gap-model", "McNemar [2]"] and gaps_md[2][:2] == ["mc1", "org/flat-model"]
    assert gap_row[-1].startswith("−") and gap_row[-1].endswith(", p <0.001 ***")
    assert gaps_md[5][2] == gaps_md[4][2] == "Wilcoxon signed-rank [3]"  # mc2's rows
    # Each note once, in the Notes section the tables refer to.
    assert md.count("so they can disagree") == 1 and md.count("† low-resource language") == 1
    assert md.count("McNemar's test compares") == md.count("Wilcoxon's signed-rank test compares") == 1
    assert "![truthfulqa_multi · mc1](plots/truthfulqa_multi__mc1__bars.png)" in md

    # LaTeX: a table per metric, as many cells in each row as columns, escaped names.
    tex = (out / "report.tex").read_text()
    # Plus one table comparing the two models per headline metric (mc1, mc2).
    compared = len([t for t in tables if t.headline])
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == len(tables) + compared
    assert r"truthfulqa\_multi" in tex and "truthfulqa_multi" not in tex.replace(r"\_", "")
    for body in re.findall(r"\\midrule\n(.*?)\\bottomrule", tex, flags=re.S):
        for line in body.splitlines():
            if line.endswith(r"\\") and not line.startswith((r"\multicolumn", r"\midrule")):
                assert line.count(" & ") == len(LANGS) + 1, line
    assert r"$<$0.001$^{***}$" in tex and r"gl$^{\dagger}$" in tex
    # The heading and the caption of a gap table; the caption of a models' table.
    assert tex.count("not adjusted for multiplicity") == 2 * len(gap_tables) + compared
    assert "−" not in tex  # U+2212 is not in pdflatex's default fonts

    # HTML: the tables, the figures embedded as PNG data, no script, nothing fetched.
    html = (out / "report.html").read_text()
    reader = TableReader()
    reader.feed(html)
    assert reader.scripts == 0 and "http://" not in html and "https://" not in html
    assert len(reader.tables) == 2 * len(gap_tables) + compared
    values = reader.tables[0]
    assert values[0] == ["model", *LABELS] and [r[0] for r in values[1:]] == models
    gaps = reader.tables[1]
    assert gaps[0] == ["model", "", *LABELS[1:]]
    assert gaps[3][:2] == ["org/gap-model", "gap [95% CI, unadjusted]"] and "*" not in gaps[3][-1]
    assert gaps[4][1:] == ["p (Holm)", "1.000", "1.000", "1.000", "<0.001 ***"]
    assert "not adjusted for multiplicity" in html and "so they can disagree" in html
    assert 'class="significant"' in html and "<details>" in html
    # Heatmap and bars for the headline metrics present (mc1, mc2; not bleu_max).
    assert len(reader.images) == 2 * 2
    for src in reader.images:
        assert src.startswith("data:image/png;base64,")
        image = Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1])))
        assert image.format == "PNG" and image.width >= 400 and image.height >= 150

    # PNG files, the same figures.
    pngs = sorted((out / "plots").glob("*.png"))
    assert [p.name for p in pngs] == [
        f"truthfulqa_multi__{m}__{kind}.png" for m in ("mc1", "mc2") for kind in ("bars", "heatmap")
    ]
    for path in pngs:
        with Image.open(path) as image:
            image.verify()


def test_plots_widen_for_23_languages(tmp_path):
    from mlbench.benchmarks import get_task

    langs = get_task("calmqa").languages
    assert len(langs) == 23
    rng = np.random.default_rng(0)
    ids = [f"q{i}" for i in range(30)]
    values = {lang: {"overall": {q: float(rng.random() < 0.5) for q in ids}} for lang in langs}
    write_run(tmp_path / "wide", "m", "calmqa", values)
    write_run(tmp_path / "narrow", "m", "calmqa", {lang: values[lang] for lang in langs[:5]})
    sizes = {}
    for name in ("wide", "narrow"):
        write_all(tmp_path / name, tmp_path / f"{name}-report", ref_lang=langs[0])
        with Image.open(tmp_path / f"{name}-report" / "plots" / "calmqa__overall__bars.png") as image:
            sizes[name] = image.size
        with Image.open(tmp_path / f"{name}-report" / "plots" / "calmqa__overall__heatmap.png") as image:
            sizes[name + "-heatmap"] = image.size
    # About 30 pixels or more per language code, so 23 codes do not overlap.
    assert sizes["wide"][0] >= 23 * 30 and sizes["wide"][0] > sizes["narrow"][0]
    assert sizes["wide-heatmap"][0] >= 23 * 30 and sizes["wide-heatmap"][0] > sizes["narrow-heatmap"][0]


def test_a_metric_setting_gets_a_file_name():
    from mlbench.report.build import ReportTable
    from mlbench.report.write import figure_name

    table = ReportTable("xlinghealth", "sim_sent@0.5", "en", [], {}, True, True)
    assert figure_name(table, "bars") == "xlinghealth__sim_sent-0.5__bars.png"


def test_what_is_plotted(tmp_path):
    from mlbench.report import build_tables, collect

    values = {lang: {"mc1": {"q1": 1.0, "q2": 0.0}, "bleu_max": {"q1": 3.0, "q2": 0.0}} for lang in ("en", "es")}
    write_run(tmp_path, "m", "truthfulqa_multi", values)
    write_run(tmp_path, "m", "users_task", values)  # a task this version does not know
    plotted = {(t.task, t.metric) for t in build_tables(collect(tmp_path)) if t.headline}
    # The task's headline metrics; for an unknown task, its first metric.
    assert plotted == {("truthfulqa_multi", "mc1"), ("users_task", "mc1")}
    chosen = {(t.task, t.metric) for t in build_tables(collect(tmp_path), metrics=["bleu_max"]) if t.headline}
    assert chosen == {("truthfulqa_multi", "bleu_max"), ("users_task", "bleu_max")}
