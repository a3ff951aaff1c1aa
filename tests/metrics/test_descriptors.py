"""Metric descriptors: every metric a built-in benchmark can write is declared, once and
consistently; the numbers they make tables print are today's; a name nothing declares
gets a default instead of a crash."""

from __future__ import annotations

import pytest

from mlbench.benchmarks import all_tasks
from mlbench.benchmarks.calmqa.task import overall_scores
from mlbench.engine.answer_checks import surface_metric_names
from mlbench.metrics.bleu import bleu_metrics
from mlbench.metrics.catalog import SHARED_METRICS, describe, headline_metrics, is_declared, task_metrics
from mlbench.metrics.descriptor import KINDS, Metric, MetricsBlock, by_name, share, undeclared
from mlbench.metrics.judged import JUDGE_METRICS, judged_metrics
from mlbench.metrics.mc import mc_metrics
from mlbench.metrics.rouge import rouge_metrics
from mlbench.metrics.surface import surface_block, surface_metrics
from mlbench.records import MetricValue, SampleRecord
from mlbench.report.plots import is_share
from mlbench.results.tables import decimals, format_value


def _written_by(task) -> set[str]:  # type: ignore[no-untyped-def]
    """Every base name ``task`` can write: its modes' metrics, the surface checks of its
    answers, the judges' metrics, its combined scores and its headline."""
    names = {m for mode in task.modes for m in mode.metrics}
    names |= set(surface_metric_names(task, task.mode_names))
    names |= set(JUDGE_METRICS) | set(task.combined_metric_names) | set(task.headline_metrics)
    return names


@pytest.mark.parametrize("task", all_tasks(), ids=lambda task: task.name)
def test_every_metric_a_built_in_task_writes_is_declared(task):
    undeclared_names = sorted(name for name in _written_by(task) if not is_declared(name, task.name))
    assert not undeclared_names, f"{task.name}: no descriptor for {undeclared_names}"


def test_what_the_metric_functions_return_is_declared():
    verdicts = {
        "truth": {"label": "yes"},
        "info": {"label": "no"},
        "verify": {"label": "yes"},
        "relevance": {"label": "relevant"},
        "correctness": {"label": "contradictory"},
        "claims": {"label": "parsed", "claims": ["a", "b"]},
        "claim_support": {"supported": 0.5, "claims": ["a", "b"], "evidence": "e"},
    }
    block = surface_block("This answer is long enough to be judged for its language.", "en")
    judges = {"relevance": {"label": "relevant"}, "claim_support": verdicts["claim_support"]}
    record = SampleRecord("q1", "en", surface=block, judges=judges)
    produced = {
        *mc_metrics([-1.0, -3.0], [-2.0]),
        *bleu_metrics("a cat", ["a cat"], ["a dog"]),
        *rouge_metrics("a cat", ["a cat"], ["a dog"]),
        *judged_metrics(verdicts),
        *surface_metrics(block, "eu"),
        *overall_scores(record),
    }
    assert produced >= {"mc1", "lprob_diff", "bleu_acc", "claims", "correctness_more", "overall", "surface_issue"}
    assert produced >= {"rouge1_max", "rouge2_acc", "rougeL_diff"}
    assert all(is_declared(name) for name in produced), sorted(n for n in produced if not is_declared(n))


def test_declarations_agree_across_benchmarks():
    # A benchmark may add metrics but not give a shared name (or another's) another meaning.
    declared = [*SHARED_METRICS.values(), *(m for task in all_tasks() for m in task.metric_descriptors)]
    by_name(declared)  # raises on two different descriptors under one name
    for metric in declared:
        assert metric.kind in KINDS and metric.description
        assert not metric.binary or metric.kind == "share"


def test_headline_metrics_stay_on_the_task_and_are_declared():
    for task in all_tasks():
        assert headline_metrics(task.name) == task.headline_metrics
        assert all(is_declared(name, task.name) for name in task.headline_metrics)
    assert headline_metrics("someone_elses_benchmark") == ()


