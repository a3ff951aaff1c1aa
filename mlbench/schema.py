"""The nouns of mlbench, typed.

Everything that crosses a room boundary (loader → task → backend → results) is one of
these. They are plain dataclasses so that metrics/ and stats/ can depend on them without
pulling in anything heavy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]


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
    meta: dict[str, Any] = field(default_factory=dict)


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


@dataclass
class SampleResult:
    """One line of ``samples_<lang>.jsonl``."""

    id: str
    lang: str
    prompt: Any
    outputs: dict[str, Any]
    metrics: dict[str, float]
    config_hash: str
    # Kept so that a judge can read a sample without the dataset (a judging job may run
    # on another machine): the bare question and the reference answer.
    question: str = ""
    reference: str = ""
    # Wrong language, repetition and markers of the generated answer (metrics/surface.py).
    surface: dict[str, Any] | None = None
    # The subset a question belongs to, for per-group tables (CaLMQA: its kind).
    group: str | None = None

    def to_json(self) -> dict[str, Any]:
        record = {
            "id": self.id,
            "lang": self.lang,
            "question": self.question,
            "reference": self.reference,
            "prompt": self.prompt,
            "outputs": self.outputs,
            "metrics": self.metrics,
            "config_hash": self.config_hash,
        }
        if self.surface is not None:
            record["surface"] = self.surface
        if self.group is not None:
            record["group"] = self.group
        return record


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
    claims: tuple[str, ...] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        fields = {"label": self.label, "score": self.score, "output": self.output, "judge_error": self.error}
        if self.claims is not None:
            fields["claims"] = list(self.claims)
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class MetricValue:
    value: float
    ci_low: float
    ci_high: float
    stderr: float

    def to_json(self) -> dict[str, float]:
        return {
            "value": self.value,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "stderr": self.stderr,
        }


@dataclass
class LanguageResult:
    lang: str
    n: int
    metrics: dict[str, MetricValue]
    # Counts worth a reader's attention, e.g. {"empty_generations": 2}.
    counts: dict[str, int] = field(default_factory=dict)
    # The same summary per question group (CaLMQA: culturally specific / agnostic).
    groups: dict[str, LanguageResult] = field(default_factory=dict)
    # Each question's value of each metric, for paired comparisons across languages
    # (``mlbench report``): {"ids": [...], "values": {metric: [value | None, ...]}}.
    per_question: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunResult:
    """The content of one ``results.json``: a model × task over its languages."""

    model: str
    task: str
    config: dict[str, Any]
    languages: dict[str, LanguageResult]
    # Statistics comparing the languages (XLingHealth: ANOVA, Tukey HSD, t-tests), as
    # named tables of flat rows.
    cross_language: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # The settings hash every language of the run was written with ("" when unknown).
    config_hash: str = ""
