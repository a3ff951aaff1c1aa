"""XLingHealth (docs/protocols.md#xlinghealth): health questions in en/es/zh/hi, judged on three criteria.

- ``correctness``: one greedy answer under an expert-health instruction in the question's
  language; ``mlbench judge`` (or ``run --judge``) adds the correctness judge's label.
- ``consistency``: K answers per temperature from one request (n=K). The n-gram
  similarities and the length are scored at once; the model-based ones (sentence
  embeddings, BERTScore, LDA/HDP topics) need every answer of a language and are added
  when the language finishes (``consistency.py``); languages are then compared with
  ANOVA, Tukey HSD and t-tests (``language_comparison.py``).
- ``verifiability``: is each of five candidate answers (the gold one and four others)
  a correct answer? Yes/No read from log-probs (P(Yes)) or from a generated word;
  macro precision, recall, F1, accuracy and AUC per language and temperature.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

from mlbench import data as datastore
from mlbench.benchmarks import register
from mlbench.benchmarks.base import LanguageData, Mode, Request, Result, Scored, StartProgress, Task, TaskOptions
from mlbench.benchmarks.helper_models import HelperModel, sentence_embedder
from mlbench.benchmarks.options import own_options
from mlbench.benchmarks.qa_prompt import clean_answer
from mlbench.benchmarks.result_kinds import as_generation, as_loglikelihood
from mlbench.benchmarks.xlinghealth.authors_judge import judge_for as authors_judge_for
from mlbench.benchmarks.xlinghealth.authors_prompts import authors_prompts
from mlbench.benchmarks.xlinghealth.consistency import CONSISTENCY_DESCRIPTORS, CONSISTENCY_METRICS, add_model_metrics
from mlbench.benchmarks.xlinghealth.language_comparison import compare_languages
from mlbench.benchmarks.xlinghealth.loader import (
    SOURCE,
    UPSTREAM_NAMES,
    dataset_candidates,
    find_dataset,
    load_xlinghealth,
)
from mlbench.benchmarks.xlinghealth.options import XLingHealthOptions
from mlbench.benchmarks.xlinghealth.sources import UPSTREAM
from mlbench.benchmarks.xlinghealth.verifiability import VERIFY_DESCRIPTORS, VERIFY_METRICS, verifiability_metrics
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.judges.judge import NO_SPELLINGS, YES_SPELLINGS, Judge
from mlbench.judges.options import JudgeProtocol
from mlbench.judges.parsing import parse_yes_no
from mlbench.judges.spec import tomllib
from mlbench.metrics.judged import log_odds, yes_probability
from mlbench.metrics.names import temperature_key
from mlbench.metrics.similarity import ngram_consistency
from mlbench.records import (
    ChatMessage,
    Generation,
    GenerationRequest,
    LoglikelihoodRequest,
    MetricValue,
    Prompt,
    Sample,
    SampleRecord,
)
from mlbench.records.json_shapes import json_objects, json_text
from mlbench.records.jsontypes import JsonObject, JsonValue, Tables
from mlbench.resources import load_prompt, prompts_dir

MODES = ("correctness", "consistency", "verifiability")
ANSWER_TOKENS = 512  # long enough for a few paragraphs
# The authors' cap on an answer (correctness/utils_chatgpt.py: max_tokens=1000, at
# temperature 0). Their consistency answers had none; a local model needs one: the same.
AUTHORS_ANSWER_TOKENS = 1000
# Their MedAlpaca runs (no chat template): the ``sampling`` of each mode's
# params_medalpaca.py, 512 new tokens and top-p 0.9 (its top-k 50 has no place in mlbench's
# requests: a difference the protocol page names).
MEDALPACA_TOKENS, MEDALPACA_TOP_P = 512, 0.9
VERIFY_TOKENS = 8  # one word, plus room for punctuation or a stray token
NOT_A_SOURCE = (
    "xlinghealth reads the XLingEval release (.xlsx, or its .csv conversions), not --sample or --data-file: "
    "drop them to read mlbench's copy, or pass --data-dir DIR"
)


@cache
def _prompts() -> dict[str, dict[str, str]]:
    return tomllib.loads(load_prompt(prompts_dir("xlinghealth"), "prompts.toml"))


def _data_folder(source: DataSource) -> Path:
    """The folder the datasets are resolved in: --data-dir, or by default mlbench's copy
    of the XLingEval repository in its data cache."""
    if source.kind == "local":
        assert source.path is not None
        return source.path
    if source.kind == "hub":
        return datastore.source_folder("xlinghealth")
    raise MlbenchError(NOT_A_SOURCE)


def _chosen_files(options: TaskOptions) -> dict[str, Path]:
    """Dataset name → file, in the order given (default: every dataset present)."""
    settings = own_options(options, XLingHealthOptions)
    own_file, chosen = settings.healthqa_file, settings.datasets
    unknown = [d for d in chosen if d not in UPSTREAM_NAMES]
    if unknown:
        raise MlbenchError(f"xlinghealth has no dataset {', '.join(unknown)}; valid: {', '.join(UPSTREAM_NAMES)}")
    own = {"healthqa": own_file} if own_file is not None else {}
    if chosen and all(d in own for d in chosen):
        return {d: own[d] for d in chosen}  # healthqa_file alone needs no release
    folder = _data_folder(options.source)
    found = {d: own.get(d) or find_dataset(folder, d) for d in UPSTREAM_NAMES}
    if not chosen:
        present = {d: path for d, path in found.items() if path is not None}
        if not present:
            names = ", ".join(UPSTREAM_NAMES.values())
            raise MlbenchError(
                f"no XLingHealth dataset in {folder}: looked for {names} as xlinghealth/<name>.xlsx or .csv, "
                "XLingHealth_Dataset/<name>.xlsx, <name>.xlsx or .csv"
            )
        return present
    missing = [d for d in chosen if found[d] is None]
    if missing:
        looked = ", ".join(str(p) for d in missing for p in dataset_candidates(folder, d))
        hint = " (or pass -T healthqa_file=FILE)" if "healthqa" in missing else ""
        raise MlbenchError(f"xlinghealth: dataset {','.join(missing)}: no file found{hint}; looked at {looked}")
    return {d: path for d in chosen if (path := found[d]) is not None}


@register
class XLingHealth(Task):
    name = "xlinghealth"
    title = "XLingHealth"
    languages = ("en", "es", "zh", "hi")
    modes = (
        Mode("correctness", "answers"),
        Mode("consistency", "samples", CONSISTENCY_METRICS),
        Mode("verifiability", "labels", VERIFY_METRICS),
    )
    hub_id = SOURCE
    group_name = "dataset"
    headline_metrics = ("correctness_contradictory", "sim_sent", "verify_f1")
    slice_fields = ("dataset",)
    metric_descriptors = (*CONSISTENCY_DESCRIPTORS, *VERIFY_DESCRIPTORS)
    default_judge_kinds = ("correctness",)
    saves_every_prompt = True  # each mode sends its own prompt
    prompt_files = ("prompts.toml",)
    options_type = XLingHealthOptions

    def validate(self, options: TaskOptions) -> None:
        if self.fewshot(options) > 0:
            raise MlbenchError("xlinghealth is zero-shot: --fewshot must be 0")
        if options.source.kind in ("sample", "jsonl"):
            raise MlbenchError(NOT_A_SOURCE)
        own = own_options(options, XLingHealthOptions)
        if own.healthqa_file is not None and not own.healthqa_file.is_file():
            raise MlbenchError(f"xlinghealth: healthqa_file {own.healthqa_file}: no such file")
        _chosen_files(options)
        if own.prompts == "authors":
            if options.system_prompt:  # their system messages are the protocol's
                raise MlbenchError(
                    "xlinghealth: --system-prompt does not apply to the authors' prompts, whose system messages "
                    "are part of the protocol; drop it, or use -T prompts=mlbench"
                )
            authors_prompts(options.source)  # the authors' files found and checked before any model loads

    def required_models(self, options: TaskOptions, modes: tuple[str, ...]) -> list[HelperModel]:
        if "consistency" not in modes:
            return []
        own = own_options(options, XLingHealthOptions)
        instead = "use -T bertscore_model=PATH (a local encoder), minilm (packaged, no download) or none"
        bertscore = HelperModel("bertscore_model", own.bertscore_model, "bertscore", instead)
        return [sentence_embedder(own.embedder), bertscore]

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        questions = load_xlinghealth(lang, _chosen_files(options))
        return LanguageData(questions.samples, counts=questions.counts)

    def sample_group(self, sample: Sample) -> str | None:
        return json_text(sample.meta["dataset"], "an XLingHealth sample's dataset")

    def settings(self, options: TaskOptions) -> JsonObject:
        own = own_options(options, XLingHealthOptions)
        # The keys keep the names of the options' first spelling, so that earlier runs resume.
        settings: JsonObject = {
            "samples_per_question": own.samples,
            "temperatures": list(own.temperatures),
            "verify_scoring": own.verify_scoring,
        }
        if own.prompts == "authors":  # absent for mlbench's prompts: their earlier runs keep their hash
            tokens, top_p = self._decoding(options)
            settings.update(
                prompts="authors",
                upstream=UPSTREAM.record(),
                max_new_tokens={"correctness": tokens, "consistency": tokens},
                top_p=top_p,
            )
        return settings

    def seeds_outputs(self, options: TaskOptions, modes: tuple[str, ...]) -> bool:
        own = own_options(options, XLingHealthOptions)
        sampled = any(t > 0 for t in own.temperatures)
        generated = "consistency" in modes or ("verifiability" in modes and own.verify_scoring == "generate")
        return own.prompts == "authors" and sampled and generated

    def _decoding(self, options: TaskOptions) -> tuple[int, float]:
        """The new tokens of an answer and the top-p of sampled requests, by protocol and layout."""
        own = own_options(options, XLingHealthOptions)
        if own.prompts == "mlbench":
            return options.max_new_tokens or ANSWER_TOKENS, 1.0
        if options.chat_template:  # the authors' GPT runs
            return options.max_new_tokens or AUTHORS_ANSWER_TOKENS, 1.0
        return options.max_new_tokens or MEDALPACA_TOKENS, MEDALPACA_TOP_P

    # --- prompts ------------------------------------------------------------------------

    def answer_prompt(self, sample: Sample, options: TaskOptions, mode: str = "correctness") -> Prompt:
        if own_options(options, XLingHealthOptions).prompts == "authors":
            prompts = authors_prompts(options.source)
            build = prompts.consistency if mode == "consistency" else prompts.correctness
            return build(sample.lang, sample.question, options.chat_template)
        system = options.system_prompt or _prompts()[sample.lang]["system"]
        if options.chat_template:
            return Prompt(messages=(ChatMessage("system", system), ChatMessage("user", sample.question)))
        return Prompt(text=f"{system}\n\n{sample.question}\n\n")

    def verify_prompt(self, sample: Sample, candidate: str, options: TaskOptions) -> Prompt:
        if own_options(options, XLingHealthOptions).prompts == "authors":
            prompts = authors_prompts(options.source)
            return prompts.verifiability(sample.lang, sample.question, candidate, options.chat_template)
        table = _prompts()[sample.lang]
        text = table["verify"].format(question=sample.question, answer=candidate)
        if options.chat_template:
            return Prompt(messages=(ChatMessage("user", text),))
        return Prompt(text=f"{text}\n{table['cue']}")

    # --- requests and scores ------------------------------------------------------------

    def requests(self, mode: str, sample: Sample, data: LanguageData, options: TaskOptions) -> list[Request]:
        own = own_options(options, XLingHealthOptions)
        tokens, top_p = self._decoding(options)
        if mode == "correctness":
            return [GenerationRequest(self.answer_prompt(sample, options), max_new_tokens=tokens)]
        if mode == "consistency":
            prompt = self.answer_prompt(sample, options, mode)
            return [
                GenerationRequest(
                    prompt, max_new_tokens=tokens, temperature=t, top_p=top_p if t else 1.0, n=own.samples
                )
                for t in own.temperatures
            ]
        if mode == "verifiability":
            prompts = [
                self.verify_prompt(sample, json_text(c["answer"], "a candidate's answer"), options)
                for c in _candidates(sample)
            ]
            if own.verify_scoring == "generate":
                return [
                    GenerationRequest(p, max_new_tokens=VERIFY_TOKENS, temperature=t, top_p=top_p if t else 1.0)
                    for p in prompts
                    for t in own.temperatures
                ]
            return [LoglikelihoodRequest(p, word) for p in prompts for word in (*YES_SPELLINGS, *NO_SPELLINGS)]
        raise MlbenchError(f"xlinghealth has no mode {mode}; valid: {', '.join(MODES)}")

    def score(self, mode: str, sample: Sample, results: list[Result], options: TaskOptions) -> Scored:
        if mode == "correctness":
            generation = results[0]
            assert isinstance(generation, Generation)
            answer = clean_answer(generation.text)
            return {"answer": answer, "empty": not answer, "finish_reason": generation.finish_reason}, {}
        if mode == "consistency":
            return self._score_consistency(sample, results, own_options(options, XLingHealthOptions).temperatures)
        return self._score_verifiability(sample, results, own_options(options, XLingHealthOptions).temperatures)

    def _score_consistency(self, sample: Sample, results: list[Result], temperatures: tuple[float, ...]) -> Scored:
        answers: JsonObject = {}
        metrics: dict[str, float] = {}
        for request_result, temperature in zip(results, temperatures, strict=True):
            assert isinstance(request_result, Generation)
            texts = [clean_answer(t) for t in (request_result.text, *request_result.alternatives)]
            key = temperature_key(temperature)
            answers[key] = list(texts)
            metrics.update({f"{m}@{key}": v for m, v in ngram_consistency(texts, sample.lang).items()})
        return {"consistency": answers}, metrics

    def _score_verifiability(self, sample: Sample, results: list[Result], temperatures: tuple[float, ...]) -> Scored:
        candidates = _candidates(sample)
        scored: list[JsonValue] = []
        block: JsonObject
        if results and isinstance(results[0], Generation):
            per = len(results) // len(candidates)
            for i, candidate in enumerate(candidates):
                words = [parse_yes_no(as_generation(g).text) for g in results[i * per : (i + 1) * per]]
                scored.append({**_identity(candidate), "words": dict(zip(map(temperature_key, temperatures), words))})
            block = {"scoring": "generate", "temperatures": list(temperatures), "candidates": scored}
        else:
            per = len(YES_SPELLINGS) + len(NO_SPELLINGS)
            for i, candidate in enumerate(candidates):
                mine = [as_loglikelihood(r).logprob for r in results[i * per : (i + 1) * per]]
                yes, no = mine[: len(YES_SPELLINGS)], mine[len(YES_SPELLINGS) :]
                scored.append(
                    {**_identity(candidate), "p_yes": yes_probability(yes, no), "log_odds": log_odds(yes, no)}
                )
            block = {"scoring": "logprob", "temperatures": list(temperatures), "candidates": scored}
        return {"verifiability": block}, {}

    def judge_for(self, judge: Judge, run_config: JsonObject, lang: str, protocol: JudgeProtocol) -> Judge:
        return authors_judge_for(judge, run_config, lang)

    def without_logprobs(self, options: TaskOptions) -> TaskOptions | None:
        own = own_options(options, XLingHealthOptions)
        if own.verify_scoring == "auto":
            return replace(options, own=replace(own, verify_scoring="generate"))
        return None

    # --- language-level work ---------------------------------------------------------------

    def finish_language(
        self,
        records: list[SampleRecord],
        options: TaskOptions,
        seed: int,
        start_progress: StartProgress | None = None,
    ) -> bool:
        return add_model_metrics(records, own_options(options, XLingHealthOptions), seed, start_progress)

    def pooled_metrics(self, records: list[SampleRecord], seed: int) -> tuple[dict[str, MetricValue], dict[str, int]]:
        return verifiability_metrics(records, seed)

    def cross_language(self, records_by_lang: dict[str, list[SampleRecord]], run_config: JsonObject) -> Tables:
        return compare_languages(records_by_lang, CONSISTENCY_METRICS)


def _candidates(sample: Sample) -> list[JsonObject]:
    """The candidates ``load_health_questions`` put in the sample's meta."""
    return json_objects(sample.meta["candidates"], "an XLingHealth sample's candidates")


def _identity(candidate: JsonObject) -> JsonObject:
    return {"answer_id": candidate["answer_id"], "label": candidate["label"]}
