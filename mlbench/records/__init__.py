"""The nouns of mlbench, typed.

Everything that crosses a room boundary (loader → task → backend → results) is one of
these. They are plain dataclasses so that metrics/ and stats/ can depend on them without
pulling in anything heavy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mlbench.metrics.descriptor import MetricsBlock
from mlbench.records.jsontypes import JsonObject, Tables
from mlbench.records.usage import Usage
from mlbench.records.version import SCHEMA_VERSION, check_version

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
    # For a chat template that shows no system turn (it refuses one, or drops it): the
    # system turn is joined to the first user turn, this text between them (an author's
    # layout for such models). None: the turns are sent as they are.
    system_join: str | None = None

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


# The keys of a samples line, in the order they are written; a record read from a file
# keeps its own order (and any key this version does not know), so that rewriting a file
# after judging changes only what judging changed.
_RECORD_KEYS = (
    "id",
    "lang",
    "question",
    "reference",
    "prompt",
    "rendered_prompt",
    "outputs",
    "metrics",
    "config_hash",
    "data_hash",
    "surface",
    "group",
    "labels",
    "judges",
    "usage",
    "judge_usage",
)
# Written on every fresh line even when empty (the others only once they hold something).
_ALWAYS_WRITTEN = frozenset(_RECORD_KEYS[:5] + _RECORD_KEYS[6:9])
_DEFAULTS: JsonObject = {
    "lang": "",
    "question": "",
    "reference": "",
    "prompt": None,
    "rendered_prompt": None,
    "outputs": {},
    "metrics": {},
    "config_hash": "",
    "data_hash": "",
    "surface": None,
    "group": None,
    "labels": {},
    "judges": {},
    "usage": None,
    "judge_usage": {},
}


@dataclass
class SampleRecord:
    """One line of ``samples_<lang>.jsonl``: one question's prompt, outputs and metrics,
    from scoring through judging (``judges``) to the language's summary.

    Mutable: a task's ``finish_language`` and the judges add to finished records.
    ``to_json``/``from_json`` round-trip a line exactly (key order and unknown keys
    included), so a file rewritten after judging, or continued with ``--resume``, keeps
    every line it did not change byte for byte."""

    id: str
    lang: str = ""
    prompt: Any = None
    outputs: JsonObject = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    config_hash: str = ""
    # The content of the language's data the sample was scored from (engine/plan.py's
    # ``language_data_hash``): --resume refuses to continue over changed data. "": a line
    # written before it was recorded.
    data_hash: str = ""
    # Kept so that a judge can read a sample without the dataset (a judging job may run
    # on another machine): the bare question and the reference answer.
    question: str = ""
    reference: str = ""
    # Wrong language, repetition and markers of the generated answer (metrics/surface.py).
    surface: JsonObject | None = None
    # The subset a question belongs to, for per-group tables (CaLMQA: its kind).
    group: str | None = None
    # The question's labels from the data (its benchmark's ``slice_fields``: category,
    # type, topic, …), for per-slice tables.
    labels: dict[str, str] = field(default_factory=dict)
    # Verdicts by judge kind (``judges.<kind>``), added by ``mlbench judge``.
    judges: dict[str, JsonObject] = field(default_factory=dict)
    # The API tokens the sample's requests cost (None: none counted), and each judge kind's.
    usage: Usage | None = None
    judge_usage: dict[str, Usage] = field(default_factory=dict)
    # The text the model read, when a chat template made it from ``prompt``'s turns
    # (written after ``prompt``; a field of its own here so positional calls keep working).
    rendered_prompt: str | None = None
    # Keys this version does not know (a newer version's, a user's tool's), kept as they were.
    extra: JsonObject = field(default_factory=dict)
    # The keys of the line this record was read from, in their order (None: a new record).
    _line_keys: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def error(self) -> str | None:
        """Why the backend could not answer this sample (None: it was scored)."""
        error = self.outputs.get("error")
        return str(error) if error else None

    def to_json(self) -> JsonObject:
        values = {name: getattr(self, name) for name in _RECORD_KEYS}
        values["usage"] = self.usage.to_json() if self.usage is not None else None
        values["judge_usage"] = {kind: usage.to_json() for kind, usage in self.judge_usage.items()}
        if self._line_keys is None:
            shown = [k for k in _RECORD_KEYS if k in _ALWAYS_WRITTEN or values[k] != _DEFAULTS[k]]
            return {**{k: values[k] for k in shown}, **self.extra, "schema_version": SCHEMA_VERSION}
        line: JsonObject = {}
        for key in self._line_keys:
            if key in values:
                line[key] = values[key]
            elif key == "schema_version":
                line[key] = SCHEMA_VERSION
            elif key in self.extra:
                line[key] = self.extra[key]
        for key in _RECORD_KEYS:  # what was added since the line was read (a judge's verdicts)
            if key not in line and (key == "id" or values[key] != _DEFAULTS[key]):
                line[key] = values[key]
        return {**line, **{k: v for k, v in self.extra.items() if k not in line}}

    @classmethod
    def from_json(cls, line: Any) -> SampleRecord:
        """The record of one parsed line; ValueError saying what is wrong with its shape.
        Only ``id`` is required: lines of older versions lack the rest."""
        if not isinstance(line, dict):
            raise ValueError(f"a JSON {type(line).__name__}, not an object")
        if "id" not in line:
            raise ValueError("no id")
        sample_id = line["id"]
        if isinstance(sample_id, bool) or not isinstance(sample_id, str | int):
            raise ValueError("its id is not a string")
        for key, (kind, name) in _SHAPES.items():
            if key in line and not isinstance(line[key], kind):
                raise ValueError(f"{key} is not {name}")
        if any(isinstance(v, bool) or not isinstance(v, int | float) for v in line.get("metrics", {}).values()):
            raise ValueError("metrics holds a value that is not a number")
        if any(not isinstance(entry, dict) for entry in line.get("judges", {}).values()):
            raise ValueError("judges holds a verdict that is not an object")
        check_version(line, "this line")
        known = {k: line[k] for k in _RECORD_KEYS[1:] if k in line}
        if known.get("usage") is not None:
            known["usage"] = Usage.from_json(known["usage"])
        known["judge_usage"] = {kind: Usage.from_json(u) for kind, u in known.get("judge_usage", {}).items()}
        unknown = {k: v for k, v in line.items() if k not in _RECORD_KEYS and k != "schema_version"}
        record = cls(str(sample_id), **known, extra=unknown)
        record._line_keys = tuple(line)
        return record


# What each key of a line must hold, and how an error names it.
_SHAPES: dict[str, tuple[Any, str]] = {
    "lang": (str, "a string"),
    "question": (str, "a string"),
    "reference": (str, "a string"),
    "rendered_prompt": (str | None, "a string or null"),
    "outputs": (dict, "an object"),
    "metrics": (dict, "an object"),
    "config_hash": (str, "a string"),
    "data_hash": (str, "a string"),
    "surface": (dict | None, "an object or null"),
    "group": (str | None, "a string or null"),
    "labels": (dict, "an object"),
    "judges": (dict, "an object"),
    "usage": (dict | None, "an object or null"),
    "judge_usage": (dict, "an object"),
}


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
    # What the judge's requests for this item cost (kept beside the verdict, not in it).
    usage: Usage | None = field(default=None, compare=False)

    def to_json(self) -> JsonObject:
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


@dataclass(frozen=True)
class PerQuestion:
    """Each question's value of each metric, aligned with ``ids`` (None: that question has
    no value of that metric): what ``mlbench report`` pairs across languages without
    reading the samples files again."""

    ids: list[str]
    values: dict[str, list[float | None]]
    # Each question's label of each slice field (None: the data gives it none).
    labels: dict[str, list[str | None]] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        block: JsonObject = {"ids": list(self.ids), "values": {name: list(col) for name, col in self.values.items()}}
        if self.labels:
            block["labels"] = {name: list(column) for name, column in self.labels.items()}
        return block


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
