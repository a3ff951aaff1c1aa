"""MSQAD (docs/protocols.md#msqad): does a model's handling of sensitive human-rights questions change
with the language it is asked in?

- ``direct``: the model is asked for an acceptable answer to the question.
- ``adversarial``: the model is asked, in the question's language, for an answer a
  responsible assistant should not give; refusing is the safe outcome.

By default (``-T prompts=authors``) both are the authors' prompts, read from their code
(``authors.py``), sampled as they sampled; ``-T prompts=mlbench`` sends the question alone
and mlbench's own adversarial instruction, greedily. Each response gets a refusal decision
(``refusal.py``: patterns, NLI or a judge), saved as ``refusal@<mode>``, and the surface
checks (``wrong_language@<mode>``, …). When a language finishes, NLI scores and the direct
responses' embeddings are added; across languages come McNemar tests on refusals,
PERMANOVA on the embeddings (``statistics.py``) and their p-value heatmaps.
"""

from __future__ import annotations

from pathlib import Path

from mlbench.benchmarks import register
from mlbench.benchmarks.base import LanguageData, Mode, Request, Result, Scored, StartProgress, Task, TaskOptions
from mlbench.benchmarks.helper_models import HelperModel, sentence_embedder
from mlbench.benchmarks.msqad.authors import authors_protocol
from mlbench.benchmarks.msqad.loader import LANGUAGE_COLUMNS, SOURCE, load_msqad
from mlbench.benchmarks.msqad.options import MsqadOptions
from mlbench.benchmarks.msqad.refusal import (
    REFUSAL_METRICS,
    add_nli_scores,
    answer_text,
    decision,
    evidence,
    judge_label,
    msqad_prompts,
    refusal_block,
    refusal_metrics,
    responses,
    settle_record,
)
from mlbench.benchmarks.msqad.response_embeddings import add_embeddings
from mlbench.benchmarks.msqad.sources import UPSTREAM
from mlbench.benchmarks.msqad.statistics import MODES, permanova_rows, refusal_tables
from mlbench.benchmarks.options import own_options
from mlbench.benchmarks.qa_prompt import clean_answer
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.metrics.names import base_name
from mlbench.records import ChatMessage, Generation, GenerationRequest, MetricValue, Prompt, Sample, SampleRecord
from mlbench.records.json_shapes import json_number, json_object, json_text
from mlbench.records.jsontypes import JsonObject, Tables
from mlbench.results.figures import Figure, figures_from_rows

ANSWER_TOKENS = 512  # prompts=mlbench: a few paragraphs, the responses MSQAD compares are essays
# prompts=authors: generate_answers.py's vLLM SamplingParams (its argparse defaults).
AUTHORS_TEMPERATURE, AUTHORS_TOP_P, AUTHORS_TOKENS = 0.5, 0.8, 500


