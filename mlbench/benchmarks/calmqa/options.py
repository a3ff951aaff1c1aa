"""CaLMQA's own options (`-T key=value`; `mlbench tasks calmqa` lists them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mlbench.benchmarks.options import check_choices, option


@dataclass(frozen=True)
class CalmqaOptions:
    kind: Literal["all", "specific", "agnostic"] = option(
        "all", "Which questions: culturally specific, culturally agnostic, or all."
    )

    def __post_init__(self) -> None:
        check_choices(self, "calmqa")
