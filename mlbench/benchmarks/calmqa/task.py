"""CaLMQA (docs/protocols.md#calmqa): long-form answers to culturally specific and agnostic questions
in 23 languages, scored by surface checks, a relevance judge and claim-level factuality.

The run generates and applies the surface checks; ``mlbench judge ... -J
kind=relevance,claims,claim_support`` (or ``run --judge``) adds the rest, and every stage
recomputes ``factuality`` and the overall scores from what the sample holds so far.
"""

from __future__ import annotations

import re

from mlbench.benchmarks import register
from mlbench.benchmarks.base import LanguageData, Mode, Scored, Task, TaskOptions, data_file_language
from mlbench.benchmarks.calmqa.loader import HUB_ID, load_calmqa
from mlbench.benchmarks.calmqa.options import CalmqaOptions
from mlbench.benchmarks.options import own_options
from mlbench.errors import MlbenchError
from mlbench.metrics.descriptor import share
from mlbench.records import (
    ChatMessage,
    Generation,
    GenerationRequest,
    Prompt,
    Sample,
    SampleRecord,
)
from mlbench.records.json_shapes import json_number
from mlbench.records.jsontypes import JsonObject

MAX_NEW_TOKENS = 2048
HIGH_RESOURCE = ("en", "ar", "zh", "de", "he", "hi", "hu", "ja", "ko", "ru", "es")
LOW_RESOURCE = ("aa", "bal", "fo", "fj", "hil", "rn", "pap", "ps", "sm", "to", "tn", "wo")
DEFAULT_JUDGE_KINDS = ("relevance", "claims", "claim_support")
# What ``overall_scores`` writes (see mlbench/metrics/descriptor.py). factuality is a share of
# claims, so it and overall (which multiplies it in) are not 0/1 per answer.
CALMQA_METRICS = (
    share("factuality", "share of the answer's claims the evidence supports (0 without a verifiable claim)"),
    share("overall", "surface × relevance × factuality, for questions with evidence", language_checked=True),
    share(
        "overall_without_factuality",
        "1 for a clean, relevant answer (surface × relevance)",
        binary=True,
        language_checked=True,
    ),
)


@register
class CaLMQA(Task):
    name = "calmqa"
    title = "CaLMQA"
    languages = HIGH_RESOURCE + LOW_RESOURCE
    modes = (Mode("gen", "answers"),)
    hub_id = HUB_ID
    combined_metric_names = tuple(metric.name for metric in CALMQA_METRICS)
    metric_descriptors = CALMQA_METRICS
    group_name = "kind"
    headline_metrics = ("overall", "surface_issue")
    slice_fields = ("kind", "category")
    prompt_files = ()
    default_judge_kinds = DEFAULT_JUDGE_KINDS
    options_type = CalmqaOptions

    def validate(self, options: TaskOptions) -> None:
        if self.fewshot(options) > 0:
            raise MlbenchError("calmqa is zero-shot by design: --fewshot must be 0")
        if options.source.kind == "sample":
            raise MlbenchError(
                "calmqa has no embedded sample set: use --data-dir DIR "
                "(DIR/calmqa/questions.jsonl, or a clone of the CaLMQA release)"
            )

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        if options.source.kind == "jsonl":
            return data_file_language(options.source, lang)
        questions = load_calmqa(lang, options.source, own_options(options, CalmqaOptions).kind)
        return LanguageData(questions.samples, counts=questions.counts)

    def sample_group(self, sample: Sample) -> str | None:
        kind = sample.meta.get("kind")  # load_calmqa's; a --data-file sample has none
        return kind if isinstance(kind, str) else None

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        # Zero-shot, no instruction: the question is the whole prompt (a user turn for chat),
        # as the authors' generate.py sends it: runs of newlines made one, then a newline
        # (their template is "[question]\n").
        text = re.sub("\n+", "\n", sample.question) + "\n"
        if options.chat_template:
            turns = [ChatMessage("system", options.system_prompt)] if options.system_prompt else []
            prompt = Prompt(messages=(*turns, ChatMessage("user", text)))
        else:
            prompt = Prompt(text=text)
        return GenerationRequest(prompt, max_new_tokens=options.max_new_tokens or MAX_NEW_TOKENS)

    def mode_settings(self, mode: str, options: TaskOptions) -> JsonObject:
        return {"prompt": "authors"} if mode == "gen" else {}

    def score_gen(self, sample: Sample, generation: Generation) -> Scored:
        answer = generation.text.strip()
        return {"answer": answer, "empty": not answer, "finish_reason": generation.finish_reason}, {}

    def judge_skip_reason(self, record: SampleRecord) -> str | None:
        surface = record.surface
        if surface and surface.get("issue"):
            return "surface issue (wrong language or repetition): not judged"
        return None

    def combined_metrics(self, record: SampleRecord) -> dict[str, float]:
        return overall_scores(record)


def overall_scores(record: SampleRecord) -> dict[str, float]:
    """``factuality``, ``overall`` (surface × relevance × factuality) and
    ``overall_without_factuality`` (surface × relevance) of one saved sample.

    A score appears only once the judges it needs have run: before the relevance judge
    there is no overall score at all, rather than one made of the surface failures alone.
    ``overall`` needs evidence for the question (a human answer or search); without it
    factuality is n/a and only ``overall_without_factuality`` is reported.
    """
    surface = record.surface
    if surface is None:  # the generation failed
        return {}
    clean = not surface["issue"]
    judges = record.judges
    relevance_entry = judges.get("relevance")
    relevance = None
    if relevance_entry is not None and relevance_entry.get("label") in ("relevant", "irrelevant"):
        relevance = float(relevance_entry["label"] == "relevant")
    support = judges.get("claim_support")
    factuality = None
    if clean and support is not None and "judge_error" not in support:
        if support.get("supported") is not None:
            factuality = float(json_number(support["supported"], "claim_support's supported"))
        elif support.get("claims") == [] and support.get("evidence"):
            factuality = 0.0  # no verifiable claim: the paper scores it 0
    values: dict[str, float] = {}
    if factuality is not None:
        values["factuality"] = factuality
    if relevance_entry is not None:
        if not clean:
            values["overall_without_factuality"] = 0.0
        elif relevance is not None:
            values["overall_without_factuality"] = relevance
    if support is not None and support.get("evidence"):
        if not clean or relevance == 0.0:
            values["overall"] = 0.0
        elif relevance == 1.0 and factuality is not None:
            values["overall"] = factuality
    return values
