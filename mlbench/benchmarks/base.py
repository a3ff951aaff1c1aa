"""What a benchmark is to the pipeline: languages, modes, data, requests and scores."""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal

from mlbench.benchmarks.helper_models import HelperModel
from mlbench.benchmarks.judge_hooks import JudgeHooks
from mlbench.benchmarks.lm_eval_names import LmEvalTask
from mlbench.benchmarks.result_kinds import Result, as_generation, as_loglikelihoods
from mlbench.data.alignment import Alignment, aligned_labels
from mlbench.data.jsonl import JsonlData, load_jsonl
from mlbench.data.source import QUESTION_LABEL, DataSource
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.metrics.descriptor import Metric
from mlbench.records import (
    Generation,
    GenerationRequest,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    MetricValue,
    Sample,
    SampleRecord,
)
from mlbench.records.jsontypes import JsonObject, Tables
from mlbench.resources import prompts_dir
from mlbench.results.figures import Figure

Scored = tuple[JsonObject, dict[str, float]]  # (outputs to keep, metric values)
Request = LoglikelihoodRequest | GenerationRequest
# (what, total) → a callback that advances a progress bar by n
StartProgress = Callable[[str, int], Callable[[int], None]]


@dataclass(frozen=True)
class TaskOptions:
    """What every task reads (the data, the prompt's shape, the answer's length), and the
    task's own options: ``own`` holds an instance of its ``options_type`` (None: that
    type's defaults), which the task reads with ``tasks.options.own_options``."""

    source: DataSource = DataSource("hub")
    fewshot: int | None = None  # None: the task's default
    chat_template: bool = False
    system_prompt: str | None = None
    max_new_tokens: int | None = None  # None: the task's default
    own: object = None


@dataclass(frozen=True)
class LeftOut:
    """Questions of a language's data that the benchmark's reference cannot score: why, and
    which (their ids); ``metric``: left out of that metric alone, the others scoring them."""

    reason: str
    ids: tuple[str, ...]
    metric: str | None = None

    def to_json(self) -> JsonObject:
        return {"reason": self.reason, "ids": list(self.ids), **({"metric": self.metric} if self.metric else {})}


@dataclass
class LanguageData:
    samples: list[Sample]
    primer: list[tuple[str, str]] = field(default_factory=list)
    # What the loader left out or found incomplete, reported with the language's results.
    counts: dict[str, int] = field(default_factory=dict)
    # What the benchmark's reference cannot score, each warned and kept in results.json
    # (never dropped silently): rows left out of ``samples``, or of one metric.
    left_out: list[LeftOut] = field(default_factory=list)

    def question_ids(self) -> set[str]:
        """Every row's question id, left-out rows included (a sample asked under several
        prompt templates counts as its question)."""
        asked = {str(s.meta.get(QUESTION_LABEL) or s.id) for s in self.samples}
        return asked | {i for part in self.left_out for i in part.ids}


# What a mode makes the model produce, which decides what the pipeline does with it:
# ``answers`` are texts a reader would see (surface checks, judges); ``loglikelihoods``
# are option scores; ``samples`` are texts drawn only to be compared with each other
# (XLingHealth's consistency); ``labels`` are the model's one-word verdicts (Yes/No).
Produces = Literal["answers", "loglikelihoods", "samples", "labels"]


@dataclass(frozen=True)
class Mode:
    """One way a benchmark questions the model, declared so the pipeline never guesses."""

    name: str
    produces: Produces
    metrics: tuple[str, ...] = ()  # the per-sample metrics its score writes, in table order
    # For ``answers``: where the answer sits in the outputs the mode's score returns.
    answer: tuple[str, ...] = ("answer",)

    @property
    def writes_answers(self) -> bool:
        return self.produces == "answers"


MC = Mode("mc", "loglikelihoods", ("mc1", "mc2"))
GEN = Mode("gen", "answers", ("bleu_max", "bleu_acc", "bleu_diff"))