@register
class Msqad(Task):
    name = "msqad"
    title = "MSQAD"
    languages = tuple(LANGUAGE_COLUMNS)
    # Both responses get the surface checks, each mode's under its own metric names
    # (``wrong_language@adversarial``); the adversarial block is saved beside its response.
    modes = (
        Mode("direct", "answers", ("refusal",)),
        Mode("adversarial", "answers", ("refusal",), answer=("adversarial", "answer")),
    )
    hub_id = SOURCE
    group_name = "topic"
    headline_metrics = ("refusal",)
    slice_fields = ("topic",)
    metric_descriptors = REFUSAL_METRICS
    default_judge_kinds = ("refusal",)
    saves_every_prompt = True  # each mode sends its own prompt
    prompt_files = ("prompts.toml",)
    options_type = MsqadOptions

    def validate(self, options: TaskOptions) -> None:
        if self.fewshot(options) > 0:
            raise MlbenchError("msqad is zero-shot: --fewshot must be 0")
        if options.source.kind not in ("hub", "local"):
            raise MlbenchError(
                "msqad reads its GitHub release (fetched into the data cache by default) or --data-dir DIR "
                "(a clone of github.com/seungukyu/MSQAD, or DIR/msqad/<Topic>.json); --sample/--data-file do not apply"
            )
        own = own_options(options, MsqadOptions)
        own.check_protocol()
        if own.prompts == "authors" and options.system_prompt:
            # Their system message is half the protocol (the topic, the task): not replaced.
            raise MlbenchError(
                "msqad: --system-prompt does not apply to the authors' prompts, whose system message names "
                "the topic and the task; drop it, or use -T prompts=mlbench"
            )

    def required_models(self, options: TaskOptions, modes: tuple[str, ...]) -> list[HelperModel]:
        own = own_options(options, MsqadOptions)
        needs = []
        if own.refusal == "nli":
            instead = "use -T nli_model=PATH (a local sequence-classification model), or -T refusal=patterns (offline)"
            needs.append(HelperModel("nli_model", own.nli_model, "transformers", instead))
        if "direct" in modes:  # only the direct answers are embedded (PERMANOVA)
            needs.append(sentence_embedder(own.embedder))
        return needs

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        own = own_options(options, MsqadOptions)
        questions = load_msqad(release_folder(options.source), lang, own.topics)
        if own.prompts == "authors":  # the data first: `mlbench data fetch msqad` brings both
            authors_protocol(options.source)  # found, checked and read now, before any model loads
        return LanguageData(questions.samples, counts=questions.counts)

    def sample_group(self, sample: Sample) -> str | None:
        return _topic(sample)

    def settings(self, options: TaskOptions) -> JsonObject:
        # "surface": samples written before both responses got the surface checks lack the
        # adversarial block, so a resumed run must not mix them with new ones.
        # prompts=mlbench keeps the settings of before (its runs resume); prompts=authors
        # adds what it reads and how it samples, which results.json keeps.
        own = own_options(options, MsqadOptions)
        settings: JsonObject = {"refusal": own.refusal, "embedder": own.embedder, "surface": "per_mode"}
        if own.refusal == "nli":
            settings["nli_model"] = own.nli_model
            if own.prompts == "mlbench":
                settings["refusal_threshold"] = own.refusal_threshold
        settings["permutations"] = own.permutations
        if own.permanova_distance != "euclidean":
            settings["permanova_distance"] = own.permanova_distance
        if own.layout != "auto":
            settings["layout"] = own.layout
        if own.prompts == "authors":
            settings["prompts"] = "authors"
            settings["sampling"] = {
                "temperature": AUTHORS_TEMPERATURE,
                "top_p": AUTHORS_TOP_P,
                "max_new_tokens": self._tokens(options),
            }
            settings["upstream"] = UPSTREAM.record()
        return settings

    def seeds_outputs(self, options: TaskOptions, modes: tuple[str, ...]) -> bool:
        return own_options(options, MsqadOptions).prompts == "authors"  # sampled at 0.5, seeded with --seed

    def _tokens(self, options: TaskOptions) -> int:
        if options.max_new_tokens:
            return options.max_new_tokens
        own = own_options(options, MsqadOptions)
        return AUTHORS_TOKENS if own.prompts == "authors" else ANSWER_TOKENS

    def prompt(self, mode: str, sample: Sample, options: TaskOptions) -> Prompt:
        if own_options(options, MsqadOptions).prompts == "authors":
            authors, own = authors_protocol(options.source), own_options(options, MsqadOptions)
            topic, merged = _topic(sample), own.layout == "merged"
            return authors.prompt(mode, sample.lang, topic, sample.question, options.chat_template, merged)
        text = sample.question
        if mode == "adversarial":
            text = msqad_prompts()[sample.lang]["adversarial"].format(question=sample.question)
        if options.chat_template:
            turns = [ChatMessage("system", options.system_prompt)] if options.system_prompt else []
            return Prompt(messages=(*turns, ChatMessage("user", text)))
        return Prompt(text=f"{text}\n\n")

    def requests(self, mode: str, sample: Sample, data: LanguageData, options: TaskOptions) -> list[Request]:
        if mode not in MODES:
            raise MlbenchError(f"msqad has no mode {mode}; valid: {', '.join(MODES)}")
        prompt, tokens = self.prompt(mode, sample, options), self._tokens(options)
        if own_options(options, MsqadOptions).prompts == "mlbench":
            return [GenerationRequest(prompt, max_new_tokens=tokens)]
        # Sampled as the authors sampled; seed None: the backend's, which is the run's --seed.
        return [GenerationRequest(prompt, max_new_tokens=tokens, temperature=AUTHORS_TEMPERATURE, top_p=AUTHORS_TOP_P)]

    def score(self, mode: str, sample: Sample, results: list[Result], options: TaskOptions) -> Scored:
        generation = results[0]
        assert isinstance(generation, Generation)
        answer = clean_answer(generation.text)
        own = own_options(options, MsqadOptions)
        block = evidence(answer, sample.lang, own.refusal, own.refusal_threshold, authors=own.prompts == "authors")
        response: JsonObject = {
            "answer": answer,
            "empty": not answer,
            "finish_reason": generation.finish_reason,
            "refusal": block,
        }
        # The direct response is the sample's answer (its surface block is the sample's
        # ``surface``, which judges read); the adversarial one sits in a block of its own,
        # where the pipeline puts its surface block beside it (``Mode.answer``).
        return (response if mode == "direct" else {"adversarial": response}), {}

    def combined_metrics(self, record: SampleRecord) -> dict[str, float]:
        return refusal_metrics(record)

    def judged_answers(self, record: SampleRecord, kind: str, reads: str = "answer") -> dict[str, str]:
        if kind != "refusal":
            return super().judged_answers(record, kind, reads)
        return {mode: answer_text(response) for mode, response in responses(record).items()}

    def finish_language(
        self,
        records: list[SampleRecord],
        options: TaskOptions,
        seed: int,
        start_progress: StartProgress | None = None,
    ) -> bool:
        changed = False
        own = own_options(options, MsqadOptions)
        if own.refusal == "nli" and own.prompts == "authors":
            labels = authors_protocol(options.source).hypotheses
            changed |= add_nli_scores(records, own.nli_model, start_progress, labels)
        elif own.refusal == "nli":
            changed |= add_nli_scores(records, own.nli_model, start_progress)
        changed |= add_embeddings(records, own.embedder, start_progress)
        for record in records:
            settle_record(record)
            kept = {k: v for k, v in record.metrics.items() if base_name(k) != "refusal"}
            record.metrics = {**kept, **refusal_metrics(record)}
        return changed

    def pooled_metrics(self, records: list[SampleRecord], seed: int) -> tuple[dict[str, MetricValue], dict[str, int]]:
        counts: dict[str, int] = {}
        for record in records:
            for mode, response in responses(record).items():
                if mode == "adversarial" and response["empty"]:
                    counts["empty_adversarial"] = counts.get("empty_adversarial", 0) + 1
                if decision(refusal_block(response), answer_text(response), judge_label(record, mode))[0] is None:
                    counts[f"refusal_undecided_{mode}"] = counts.get(f"refusal_undecided_{mode}", 0) + 1
        return {}, counts

    def cross_language(self, records_by_lang: dict[str, list[SampleRecord]], run_config: JsonObject) -> Tables:
        seed = int(json_number(run_config.get("seed", 0), "the run's seed"))
        settings = json_object(run_config.get("task_settings", {}), "the run's task_settings")
        permutations = int(json_number(settings.get("permutations", 999), "permutations"))
        distance = str(settings.get("permanova_distance", "euclidean"))
        tables = refusal_tables(records_by_lang, self.languages, seed)
        rows = permanova_rows(records_by_lang, self.languages, permutations, seed, distance)
        return {**tables, **({"permanova": rows} if rows else {})}

    def figures(self, tables: Tables) -> list[Figure]:
        figures = figures_from_rows(tables.get("mcnemar", []), test="McNemar", langs=self.languages, split="mode")
        return figures + figures_from_rows(tables.get("permanova", []), test="PERMANOVA", langs=self.languages)


def _topic(sample: Sample) -> str:
    return json_text(sample.meta["topic"], "an MSQAD sample's topic")  # load_msqad's TOPICS name


def release_folder(source: DataSource) -> Path:
    """--data-dir, or by default the release in mlbench's data cache (fetched on first use)."""
    if source.kind == "local":
        assert source.path is not None
        return source.path
    from mlbench.data import source_folder

    return source_folder("msqad")
