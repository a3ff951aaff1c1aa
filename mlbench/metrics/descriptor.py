"""What a metric is, declared once beside the function that computes it: the facts every
table, gap test and figure reads instead of guessing from a name or from the values.

Kinds:

- ``share``: a rate, fraction or probability in [0, 1] (mc1, mc2, refusal, surface flags,
  judge labels, F1, AUC). Shown with 3 decimals, drawn on a fixed 0–1 axis. ``binary``
  when each sample's value is 0 or 1 (mc1, bleu_acc, refusal): its language gaps are
  tested with McNemar (paired) or Fisher (unpaired), other metrics' with Wilcoxon
  signed-rank or Mann–Whitney U.
- ``score``: any other graded value (BLEU 0–100 with 2 decimals, similarities with 3),
  drawn on an axis that spans its data.
- ``logprob``: a log-probability or a difference of two (2 decimals); may be negative.
- ``count``: a number of things per answer (words, claims; 2 decimals).

``higher_is_better`` is None where a direction means nothing on its own (an answer's
length, MSQAD's refusal rate: refusing is right for the adversarial prompt, not for every
question).

A saved name may carry a setting (``refusal@adversarial``, ``sim_sent@0.25``: see
``metric_names``); descriptors are by base name. A name nothing declares (a user's
benchmark) gets ``undeclared(name)``: a score with 3 decimals, no direction, not binary.

>>> share("mc1", "best answer first", binary=True).decimals
3
>>> Metric.from_json("x", share("x", "a share").to_json()) == share("x", "a share")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast, get_args

from mlbench.metrics.names import base_name

if TYPE_CHECKING:  # records/__init__ imports this module: only the type checker follows it
    from mlbench.records.jsontypes import JsonObject, JsonValue

Kind = Literal["share", "score", "logprob", "count"]
KINDS: tuple[str, ...] = get_args(Kind)


@dataclass(frozen=True)
class Metric:
    name: str  # the base name, as saved without ``@setting``
    kind: Kind
    decimals: int
    higher_is_better: bool | None
    binary: bool  # each sample's value is 0 or 1 (drives McNemar/Fisher over Wilcoxon/Mann–Whitney)
    description: str  # one line, for `mlbench tasks NAME` and results.json
    # Metrics computed together once per setting from the same pooled predictions
    # (XLingHealth's verify_*): where one of them has a value at a setting, a missing one
    # could not be computed there, and tables show it as n/a with ``missing_reason``.
    computed_with: str = ""
    missing_reason: str = ""
    # Counts a wrong-language answer: where the answer's language cannot be judged, such
    # answers pass for clean, and figures say so.
    language_checked: bool = False
    # The metric's words in a table's heading where its name reads badly there
    # (``truthful_informative``: "truthful & informative"); empty: the name itself. The name
    # stays the one identifier of every file, option and output (``heading``).
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"metric {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.binary and self.kind != "share":
            raise ValueError(f"metric {self.name}: only a share can be 0/1 per sample")
        if isinstance(self.decimals, bool) or not isinstance(self.decimals, int) or not 0 <= self.decimals <= 6:
            raise ValueError(f"metric {self.name}: decimals must be an integer from 0 to 6")
        direction_ok = self.higher_is_better is None or isinstance(self.higher_is_better, bool)
        if not direction_ok or not isinstance(self.binary, bool):
            raise ValueError(f"metric {self.name}: higher_is_better must be true, false or null; binary a boolean")

    @property
    def is_share(self) -> bool:
        return self.kind == "share"

    @property
    def heading(self) -> str:
        """What a table's heading calls the metric: its label, else its name."""
        return self.label or self.name

    def to_json(self) -> JsonObject:
        optional: dict[str, str | bool] = {
            "computed_with": self.computed_with,
            "missing_reason": self.missing_reason,
            "language_checked": self.language_checked,
            "label": self.label,
        }
        return {
            "kind": self.kind,
            "decimals": self.decimals,
            "higher_is_better": self.higher_is_better,
            "binary": self.binary,
            "description": self.description,
            **{key: value for key, value in optional.items() if value},
        }

    @classmethod
    def from_json(cls, name: str, block: JsonValue) -> Metric:
        """A descriptor as results.json writes it; ValueError/TypeError on any other shape."""
        if not isinstance(block, Mapping):
            raise TypeError(f"metric {name}: its description is not an object")
        # cast: __post_init__ checks these four fields and rejects any other value.
        return cls(
            name,
            cast(Kind, block["kind"]),
            cast(int, block["decimals"]),
            cast("bool | None", block.get("higher_is_better")),
            cast(bool, block.get("binary", False)),
            str(block.get("description", "")),
            str(block.get("computed_with", "")),
            str(block.get("missing_reason", "")),
            block.get("language_checked", False) is True,
            str(block.get("label", "")),
        )


def share(
    name: str,
    description: str,
    *,
    binary: bool = False,
    higher_is_better: bool | None = True,
    computed_with: str = "",
    missing_reason: str = "",
    language_checked: bool = False,
    label: str = "",
) -> Metric:
    return Metric(
        name, "share", 3, higher_is_better, binary, description, computed_with, missing_reason, language_checked, label
    )


def score(name: str, description: str, *, decimals: int = 3, higher_is_better: bool | None = True) -> Metric:
    return Metric(name, "score", decimals, higher_is_better, False, description)


def logprob(name: str, description: str, *, higher_is_better: bool | None = True) -> Metric:
    return Metric(name, "logprob", 2, higher_is_better, False, description)


def count(name: str, description: str, *, higher_is_better: bool | None = None) -> Metric:
    return Metric(name, "count", 2, higher_is_better, False, description)


def undeclared(name: str) -> Metric:
    """The descriptor of a metric nothing declares: no claim it cannot back (no fixed
    scale, no direction, ranked tests rather than McNemar)."""
    return Metric(base_name(name), "score", 3, None, False, "not described by its benchmark")


def by_name(metrics: Iterable[Metric]) -> dict[str, Metric]:
    """Descriptors by base name; two different ones under one name are a declaration error."""
    out: dict[str, Metric] = {}
    for metric in metrics:
        if out.get(metric.name, metric) != metric:
            raise ValueError(f"metric {metric.name} is declared twice, differently")
        out[metric.name] = metric
    return out


def resolve(metric: str, known: Mapping[str, Metric]) -> Metric:
    """The descriptor of a saved metric name (``refusal@adversarial`` → ``refusal``)."""
    return known.get(base_name(metric)) or undeclared(metric)


@dataclass(frozen=True)
class MetricsBlock:
    """What a results.json says about its metrics (its top-level ``"metrics"``): each
    metric's descriptor and which of them its task puts first, so that ``mlbench report``
    presents a run of a benchmark it has no code for."""

    metrics: dict[str, Metric]
    headline: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {name: {**m.to_json(), "headline": name in self.headline} for name, m in self.metrics.items()}

    @classmethod
    def from_json(cls, block: object) -> MetricsBlock:
        if not isinstance(block, Mapping):
            raise TypeError("metrics is not an object")
        metrics = {str(name): Metric.from_json(str(name), entry) for name, entry in block.items()}
        # Metric.from_json has rejected every entry that is not an object.
        return cls(
            metrics, tuple(name for name, entry in block.items() if cast("JsonObject", entry).get("headline") is True)
        )
