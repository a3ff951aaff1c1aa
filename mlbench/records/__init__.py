"""The nouns of mlbench, typed.

Everything that crosses a room boundary (loader → task → backend → results) is one of
these. They are plain dataclasses, cheap to make; those a run writes to its files declare
their shape in their annotations, which pydantic reads to check them when read back, to
write them and to publish their JSON Schema (``records.shape``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr

from mlbench.metrics.descriptor import MetricsBlock
from mlbench.records.jsontypes import JsonObject, Tables
from mlbench.records.sample_record import SampleRecord as SampleRecord
from mlbench.records.shape import IdText, Number, dumped
from mlbench.records.usage import Usage

Role = Literal["system", "user", "assistant"]
ChatTurn = dict[str, str]  # {"role": ..., "content": ...}, as a sample writes its turns


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class Prompt:
    """What the model is conditioned on: plain text, or chat turns for a chat template.

    Exactly one of ``text`` / ``messages`` is set. The backend renders ``messages`` with
    the model's chat template (in one place: ``backends/chat.py``).
    """

    text: str | None = None
    messages: tuple[ChatMessage, ...] | None = None
    # How much of the start many prompts share (a few-shot primer): characters of ``text``,
    # or leading turns of ``messages``. A backend may compute that part once and reuse it;
    # it never changes a score.
    shared_prefix: int = 0
    # For a chat template that shows no system turn (it refuses one, or drops it): the
    # system turn is joined to the first user turn, this text between them (an author's
    # layout for such models). None: the turns are sent as they are.
    system_join: str | None = None
    # True: the tokenizer adds its special tokens as its own default does, even in front of
    # a text that already starts with BOS (a chat template rendered to text then begins
    # with two, as in the TruthfulQA-Multi authors' judge call). False: mlbench's rule,
    # lm-eval's: such a text gets no second BOS.
    tokenizer_bos: bool = False

    def __post_init__(self) -> None:
        if (self.text is None) == (self.messages is None):
            raise ValueError("a Prompt holds either text or messages, not both or neither")
        limit = len(self.text) if self.text is not None else len(self.messages or ())
        if not 0 <= self.shared_prefix <= limit:
            raise ValueError(f"shared_prefix {self.shared_prefix} is outside the prompt (0..{limit})")

    def shared_prefix_prompt(self) -> Prompt | None:
        """The shared start as a prompt of its own (None: nothing is shared)."""
        if not self.shared_prefix:
            return None
        if self.text is not None:
            return Prompt(text=self.text[: self.shared_prefix])
        return Prompt(messages=(self.messages or ())[: self.shared_prefix])

    def to_json(self) -> Any:
        if self.text is not None:
            return self.text
        return [{"role": m.role, "content": m.content} for m in self.messages or ()]


@dataclass(frozen=True)
class Sample:
    """One question in one language. ``id`` is shared by the translations of a question."""

    id: str
    lang: str
    question: str
    best_answer: str
    correct_answers: tuple[str, ...]
    incorrect_answers: tuple[str, ...]
    # Multiple-choice targets as the dataset gives them (TruthfulQA); None when the
    # task derives its options from the answer lists (VeritasQA, user JSONL).
    mc1_choices: tuple[str, ...] | None = None
    mc2_choices: tuple[str, ...] | None = None
    mc2_labels: tuple[int, ...] | None = None
    meta: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class LoglikelihoodRequest:
    """Score ``continuation`` given ``prompt``: sum of the continuation's token log-probs."""

    prompt: Prompt
    continuation: str


@dataclass(frozen=True)
class LoglikelihoodResult:
    logprob: float
    n_tokens: int
    # Why this request could not be scored (prompt longer than the context, API failure);
    # the sample is then recorded as failed, never scored with a made-up number.
    error: str | None = None
    # The tokens a server request cost (None: not an API request, or an answer from the cache).
    usage: Usage | None = field(default=None, compare=False)


@dataclass(frozen=True)
class GenerationRequest:
    prompt: Prompt
    max_new_tokens: int = 256
    stop: tuple[str, ...] = ()
    temperature: float = 0.0  # 0: greedy
    top_p: float = 1.0
    n: int = 1  # completions per prompt (sampling); the first is ``Generation.text``
    seed: int | None = None  # per-request sampling seed (None: the backend's)