# The rule tables printed before the descriptors: 2 decimals for BLEU max/diff, log-probs,
# lengths and claim counts, 3 for everything else; and the metrics figures drew on 0–1.
_OLD_WIDE = {"bleu_max", "bleu_diff", "lprob_max", "lprob_diff", "length", "claims"}
# ROUGE, new with TruthfulQA-X and NorTruthfulQA's generation: on BLEU's scales.
_OLD_WIDE |= {f"{kind}_{part}" for kind in ("rouge1", "rouge2", "rougeL") for part in ("max", "diff")}
_OLD_SHARES = {
    "mc1", "mc2", "mc3", "bleu_acc", "refusal", "factuality", "overall", "overall_without_factuality",
    "truthful_informative", "relevant", "claims_supported", "truthful", "informative", "verified",
    "correctness_more", "correctness_less", "correctness_neither", "correctness_contradictory",
    "wrong_language", "repetition", "surface_issue", "marker_apology", "marker_refusal",
    "marker_language_named", "marker_translation_request", "marker_emoji",
    "verify_precision", "verify_recall", "verify_f1", "verify_accuracy", "verify_auc",
    "mc1_norm",  # lm-eval's acc_norm (AraDiCE-TruthfulQA), new with the declared benchmarks' mc_metrics
    "rouge1_acc", "rouge2_acc", "rougeL_acc",  # as bleu_acc
}  # fmt: skip


def test_decimals_and_scales_are_todays():
    names = set(task_metrics())
    assert names >= _OLD_SHARES | _OLD_WIDE
    for name in names:
        assert decimals(name) == (2 if name in _OLD_WIDE else 3), name
        assert decimals(f"{name}@0.25") == decimals(name)
        assert is_share(name) is (name in _OLD_SHARES), name


@pytest.mark.parametrize(
    ("metric", "binary"),
    [
        ("mc1", True),
        ("bleu_acc", True),
        ("refusal@adversarial", True),
        ("wrong_language@direct", True),
        ("truthful_informative", True),
        ("correctness_contradictory", True),
        ("overall_without_factuality", True),
        ("mc2", False),
        ("mc3", False),
        ("bleu_max", False),
        ("factuality", False),  # a share of claims
        ("overall", False),  # multiplies factuality in
        ("claims_supported", False),
        ("sim_sent@0", False),
        ("length@0", False),
    ],
)
def test_which_metrics_are_0_or_1_per_sample(metric, binary):
    assert describe(metric).binary is binary


def test_directions():
    assert describe("mc1").higher_is_better is True
    assert describe("lprob_diff").higher_is_better is True  # > 0 exactly when a true option wins
    assert describe("lprob_max").higher_is_better is None  # a raw log-likelihood, length-bound
    assert describe("surface_issue").higher_is_better is False
    assert describe("correctness_contradictory").higher_is_better is False
    assert describe("refusal@adversarial").higher_is_better is None
    assert describe("length@0").higher_is_better is None


def test_a_name_nothing_declares_gets_a_default():
    about = describe("my_benchmark_score@0.5", "my_benchmark")
    assert about == undeclared("my_benchmark_score")
    assert (about.kind, about.decimals, about.binary, about.higher_is_better) == ("score", 3, False, None)
    assert format_value("my_benchmark_score@0.5", MetricValue(0.12345, 0.1, 0.2, 0.01)) == "0.123 [0.100, 0.200]"
    assert not is_share("my_benchmark_score")


def test_a_task_s_own_descriptor_comes_first():
    assert describe("refusal", "msqad").binary
    assert describe("verify_auc@0", "xlinghealth").computed_with == "verifiability"
    # Without a task, every known benchmark's declarations are searched.
    assert describe("sim_sent@0.25").kind == "score"


def test_a_descriptor_refuses_what_cannot_be():
    with pytest.raises(ValueError, match="only a share"):
        Metric("x", "score", 2, True, True, "a score cannot be 0/1")
    with pytest.raises(ValueError, match="kind"):
        Metric("x", "ratio", 2, True, False, "")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="decimals"):
        Metric("x", "share", 3.5, True, False, "")  # type: ignore[arg-type]


def test_the_results_json_block_round_trips():
    block = MetricsBlock({"mc1": describe("mc1"), "acc": share("acc", "mine", binary=True)}, ("acc",))
    data = block.to_json()
    assert data["acc"] == {
        "kind": "share",
        "decimals": 3,
        "higher_is_better": True,
        "binary": True,
        "description": "mine",
        "headline": True,
    }
    assert data["mc1"]["headline"] is False
    assert MetricsBlock.from_json(data) == block
    for damaged in ([], {"acc": []}, {"acc": {"kind": "share"}}, {"acc": {**data["acc"], "kind": "ratio"}}):
        with pytest.raises((TypeError, KeyError, ValueError)):
            MetricsBlock.from_json(damaged)