class Task(JudgeHooks, ABC):
    name: ClassVar[str]
    title: ClassVar[str]
    languages: ClassVar[tuple[str, ...]]
    modes: ClassVar[tuple[Mode, ...]] = (MC, GEN)
    hub_id: ClassVar[str]
    default_fewshot: ClassVar[int] = 0
    # Scores a task builds from several stages (CaLMQA's overall), after the judges' metrics.
    combined_metric_names: ClassVar[tuple[str, ...]] = ()
    # What the column of per-group tables is called (see ``sample_group``).
    group_name: ClassVar[str] = "group"
    # The labels of a question the data gives (``Sample.meta`` keys: TruthfulQA's type and
    # category, MSQAD's topic, …), kept with each sample and its per-question values so
    # that a report or the explorer can slice by them (``mlbench report --by FIELD``).
    slice_fields: ClassVar[tuple[str, ...]] = ()
    # How the questions map to TruthfulQA's rows (``tqa_index``, data/alignment.py), or why
    # they cannot; None: not a translation of TruthfulQA.
    alignment: ClassVar[Alignment | None] = None
    # The task's own options (`-T key=value`): a frozen dataclass whose fields have defaults
    # and help (tasks/options.py); None: the task takes none.
    options_type: ClassVar[type | None] = None
    # What the run summary and `mlbench report` put first (by base name): the numbers a
    # reader of this benchmark looks for first. Kept on the task, not on the descriptors:
    # the same metric leads one benchmark and not another (surface_issue leads CaLMQA).
    headline_metrics: ClassVar[tuple[str, ...]] = ()
    # The descriptors of the metrics this benchmark adds to the shared ones
    # (mlbench.metrics.catalog), declared beside the code that computes them.
    metric_descriptors: ClassVar[tuple[Metric, ...]] = ()
    # Whether each mode's prompt is saved (``outputs.mode_prompts``), not the first mode's
    # alone: for benchmarks whose modes send prompts of their own (XLingHealth, MSQAD).
    saves_every_prompt: ClassVar[bool] = False
    prompt_files: ClassVar[tuple[str, ...]]
    # Where the prompt text comes from when it is not in ``prompt_files``: the authors'
    # repository it is read from (empty: built in code, or in the benchmark's own file).
    prompt_origin: ClassVar[str] = ""
    # The lm-eval tasks whose sample logs `mlbench import lm-eval` reads into this benchmark.
    lm_eval_tasks: ClassVar[tuple[LmEvalTask, ...]] = ()
    # Whether every language asks the same questions under the same ids (the report pairs
    # them): a run that adds a language is told which of the others' questions it lacks.
    parallel: ClassVar[bool] = False
    # The folder that holds ``prompt_files``: for a built-in benchmark, ``prompts/<its
    # package>/`` at the project's root (one tree researchers read and diff); for a user's,
    # ``prompts/`` beside the module that defines it; unless a class names another (a
    # variant of a benchmark, such as TruthfulQA-Multi's machine translations, reads its
    # original's prompts).
    prompt_dir: ClassVar[Path]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in vars(cls) and "prompt_dir" not in vars(cls):
            cls.prompt_dir = _default_prompt_dir(cls.__module__)

    @property
    def mode_names(self) -> tuple[str, ...]:
        return tuple(mode.name for mode in self.modes)

    def mode(self, name: str) -> Mode:
        for mode in self.modes:
            if mode.name == name:
                return mode
        hint = did_you_mean(name, self.mode_names)
        raise MlbenchError(f"{self.name} has no mode {clipped(name)}{hint}; valid: {', '.join(self.mode_names)}")

    @property
    def answer_modes(self) -> tuple[Mode, ...]:
        """The modes whose answers get the surface checks and the judges."""
        return tuple(mode for mode in self.modes if mode.writes_answers)

    @property
    def compares_languages(self) -> bool:
        """Whether ``cross_language`` has anything to say: read from whether the task
        overrides it, so the two cannot drift apart (and a run that has nothing to compare
        does not read every language's samples)."""
        return type(self).cross_language is not Task.cross_language

    def fewshot(self, options: TaskOptions) -> int:
        return self.default_fewshot if options.fewshot is None else options.fewshot

    def validate(self, options: TaskOptions) -> None:
        """Raise MlbenchError for option combinations the benchmark's protocol forbids."""

    def required_models(self, options: TaskOptions, modes: tuple[str, ...]) -> list[HelperModel]:
        """The models ``modes`` load besides the evaluated one (NLI, embedder, BERTScore),
        checked before the first request (preflight)."""
        return []

    def available_languages(self, options: TaskOptions) -> tuple[str, ...]:
        if options.source.kind == "jsonl":
            return tuple(sorted(_data_file(options.source).samples))
        return self.languages

    @abstractmethod
    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        """The questions (and primer) of one language, from ``options.source``; the one
        loading hook. A task that accepts ``--data-file`` reads it with ``data_file_language``."""

    def check_languages(self, data: dict[str, LanguageData], options: TaskOptions) -> None:
        """Raise MlbenchError when the languages a run loaded (``data``, by language) do
        not fit together: a parallel benchmark's whose question ids differ."""

    def data_warnings(self, lang: str, samples: list[Sample], modes: tuple[str, ...]) -> list[str]:
        """Lines warned once when ``lang``'s ``samples`` are planned for ``modes``: what
        the data does to the scores that the reader should know (repeated MC answers)."""
        return []

    def sample_labels(self, sample: Sample) -> dict[str, str]:
        """The sample's labels of ``slice_fields`` that the data fills in."""
        own = {name: str(sample.meta[name]) for name in self.slice_fields if sample.meta.get(name) not in (None, "")}
        return {**own, **aligned_labels(sample.meta)}  # TruthfulQA's row, where the loader found it

    def sample_group(self, sample: Sample) -> str | None:
        """The subset ``sample`` is tabled under beside the whole language (None: no groups)."""
        return None

    def combined_metrics(self, record: SampleRecord) -> dict[str, float]:
        """Scores built from a saved sample's surface block, verdicts and metrics; called
        after scoring and again after every judge."""
        return {}

    def seeds_outputs(self, options: TaskOptions, modes: tuple[str, ...]) -> bool:
        """Whether the run's --seed changes what the model writes (the protocol samples):
        then the seed joins the resume hash, so answers drawn with two seeds never mix.
        (False by default, and for earlier protocols: their runs keep their hash.)"""
        return False

    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]:
        raise MlbenchError(f"{self.name} has no multiple-choice mode")

    def option_marks(self, sample: Sample) -> dict[str, bool]:
        """Each MC option's text (as its request continues, stripped) → whether the data
        marks it correct; saved with the sample for a reader (``mlbench explore``), never
        scored. A task that rewrites its options (VeritasQA closes them with a period)
        says so here."""
        marks = {text.strip(): False for text in sample.incorrect_answers}
        marks.update({text.strip(): True for text in sample.correct_answers})
        if sample.mc2_choices is not None and sample.mc2_labels is not None:
            marks.update({text.strip(): bool(label) for text, label in zip(sample.mc2_choices, sample.mc2_labels)})
        if sample.mc1_choices:
            marks[sample.mc1_choices[0].strip()] = True
        return marks

    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored:
        raise MlbenchError(f"{self.name} has no multiple-choice mode")

    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest:
        raise MlbenchError(f"{self.name} has no gen mode")

    def score_gen(self, sample: Sample, generation: Generation) -> Scored:
        raise MlbenchError(f"{self.name} has no gen mode")

    # The one contract of a mode: a list of requests per sample, and a score from their
    # results. A mode is found by what it declares it produces, never by its name: one
    # that produces option log-likelihoods is served by mc_requests/score_mc, one that
    # produces answers by gen_request/score_gen (one generation each); a benchmark whose
    # modes ask otherwise (XLingHealth's samples and labels, MSQAD's two prompts)
    # overrides these two.
    def requests(self, mode: str, sample: Sample, data: LanguageData, options: TaskOptions) -> list[Request]:
        produces = self.mode(mode).produces
        if produces == "loglikelihoods":
            return list(self.mc_requests(sample, data, options))
        if produces == "answers":
            return [self.gen_request(sample, data, options)]
        raise MlbenchError(f"{self.name}: mode {mode} produces {produces}; the task must build its requests")

    def score(self, mode: str, sample: Sample, results: list[Result], options: TaskOptions) -> Scored:
        produces = self.mode(mode).produces
        if produces == "loglikelihoods":
            return self.score_mc(sample, as_loglikelihoods(results))
        if produces == "answers":
            return self.score_gen(sample, as_generation(results[0]))
        raise MlbenchError(f"{self.name}: mode {mode} produces {produces}; the task must score it")

    def settings(self, options: TaskOptions) -> JsonObject:
        """Task options that change what a sample holds: part of the settings hash."""
        return {}

    def mode_settings(self, mode: str, options: TaskOptions) -> JsonObject:
        """What one mode's samples depend on beyond ``settings`` (its prompt protocol, how
        its answers are scored): part of the settings hash only of runs with that mode, so
        a change to one mode does not refuse resuming runs of the others."""
        return {}

    def lm_eval_sample_id(self, lang: str, doc: JsonObject, position: int | None) -> str | None:
        """mlbench's id of the question of a document lm-eval logged at ``position`` (its
        ``doc_id``) in ``lang``: the document's ``id`` by default (None: it has none)."""
        return str(doc["id"]) if "id" in doc else None

    def with_templates(self, options: TaskOptions, templates: tuple[str, ...]) -> TaskOptions:
        """``options`` asking for ``templates`` (those of its ``lm_eval_tasks``), for a
        benchmark with several prompt templates; unchanged for one without."""
        return options

    def lm_eval_doc_difference(self, sample: Sample, doc: JsonObject, mode: str) -> str | None:
        """How a document lm-eval logged for ``mode`` differs from mlbench's ``sample`` of the
        same id (None: it does not), so that `mlbench import lm-eval` never scores a logged
        answer against references the model's run did not have. A benchmark that declares
        ``lm_eval_tasks`` overrides it; by default no logged document is taken."""
        return f"{self.name} does not say how to compare lm-eval's documents with its own"

    def without_logprobs(self, options: TaskOptions) -> TaskOptions | None:
        """Options that need no log-probs from the backend, for a backend without them
        (None: the benchmark cannot do without)."""
        return None

    def finish_language(
        self,
        records: list[SampleRecord],
        options: TaskOptions,
        seed: int,
        start_progress: StartProgress | None = None,
    ) -> bool:
        """Add what needs every sample of a language at once (topic models); True when
        ``records`` changed and must be saved. ``start_progress(what, total)`` opens a
        progress bar when there is work."""
        return False

    def pooled_metrics(self, records: list[SampleRecord], seed: int) -> tuple[dict[str, MetricValue], dict[str, int]]:
        """Metrics of a whole language that are not a mean of per-sample values (macro F1,
        AUC), with intervals from resampling questions; and counts to report beside them."""
        return {}, {}

    def cross_language(self, records_by_lang: dict[str, list[SampleRecord]], run_config: JsonObject) -> Tables:
        """Statistics comparing languages, as named tables of rows (results.json and
        table.md); ``run_config`` is the run's config block (seed, task settings)."""
        return {}

    def figures(self, tables: Tables) -> list[Figure]:
        """Figures drawn from the ``cross_language`` tables, saved as PNG beside results.json."""
        return []


