"""TruthfulQA's multiple-choice protocol, shared by the benchmarks that score it
(TruthfulQA-Multi and its machine translations, declared benchmarks): every distinct
option is scored once after the question's prompt; MC1 is the best answer against the
incorrect ones, MC2 the probability mass of the true answers (docs/protocols.md)."""

from __future__ import annotations

from collections.abc import Sequence

from mlbench.benchmarks.base import Scored
from mlbench.benchmarks.qa_prompt import option_delimiter
from mlbench.metrics import mc_metrics
from mlbench.records import LoglikelihoodRequest, LoglikelihoodResult, Prompt, Sample
from mlbench.records.jsontypes import JsonObject


def distinct_options(sample: Sample) -> list[str]:
    """MC1's options and MC2's, each once (MC1's are mostly a subset of MC2's)."""
    return list(dict.fromkeys([*(sample.mc1_choices or ()), *(sample.mc2_choices or ())]))


def option_requests(prompt: Prompt, sample: Sample, chat: bool) -> list[LoglikelihoodRequest]:
    delimiter = option_delimiter(chat)
    return [LoglikelihoodRequest(prompt, delimiter + option) for option in distinct_options(sample)]


def score_mc1_mc2(sample: Sample, results: list[LoglikelihoodResult], true_before: int | None = None) -> Scored:
    """The saved log-likelihoods (per MC1 and MC2 choice, in the sample's order) and
    ``mc1``/``mc2`` from the results of ``option_requests``. MC2's true options are those
    labelled 1, or, given ``true_before``, the first ``true_before`` (lm-eval's
    ``process_results_mc2`` splits the list at the first label 0)."""
    ll = {option: r.logprob for option, r in zip(distinct_options(sample), results)}
    mc1 = [ll[c] for c in sample.mc1_choices or ()]
    labels = list(sample.mc2_labels or ())
    if true_before is not None:  # over every option, as the split is (its labels may be fewer)
        labels = [int(i < true_before) for i in range(len(sample.mc2_choices or ()))]
    mc2 = [(ll[c], label) for c, label in zip(sample.mc2_choices or (), labels)]
    if not mc1 or not mc2:
        raise ValueError(f"{sample.id}: no MC1 or MC2 option to score")
    # MC1: the first mc1 choice is the best answer; a tie goes to it (lm-eval's argmax), and
    # so does a list of one option.
    mc1_value = mc_metrics(mc1[:1], mc1[1:], mc1_ties="correct")["mc1"] if len(mc1) > 1 else 1.0
    true, false = [v for v, lab in mc2 if lab], [v for v, lab in mc2 if not lab]
    # No true option (the split's first label is 0) holds no mass; no false one, all of it.
    mc2_value = mc_metrics(true, false)["mc2"] if true and false else float(bool(true))
    outputs: JsonObject = {
        "mc1_loglikelihoods": list(mc1),
        "mc2_loglikelihoods": [v for v, _ in mc2],
        "mc2_labels": list(sample.mc2_labels or ()),
    }
    return outputs, {"mc1": mc1_value, "mc2": mc2_value}


def lists_an_answer_twice(*answer_lists: Sequence[str]) -> bool:
    """Whether one answer appears twice across ``answer_lists``: repeated in a list, or
    listed as both correct and incorrect."""
    listed = [answer for answers in answer_lists for answer in answers]
    return len(set(listed)) < len(listed)


def repeated_answers_warning(
    task: str, lang: str, repeated: int, total: int, reference: str, metrics: str = "MC2"
) -> list[str]:
    """The one line a language gets when some of its questions list an answer twice. The
    scores keep every listing, as the benchmark's reference does (a repeated false answer
    weighs twice in MC2): numbers stay comparable with the published ones, and the reader
    is told why they differ from a deduplicated count."""
    if not repeated:
        return []
    return [
        f"{task} {lang}: {repeated} of {total} questions list an answer more than once (repeated, or both correct"
        f" and incorrect); each listing counts in {metrics}, as in {reference}"
    ]
