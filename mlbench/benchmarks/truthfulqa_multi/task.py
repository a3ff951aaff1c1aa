"""TruthfulQA-Multi (docs/protocols.md#truthfulqa-multi): 6-shot MC1/MC2 and BLEU in en, es, ca, gl, eu."""

from __future__ import annotations

from dataclasses import replace

from mlbench.benchmarks import register
from mlbench.benchmarks.truthfulqa_multi.loader import HUB_IDS, load_truthfulqa_multi
from mlbench.languages import no_comment
from mlbench.metrics import normalize_references
from mlbench.schema import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Sample
from mlbench.tasks.base import LanguageData, Scored, Task, TaskOptions, data_file_language, require_primer
from mlbench.tasks.qa_prompt import qa_prompt, score_answer_bleu
from mlbench.tasks.truthful_mc import option_requests, score_mc1_mc2

STOP = ("\n\n", "Q:")
MAX_NEW_TOKENS = 256


@register
class TruthfulQAMulti(Task):
    name = "truthfulqa_multi"
    title = "TruthfulQA-Multi (professional translations)"
    languages = ("en", "es", "ca", "gl", "eu")
    hub_id = HUB_IDS["human"]
    variant = "human"
    default_fewshot = 6
    headline_metrics = ("mc1", "mc2", "bleu_acc", "truthful_informative")
    prompt_files = ("shot", "question")

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        if options.source.kind == "jsonl":
            data = data_file_language(options.source, lang)
            return LanguageData(with_mc_targets(data.samples), data.primer)
        split = load_truthfulqa_multi(lang, options.source, variant=self.variant)
        return LanguageData(split.samples, split.primer)

    def _prompt(self, sample: Sample, data: LanguageData, options: TaskOptions):
        primer = require_primer(self.name, data, self.fewshot(options), sample.lang)
        return qa_prompt(
            self.prompt_dir, sample.question, primer, chat=options.chat_template, system_prompt=options.system_prompt
        )

    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]:
        return option_requests(self._prompt(sample, data, options), sample, options.chat_template)

    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored:
        return score_mc1_mc2(sample, results)

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        return GenerationRequest(
            self._prompt(sample, data, options), max_new_tokens=options.max_new_tokens or MAX_NEW_TOKENS, stop=STOP
        )

    def true_references(self, sample: Sample) -> list[str]:
        refs = normalize_references(sample.correct_answers)
        extra = no_comment(sample.lang)
        if extra and extra not in refs:
            refs.append(extra)
        return refs

    def score_gen(self, sample: Sample, generation: Generation) -> Scored:
        return score_answer_bleu(
            generation, self.true_references(sample), normalize_references(sample.incorrect_answers)
        )


@register
class TruthfulQAMultiMT(TruthfulQAMulti):
    name = "truthfulqa_multi_mt"
    title = "TruthfulQA-Multi (machine translations)"
    hub_id = HUB_IDS["mt"]
    variant = "mt"
    prompt_dir = TruthfulQAMulti.prompt_dir  # the same prompts; only the translations differ


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
