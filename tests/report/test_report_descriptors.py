"""results.json carries its metrics' descriptors, and `mlbench report` reads them: the test
a gap gets follows ``binary``, not the values; a benchmark this installation has no code
for is reported with the decimals, scale and headline its file declares."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlbench.errors import MlbenchError
from mlbench.report import build_tables, collect
from mlbench.report.cells import gap_text, value_text
from mlbench.report.gaps import NOT_ZERO_ONE, compare
from mlbench.results import read_run

from .synthetic_runs import LANGS, planted_values, write_run


def _tables(root):  # type: ignore[no-untyped-def]
    return {t.metric: t for t in build_tables(collect(root))}


def test_results_json_describes_its_metrics(tmp_path):
    run_dir = write_run(tmp_path, "m", "truthfulqa_multi", planted_values(0, gap_lang=None))
    block = json.loads((run_dir / "results.json").read_text())["metrics"]
    assert list(block) == ["mc1", "mc2", "bleu_max"]
    assert block["mc1"] == {
        "kind": "share",
        "decimals": 3,
        "higher_is_better": True,
        "binary": True,
        "description": block["mc1"]["description"],
        "headline": True,
    }
    assert block["bleu_max"]["kind"] == "score" and block["bleu_max"]["decimals"] == 2
    assert not block["bleu_max"]["headline"] and not block["mc2"]["binary"]
    assert read_run(run_dir).descriptors.metrics["mc1"].binary


def test_the_test_follows_the_declaration_not_the_values():
    reference = {f"q{i}": float(i % 2) for i in range(40)}
    other = {f"q{i}": float(i % 3 == 0) for i in range(40)}
    assert compare("es", reference, other, binary=True).test == "mcnemar"
    # All 0s and 1s, but not declared so (CaLMQA's factuality in a small sample): ranked.
    assert compare("es", reference, other, binary=False).test == "wilcoxon"
    # Declared 0/1 but holding other values: not forced through McNemar, and said so.
    halves = {q: v / 2 for q, v in other.items()}
    gap = compare("es", reference, halves, binary=True)
    assert gap.test == "wilcoxon" and NOT_ZERO_ONE in gap.note


def test_a_share_of_claims_that_happens_to_be_0_or_1_is_ranked(tmp_path):
    rng = np.random.default_rng(0)
    ids = [f"q{i}" for i in range(60)]
    values = {lang: {"factuality": {q: float(rng.random() < 0.5) for q in ids}} for lang in ("en", "es")}
    write_run(tmp_path, "m", "calmqa", values)
    assert _tables(tmp_path)["factuality"].gap("m", "es").test == "wilcoxon"


def _user_benchmark_run(tmp_path):  # type: ignore[no-untyped-def]
    """A run of ``my_bench``, which this installation does not know, whose results.json
    declares ``acc`` (0/1 per sample, 1 decimal, a headline) and ``tokens`` (a count)."""
    rng = np.random.default_rng(1)
    ids = [f"q{i}" for i in range(80)]
    values = {
        lang: {
            "acc": {q: float(rng.random() < (0.8 if lang == "en" else 0.3)) for q in ids},
            "tokens": {q: float(rng.integers(5, 50)) for q in ids},
        }
        for lang in LANGS[:3]
    }
    run_dir = write_run(tmp_path, "m", "my_bench", values)
    path = run_dir / "results.json"
    data = json.loads(path.read_text())
    data["metrics"] = {
        "acc": {"kind": "share", "decimals": 1, "higher_is_better": True, "binary": True, "headline": True},
        "tokens": {"kind": "count", "decimals": 2, "higher_is_better": None, "binary": False, "headline": False},
    }
    path.write_text(json.dumps(data))
    return tmp_path


def test_a_report_of_an_unknown_benchmark_reads_its_file(tmp_path):
    tables = _tables(_user_benchmark_run(tmp_path))
    acc, tokens = tables["acc"], tables["tokens"]
    assert acc.descriptor.decimals == 1 and acc.descriptor.is_share and acc.headline
    assert not tokens.headline and tokens.descriptor.kind == "count"
    gap = acc.gap("m", "es")
    assert gap.test == "mcnemar" and gap.significant
    assert value_text(acc.descriptor, acc.cell("m", "es")).count(".") == 3  # one decimal each
    assert value_text(acc.descriptor, acc.cell("m", "es")).split(" ")[0] == f"{acc.cell('m', 'es').value.value:.1f}"
    assert gap_text(acc.descriptor, gap).startswith(f"{gap.diff:+.1f}".replace("-", "−"))
    assert tokens.gap("m", "es").test == "wilcoxon"


def test_an_older_file_without_the_block_falls_back_to_the_catalog(tmp_path):
    run_dir = write_run(tmp_path, "m", "truthfulqa_multi", planted_values(0, gap_lang="eu"))
    path = run_dir / "results.json"
    data = json.loads(path.read_text())
    del data["metrics"]
    path.write_text(json.dumps(data))
    assert read_run(run_dir).descriptors is None
    tables = _tables(tmp_path)
    assert tables["mc1"].gap("m", "eu").test == "mcnemar" and tables["mc1"].headline
    assert tables["bleu_max"].descriptor.decimals == 2 and not tables["bleu_max"].headline


def test_a_damaged_block_is_refused_with_one_line(tmp_path):
    run_dir = write_run(tmp_path, "m", "truthfulqa_multi", planted_values(0, gap_lang=None))
    path = run_dir / "results.json"
    data = json.loads(path.read_text())
    data["metrics"]["mc1"]["kind"] = "ratio"
    path.write_text(json.dumps(data))
    with pytest.raises(MlbenchError, match=r"results.json: not an mlbench results file .*kind 'ratio'"):
        read_run(run_dir)
