"""VeritasQA (docs/protocols.md#veritasqa): zero-shot MC1/2/3, lprob and BLEU in en, es, ca, gl."""

from __future__ import annotations

from dataclasses import replace

from mlbench.benchmarks import register
from mlbench.benchmarks.base import GEN, LanguageData, Mode, Scored, Task, TaskOptions, data_file_language
from mlbench.benchmarks.qa_prompt import option_delimiter, qa_prompt, score_answer_bleu
from mlbench.benchmarks.scope_map import UNIVERSAL, ScopeMap, scope_map
from mlbench.benchmarks.truthful_mc import lists_an_answer_twice, repeated_answers_warning
from mlbench.benchmarks.truthfulqa_multi.loader import load_truthfulqa_multi
from mlbench.benchmarks.veritasqa.loader import HUB_ID, load_veritasqa
from mlbench.data.alignment import SCOPE_LABEL, TQA_INDEX_LABEL, Alignment
from mlbench.errors import MlbenchError
from mlbench.metrics import close_answer, mc_metrics, normalize_references
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt, Sample
from mlbench.records.jsontypes import JsonObject

STOP = ("Q:",)
MAX_NEW_TOKENS = 50
ALIGNMENT = Alignment(
    "TruthfulQA's row from the TruthfulQA-Multi authors' map of the universal questions VeritasQA kept "
    "(tru_<id> - 1; 288 of 353 align, the 65 questions VeritasQA wrote itself do not)",
    translation="human",
    translator="professional translators",
    from_scope_map=True,
)


def closed_options(sample: Sample) -> tuple[str, list[str], list[str]]:
    """The best, true and false options as the authors score them: each stripped and
    closed with a period (``format_best(close=True)``, ``split_multi_answer(close=True)``).
    The released answers almost never end with one, so this changes every score."""
    return (
        close_answer(sample.best_answer),
        normalize_references(sample.correct_answers),
        normalize_references(sample.incorrect_answers),
    )


def with_rows(samples: list[Sample], found: ScopeMap | None) -> list[Sample]:
    """``samples`` with the TruthfulQA row of each question the authors' map names (none
    without the map: the run is then told so, and unaligned). Every one is universal:
    VeritasQA kept only such questions, and wrote its own 65 to be such."""
    rows = found.veritas_rows if found is not None else {}
    return [
        replace(s, meta={**s.meta, SCOPE_LABEL: UNIVERSAL, **({TQA_INDEX_LABEL: rows[s.id]} if s.id in rows else {})})
        for s in samples
    ]


@register
class VeritasQA(Task):
    name = "veritasqa"
    title = "VeritasQA"
    languages = ("en", "es", "ca", "gl")
    hub_id = HUB_ID
    default_fewshot = 0
    modes = (Mode("mc", "loglikelihoods", ("mc1", "mc2", "mc3", "lprob_max", "lprob_diff")), GEN)
    prompt_files = ("question",)
    headline_metrics = ("mc1", "mc2", "bleu_acc", "truthful_informative")
    slice_fields = ("category",)
    alignment = ALIGNMENT

    def validate(self, options: TaskOptions) -> None:
        if self.fewshot(options) > 0:
            raise MlbenchError("veritasqa is zero-shot by design: --fewshot must be 0")

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        source = options.source
        if source.kind == "jsonl":
            return data_file_language(source, lang)
        if source.kind == "sample":
            # The embedded sample set is in TruthfulQA-Multi's layout; VeritasQA uses its
            # answer lists only.
            samples = load_truthfulqa_multi(lang, source).samples
            return LanguageData([replace(s, mc1_choices=None, mc2_choices=None, mc2_labels=None) for s in samples])
        return LanguageData(with_rows(load_veritasqa(lang, source), scope_map(source)))

    def data_warnings(self, lang: str, samples: list[Sample], modes: tuple[str, ...]) -> list[str]:
        # The release lists some answers twice once closed (gl: 12 of 353 questions); the
        # authors' MC2 and MC3 count every listed option, and so does score_mc.
        if "mc" not in modes:
            return []
        repeated = sum(lists_an_answer_twice(*closed_options(s)[1:]) for s in samples)
        return repeated_answers_warning(self.name, lang, repeated, len(samples), "the authors' code", "MC2 and MC3")

    def settings(self, options: TaskOptions) -> JsonObject:
        # Part of the settings hash: samples scored before options were closed (an older
        # mlbench) are refused by --resume instead of being mixed with closed ones.
        return {"answer_closing": "period"}

    def option_marks(self, sample: Sample) -> dict[str, bool]:
        best, true, false = closed_options(sample)
        return {**{text: False for text in false}, **{text: True for text in true}, best: True}

    @staticmethod
    def _options(sample: Sample) -> list[str]:
        # The best answer is scored even when the true list lacks it (the reference code
        # crashes there); identical strings once closed ("a", "a.") are scored once.
        best, true, false = closed_options(sample)
        return list(dict.fromkeys([best, *true, *false]))

    def _prompt(self, sample: Sample, options: TaskOptions) -> Prompt:
        return qa_prompt(
            self.prompt_dir, sample.question, [], chat=options.chat_template, system_prompt=options.system_prompt
        )

    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]:
        prompt = self._prompt(sample, options)
        delimiter = option_delimiter(options.chat_template)
        return [LoglikelihoodRequest(prompt, delimiter + option) for option in self._options(sample)]

    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored:
        ll = {option: r.logprob for option, r in zip(self._options(sample), results)}
        best, true, false = closed_options(sample)
        true_lls = [ll[a] for a in true]
        false_lls = [ll[a] for a in false]
        metrics = mc_metrics(true_lls, false_lls, best_ll=ll[best])
        # The options exactly as scored, beside their log-likelihoods.
        outputs: JsonObject = {
            "best_option": best,
            "true_options": list(true),
            "false_options": list(false),
            "best_loglikelihood": ll[best],
            "true_loglikelihoods": list(true_lls),
            "false_loglikelihoods": list(false_lls),
        }
        return outputs, metrics

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        return GenerationRequest(
            self._prompt(sample, options), max_new_tokens=options.max_new_tokens or MAX_NEW_TOKENS, stop=STOP
        )

    def score_gen(self, sample: Sample, generation: Generation) -> Scored:
        # TruthfulQA's BLEU protocol without the extra "I have no comment." reference; the
        # references are the closed true and false options.
        _, true, false = closed_options(sample)
        # The authors' run_answers writes typographic apostrophes as ASCII ones before
        # scoring (the references use "'"): the answer BLEU reads does the same, and the
        # completion is kept as generated.
        outputs, metrics = score_answer_bleu(
            replace(generation, text=generation.text.replace("\u2019", "'")), true, false
        )
        return {**outputs, "generation": generation.text}, metrics

    def mode_settings(self, mode: str, options: TaskOptions) -> JsonObject:
        return {"apostrophes": "ascii"} if mode == "gen" else {}