@dataclass(frozen=True)
class Generation:
    """Model output, already cut at the first stop string."""

    text: str
    n_tokens: int
    finish_reason: Literal["stop", "length", "error"]
    # The other completions when the request asked for n > 1.
    alternatives: tuple[str, ...] = ()
    # Why there is no output (prompt longer than the context, API failure after retries).
    error: str | None = None
    # The tokens a server request cost (None: not an API request, or an answer from the cache).
    usage: Usage | None = field(default=None, compare=False)


@dataclass(frozen=True)
class JudgeItem:
    """What a judge reads of one sample (``claim``: one claim of the answer, for
    claim verification)."""

    question: str
    answer: str
    reference: str = ""
    claim: str = ""


@dataclass(frozen=True)
class Verdict:
    """A judge's decision on one item.

    ``label`` is ``yes``/``no``, one of the prompt's labels, ``parsed`` (claim lists) or
    ``unparsed``; ``score`` is P(yes) when log-probs gave it; ``output`` is the judge's
    text when it wrote one; ``error`` says why there is no verdict (the call failed)."""

    label: str | None = None
    score: float | None = None
    output: str | None = None
    # Written as ``judge_error`` (beside the judge's own keys of an entry), before ``claims``.
    error: Annotated[str | None, Field(serialization_alias="judge_error")] = None
    claims: tuple[str, ...] | None = None
    # What the judge was sent for this item: the text after its chat template, or the
    # turns where a server applies the template; past ``JUDGE_SENT_KEPT`` characters, its
    # sha256 and length instead (``judges.sent``).
    sent: str | list[ChatTurn] | None = None
    sent_sha256: str | None = None
    sent_chars: int | None = None
    # What the judge's requests for this item cost (kept beside the verdict, not in it).
    usage: Annotated[Usage | None, Field(exclude=True)] = field(default=None, compare=False)

    def to_json(self) -> JsonObject:
        return {k: v for k, v in dumped(Verdict, self).items() if v is not None}


@dataclass(frozen=True)
class MetricValue:
    """A metric's value over the questions, its confidence interval and standard error."""

    value: Number
    ci_low: Number
    ci_high: Number
    stderr: Number

    def to_json(self) -> JsonObject:
        return dumped(MetricValue, self)


@dataclass(frozen=True)
class PerQuestion:
    """Each question's value of each metric, aligned with ``ids`` (None: that question has
    no value of that metric): what ``mlbench report`` pairs across languages without
    reading the samples files again."""

    ids: list[IdText] = field(default_factory=list)
    values: dict[str, list[Number | None]] = field(default_factory=dict)
    # Each question's label of each slice field (None: the data gives it none).
    labels: dict[str, list[StrictStr | None]] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        """``ids``, ``values``, and ``labels`` where the data gave any."""
        return {k: v for k, v in dumped(PerQuestion, self).items() if k != "labels" or v}


@dataclass
class LanguageResult:
    lang: str
    # What each mean and interval is over: the questions (a question asked under several
    # prompt templates is one, its value the mean over them).
    n: int
    metrics: dict[str, MetricValue]
    # Counts worth a reader's attention, e.g. {"empty_generations": 2}.
    counts: dict[str, int] = field(default_factory=dict)
    # The same summary per question group (CaLMQA: culturally specific / agnostic).
    groups: dict[str, LanguageResult] = field(default_factory=dict)
    # Each question's value of each metric, for paired comparisons across languages
    # (None: no metric has a value per question, or a file written without them).
    per_question: PerQuestion | None = None
    # The samples behind the n questions, where there are more (one per question and
    # template); None: one sample per question.
    samples: int | None = None
    # The same summary under each prompt template, where a run asked under several.
    templates: dict[str, LanguageResult] = field(default_factory=dict)


@dataclass
class RunResult:
    """The content of one ``results.json``: a model × task over its languages."""

    model: str
    task: str
    config: JsonObject
    languages: dict[str, LanguageResult]
    # Statistics comparing the languages (XLingHealth: ANOVA, Tukey HSD, t-tests), as
    # named tables of flat rows.
    cross_language: Tables = field(default_factory=dict)
    # The settings hash every language of the run was written with ("" when unknown).
    config_hash: str = ""
    # What its results.json says about its metrics (its "metrics" block: descriptors and
    # headline); None for a run not read from a file, or from one written before the block.
    descriptors: MetricsBlock | None = None
