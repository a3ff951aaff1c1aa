"""TruthfulQA-Multi (docs/protocols.md#truthfulqa-multi): 6-shot MC1/MC2 and BLEU in en, es, ca, gl, eu."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from mlbench.benchmarks import register
from mlbench.benchmarks.base import (
    LanguageData,
    Result,
    Scored,
    Task,
    TaskOptions,
    data_file_language,
    require_primer,
)
from mlbench.benchmarks.lm_eval_names import LmEvalTask
from mlbench.benchmarks.options import own_options
from mlbench.benchmarks.qa_prompt import qa_prompt, score_answer_bleu
from mlbench.benchmarks.result_kinds import as_generation
from mlbench.benchmarks.truthful_mc import (
    lists_an_answer_twice,
    option_requests,
    repeated_answers_warning,
    score_mc1_mc2,
)
from mlbench.benchmarks.truthfulqa_multi.authors_judge import authors_judge, check_authors
from mlbench.benchmarks.truthfulqa_multi.gen_prompt import STOP, authors_gen_prompt
from mlbench.benchmarks.truthfulqa_multi.lm_eval_docs import logged_doc_difference
from mlbench.benchmarks.truthfulqa_multi.loader import ALIGNMENT, HUB_IDS, load_truthfulqa_multi
from mlbench.benchmarks.truthfulqa_multi.options import TruthfulQAMultiOptions
from mlbench.judges.judge import Judge
from mlbench.judges.options import JudgeProtocol
from mlbench.languages import no_comment
from mlbench.metrics import normalize_references
from mlbench.records import GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Sample
from mlbench.records.jsontypes import JsonObject

MAX_NEW_TOKENS = 256
# The generation protocol's version, in the settings hash of gen runs: samples generated
# with the earlier prompt (`Q: ...\nA:`, stops at a blank line) are never resumed into it.
GEN_PROTOCOL = "authors-lm-eval-logs"


@register
class TruthfulQAMulti(Task):
    name = "truthfulqa_multi"
    title = "TruthfulQA-Multi (professional translations)"
    languages = ("en", "es", "ca", "gl", "eu")
    hub_id = HUB_IDS["human"]
    variant = "human"
    default_fewshot = 6
    headline_metrics = ("mc1", "mc2", "bleu_acc", "truthful_informative")
    slice_fields = ("type", "category")
    alignment = ALIGNMENT
    prompt_files = ("shot", "question", "gen_question", "gen_answer")
    options_type = TruthfulQAMultiOptions
    judge_protocols = ("trained", "authors")
    # lm-eval's HiTZ tasks (0.4.13): MC1 and MC2 are two tasks that mlbench's mc mode joins.
    lm_eval_tasks: ClassVar[tuple[LmEvalTask, ...]] = (
        LmEvalTask("truthfulqa-multi_gen_{lang}", "gen"),
        LmEvalTask("truthfulqa-multi_mc1_{lang}", "mc"),
        LmEvalTask("truthfulqa-multi_mc2_{lang}", "mc"),
    )

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        if options.source.kind == "jsonl":
            data = data_file_language(options.source, lang)
            return LanguageData(with_mc_targets(data.samples), data.primer)
        split = load_truthfulqa_multi(lang, options.source, variant=self.variant)
        return LanguageData(split.samples, split.primer)

    def data_warnings(self, lang: str, samples: list[Sample], modes: tuple[str, ...]) -> list[str]:
        # The release lists some answers twice (ca: 25 of 817 questions); lm-eval's
        # truthfulqa_mc2 sums every listed choice, and so does score_mc1_mc2.
        if "mc" not in modes:
            return []
        repeated = sum(lists_an_answer_twice(s.mc2_choices or ()) for s in samples)
        return repeated_answers_warning(self.name, lang, repeated, len(samples), "lm-eval's truthfulqa_mc2")

    def _primer(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[tuple[str, str]]:
        return require_primer(self.name, data, self.fewshot(options), sample.lang)

    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]:
        prompt = qa_prompt(
            self.prompt_dir,
            sample.question,
            self._primer(sample, data, options),
            chat=options.chat_template,
            system_prompt=options.system_prompt,
        )
        return option_requests(prompt, sample, options.chat_template)

    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored:
        return score_mc1_mc2(sample, results)

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        prompt = authors_gen_prompt(
            self.prompt_dir,
            sample.question,
            self._primer(sample, data, options),
            chat=options.chat_template,
            system_prompt=options.system_prompt,
        )
        return GenerationRequest(prompt, max_new_tokens=options.max_new_tokens or MAX_NEW_TOKENS, stop=STOP)

    def mode_settings(self, mode: str, options: TaskOptions) -> JsonObject:
        if mode != "gen":
            return {}
        return {"protocol": GEN_PROTOCOL, "answer_format": own_options(options, TruthfulQAMultiOptions).answer_format}

    def judge_for(self, judge: Judge, run_config: JsonObject, lang: str, protocol: JudgeProtocol) -> Judge:
        if protocol.name != "authors":
            return judge
        return authors_judge(judge, protocol, run_config)

    def check_judge_protocol(
        self, protocol: JudgeProtocol, kinds: tuple[str, ...], run_config: JsonObject, chat: bool | None
    ) -> None:
        if protocol.name == "authors":
            check_authors(protocol, kinds, run_config, chat)

    def true_references(self, sample: Sample) -> list[str]:
        """The correct answers closed with a period, plus the language's "I have no
        comment." where missing (lm-eval 0.4.13's ``process_docs_gen``)."""
        refs = normalize_references(sample.correct_answers)
        extra = no_comment(sample.lang)
        if extra and extra not in refs:
            refs.append(extra)
        return refs

    def lm_eval_doc_difference(self, sample: Sample, doc: JsonObject, mode: str) -> str | None:
        return logged_doc_difference(sample, doc, mode, self.true_references(sample))

    def score(self, mode: str, sample: Sample, results: list[Result], options: TaskOptions) -> Scored:
        # Gen is scored here, not in ``score_gen``: what BLEU reads depends on an option.
        if mode != "gen":
            return super().score(mode, sample, results, options)
        answer_format = own_options(options, TruthfulQAMultiOptions).answer_format
        return score_answer_bleu(
            as_generation(results[0]),
            self.true_references(sample),
            normalize_references(sample.incorrect_answers),
            bleu_on="generation" if answer_format == "authors" else "answer",
        )


@register
class TruthfulQAMultiMT(TruthfulQAMulti):
    name = "truthfulqa_multi_mt"
    title = "TruthfulQA-Multi (machine translations)"
    hub_id = HUB_IDS["mt"]
    variant = "mt"
    lm_eval_tasks = ()  # lm-eval has no tasks over the machine translations
    prompt_dir = TruthfulQAMulti.prompt_dir  # the same prompts; only the translations differ
    alignment = replace(ALIGNMENT, translation="machine", translator="Claude 3.5 Sonnet")


def with_mc_targets(samples: list[Sample]) -> list[Sample]:
    """User rows carry answer lists only: MC1 = best vs the incorrect answers, MC2 = every
    correct vs every incorrect answer."""
    return [
        replace(
            s,
            mc1_choices=(s.best_answer, *s.incorrect_answers),
            mc2_choices=(*s.correct_answers, *s.incorrect_answers),
            mc2_labels=(1,) * len(s.correct_answers) + (0,) * len(s.incorrect_answers),
        )
        for s in samples
    ]
