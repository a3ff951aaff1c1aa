"""What a benchmark is to the pipeline: languages, modes, data, requests and scores."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from mlbench.errors import MlbenchError
from mlbench.loaders.jsonl import load_jsonl
from mlbench.loaders.source import DataSource
from mlbench.schema import (
    Generation,
    GenerationRequest,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Sample,
)

Scored = tuple[dict[str, Any], dict[str, float]]  # (outputs to keep, metric values)


@dataclass(frozen=True)
class TaskOptions:
    source: DataSource = DataSource("hub")
    fewshot: int | None = None  # None: the task's default
    chat_template: bool = False
    system_prompt: str | None = None
    max_new_tokens: int | None = None  # None: the task's default
    question_kind: str = "all"  # CaLMQA: specific | agnostic | all


@dataclass
class LanguageData:
    samples: list[Sample]
    primer: list[tuple[str, str]] = field(default_factory=list)


class Task(ABC):
    name: ClassVar[str]
    title: ClassVar[str]
    languages: ClassVar[tuple[str, ...]]
    modes: ClassVar[tuple[str, ...]] = ("mc", "gen")
    hub_id: ClassVar[str]
    default_fewshot: ClassVar[int] = 0
    metrics: ClassVar[dict[str, tuple[str, ...]]]
    # Scores a task builds from several stages (CaLMQA's overall), after the judges' metrics.
    combined_metric_names: ClassVar[tuple[str, ...]] = ()
    # What the column of per-group tables is called (see ``sample_group``).
    group_name: ClassVar[str] = "group"
    # The values --kind accepts besides "all" (empty: the task has no question kinds).
    question_kinds: ClassVar[tuple[str, ...]] = ()
    # What `--judge` judges when no --judge-kind is given.
    default_judge_kinds: ClassVar[tuple[str, ...]] = ("truth",)
    prompt_files: ClassVar[tuple[str, ...]]

    def fewshot(self, options: TaskOptions) -> int:
        return self.default_fewshot if options.fewshot is None else options.fewshot

    def validate(self, options: TaskOptions) -> None:
        """Raise MlbenchError for option combinations the benchmark's protocol forbids."""

    def available_languages(self, options: TaskOptions) -> tuple[str, ...]:
        if options.source.kind == "jsonl":
            assert options.source.path is not None
            return tuple(sorted(_jsonl(options.source.path).samples))
        return self.languages

    def load(self, lang: str, options: TaskOptions) -> LanguageData:
        if options.source.kind == "jsonl":
            assert options.source.path is not None
            data = _jsonl(options.source.path)
            return LanguageData(self.adapt_user_samples(data.samples[lang]), data.primers.get(lang, []))
        return self.load_language(lang, options.source)

    def adapt_user_samples(self, samples: list[Sample]) -> list[Sample]:
        """Fill in what the task needs from user JSONL rows (e.g. MC targets)."""
        return samples

    def reference(self, sample: Sample) -> str:
        """The reference answer saved with a sample, for judges that compare against one."""
        return sample.best_answer

    def sample_group(self, sample: Sample) -> str | None:
        """The subset ``sample`` is tabled under beside the whole language (None: no groups)."""
        return None

    def combined_metrics(self, record: dict[str, Any]) -> dict[str, float]:
        """Scores built from a saved sample's surface block, verdicts and metrics; called
        after scoring and again after every judge."""
        return {}

    def judge_skip_reason(self, record: dict[str, Any]) -> str | None:
        """Why a judge must not read this sample's answer (None: judge it)."""
        return None

    @abstractmethod
    def load_language(self, lang: str, source: DataSource) -> LanguageData: ...

    @abstractmethod
    def mc_requests(self, sample: Sample, data: LanguageData, options: TaskOptions) -> list[LoglikelihoodRequest]: ...

    @abstractmethod
    def score_mc(self, sample: Sample, results: list[LoglikelihoodResult]) -> Scored: ...

    @abstractmethod
    def gen_request(self, sample: Sample, data: LanguageData, options: TaskOptions) -> GenerationRequest: ...

    @abstractmethod
    def score_gen(self, sample: Sample, generation: Generation) -> Scored: ...


_JSONL_CACHE: dict[Path, Any] = {}


def _jsonl(path: Path) -> Any:
    if path not in _JSONL_CACHE:
        _JSONL_CACHE[path] = load_jsonl(path)
    return _JSONL_CACHE[path]


def require_primer(task: str, data: LanguageData, shots: int, lang: str) -> list[tuple[str, str]]:
    if shots > len(data.primer):
        raise MlbenchError(f"{task} {lang}: --fewshot {shots} but the data has {len(data.primer)} primer pairs")
    return data.primer[:shots]