def all_mode_settings(task: Task, modes: tuple[str, ...], options: TaskOptions) -> dict[str, JsonObject]:
    """``mode_settings`` of each mode a run asks for, by mode, leaving out modes that have none."""
    return {mode: settings for mode in modes if (settings := task.mode_settings(mode, options))}


_JSONL_CACHE: dict[tuple[Path, int, int], JsonlData] = {}


def _data_file(source: DataSource) -> JsonlData:
    """A user's ``--data-file``, read once per process (every language reads it) and again
    when the file changed (a notebook or test that edits it between runs)."""
    assert source.kind == "jsonl" and source.path is not None
    try:
        stat = source.path.stat()
        key = (source.path, stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = (source.path, 0, 0)  # missing: load_jsonl says so in its own words
    if key not in _JSONL_CACHE:
        _JSONL_CACHE.clear()
        _JSONL_CACHE[key] = load_jsonl(source.path)
    return _JSONL_CACHE[key]


def data_file_language(source: DataSource, lang: str) -> LanguageData:
    """One language of a user's ``--data-file``."""
    data = _data_file(source)
    return LanguageData(list(data.samples[lang]), list(data.primers.get(lang, [])))


def require_primer(task: str, data: LanguageData, shots: int, lang: str) -> list[tuple[str, str]]:
    if shots > len(data.primer):
        raise MlbenchError(f"{task} {lang}: --fewshot {shots} but the data has {len(data.primer)} primer pairs")
    return data.primer[:shots]


def _default_prompt_dir(module: str) -> Path:
    parts = module.split(".")
    if parts[:2] == ["mlbench", "benchmarks"] and len(parts) > 3:
        return prompts_dir(parts[2])
    module_file = getattr(sys.modules.get(module), "__file__", None)
    return Path(module_file).parent / "prompts" if module_file else Path("prompts")
