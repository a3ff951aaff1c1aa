"""`mlbench report --by FIELD [--slices FILE.csv]`: a table per label of the questions, its
means over those questions and its language gaps tested and Holm-corrected per slice."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from tests.cli.test_cli import run_cli, run_model

RUN = "--task truthfulqa_multi --lang en,es,eu --sample --mode mc --backend hf --no-cache"


@pytest.fixture(scope="module")
def run_root(tiny_model, tmp_path_factory):
    out = tmp_path_factory.mktemp("sliced")
    assert run_model(tiny_model, out, RUN).exit_code == 0
    return out


def _samples(run_root, lang):
    path = next(run_root.rglob(f"samples_{lang}.jsonl"))
    return [json.loads(line) for line in path.read_text().splitlines()]


def _report(run_root, tmp_path, *flags):
    done = run_cli("report", run_root, "--metric", "mc1,mc2", "--format", "json", "--out", tmp_path, *flags)
    assert done.exit_code == 0, done.output
    return json.loads((tmp_path / "report.json").read_text())["tables"]


def test_a_table_per_category_with_its_own_means_and_holm(run_root, tmp_path):
    tables = _report(run_root, tmp_path, "--by", "category")
    by_category = defaultdict(lambda: defaultdict(list))
    for lang in ("en", "es", "eu"):
        for line in _samples(run_root, lang):
            by_category[line["labels"]["category"]][lang].append(line["metrics"]["mc2"])
    mc2 = {t["task"]: t for t in tables if t["metric"] == "mc2"}
    assert set(mc2) == {f"truthfulqa_multi · category={c}" for c in by_category}
    for category, langs in by_category.items():
        (row,) = mc2[f"truthfulqa_multi · category={category}"]["rows"]
        for lang, values in langs.items():
            assert row["cells"][lang]["n"] == len(values)
            assert row["cells"][lang]["value"] == pytest.approx(np.mean(values), abs=1e-12)
        tested = [row["cells"][lang] for lang in ("es", "eu") if row["cells"][lang].get("p") is not None]
        if len(tested) == 2:  # Holm over the slice's own languages
            holm = multipletests([c["p"] for c in tested], method="holm")[1]
            assert [c["p_holm"] for c in tested] == pytest.approx(list(holm))


def test_labels_of_ones_own_from_a_file(run_root, tmp_path):
    ids = [line["id"] for line in _samples(run_root, "en")]
    path = tmp_path / "context.csv"
    path.write_text(
        "id,context\n" + "".join(f"{q},{'cultural' if i % 2 else 'general'}\n" for i, q in enumerate(ids[:8]))
    )
    done = run_cli("report", run_root, "--slices", path, "--metric", "mc1", "--format", "json", "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert f"{len(ids) - 8} question(s) without a context are left out" in done.output
    tables = json.loads((tmp_path / "report.json").read_text())["tables"]
    assert {t["task"]: t["rows"][0]["cells"]["en"]["n"] for t in tables} == {
        "truthfulqa_multi · context=cultural": 4,
        "truthfulqa_multi · context=general": 4,
    }


def test_an_unknown_field_is_one_line_with_a_suggestion(run_root, tmp_path):
    done = run_cli("report", run_root, "--by", "categroy")
    assert done.exit_code == 2 and "did you mean category?" in done.output and "labels: category, type" in done.output
    two = tmp_path / "two.csv"
    two.write_text("id,a,b\n1,x,y\n")
    done = run_cli("report", run_root, "--slices", two)
    assert done.exit_code == 2 and "has a, b: choose one with --by" in done.output


def test_a_label_with_markup_or_a_slash_is_shown_as_written(run_root, tmp_path):
    ids = [line["id"] for line in _samples(run_root, "en")]
    path = tmp_path / "odd.csv"
    path.write_text("id,context\n" + "".join(f"{q},n/a [/b]\n" for q in ids))
    done = run_cli("report", run_root, "--slices", path, "--metric", "mc1", "--plots", "--out", tmp_path / "r")
    assert done.exit_code == 0, done.output
    assert "truthfulqa_multi · context=n/a [/b] · tiny" in done.output
    assert any(p.name.startswith("truthfulqa_multi-context=n-a-b-__mc1") for p in (tmp_path / "r" / "plots").iterdir())
