"""The judge's options, ``-J key=value`` (and a run file's ``[judge]`` table), for ``run
--judge MODEL`` and ``mlbench judge``: what to judge and how (these keys), and the judge
model's backend options (any key of ``mlbench backends NAME`` for the judge's backend,
read by ``mlbench.backends.options``). One declaration serves both commands.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mlbench.backends.options import PASSTHROUGH, backend_keys
from mlbench.backends.registry import ModelOptions
from mlbench.errors import MlbenchError, did_you_mean
from mlbench.records.options import SEED_MAX, OptionSetting, option, option_names, parse_value


@dataclass(frozen=True)
class JudgeOptions:
    """What the judge does, beside the backend options of the model that judges."""

    kind: tuple[str, ...] = option(
        (), "Judges to run (`mlbench tasks NAME` lists a benchmark's).", shown="the benchmark's"
    )
    backend: Literal["auto", "hf", "vllm", "openai"] = option("auto", "The judge model's backend.")
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = option("auto", "The judge model's weights.")
    seed: int = option(0, "Seed of the judge model's sampling.")
    chat_template: bool | None = option(None, "Prompt with the judge's chat template.", shown="if it has one")
    scoring: Literal["auto", "logprob", "generate"] = option("auto", "Read the verdict's probability or words.")
    protocol: Literal["trained", "authors"] = option(
        "trained", "TruthfulQA-Multi's truth/info judges: training format, or as the authors ran them."
    )
    search_url: str | None = option(None, "Web-search service for claim evidence (CaLMQA).")
    search_api_key_env: str | None = option(None, "Variable holding the search service's key.")
    search_results: int = option(10, "Search results per claim.")

    def __post_init__(self) -> None:
        if not 0 <= self.seed <= SEED_MAX:  # before the judge model loads, not in its sampler
            raise MlbenchError(f"-J seed must be between 0 and {SEED_MAX}, not {self.seed}")
        if self.search_results < 1:
            raise MlbenchError(f"-J search_results must be at least 1, not {self.search_results}")


JudgeProtocolName = Literal["trained", "authors"]
ScoringChoice = Literal["auto", "logprob", "generate"]


@dataclass(frozen=True)
class JudgeProtocol:
    """How a benchmark picks its judge (``Task.judge_for``): the protocol asked for
    (``-J protocol``), the judge model (whose tokenizer and class a protocol may need) and
    the scoring asked for (``-J scoring``)."""

    name: JudgeProtocolName = "trained"
    model: ModelOptions | None = None
    scoring: ScoringChoice = "auto"


def split_judge_settings(settings: Sequence[OptionSetting]) -> tuple[JudgeOptions, list[OptionSetting]]:
    """-J settings → the judge's own options and the rest (its model's backend options,
    checked against the judge's backend by the caller)."""
    own_keys = option_names(JudgeOptions)
    hints = typing.get_type_hints(JudgeOptions)
    values = {}
    rest = []
    for setting in settings:
        if setting.key in own_keys:
            where = setting.origin or f"-J {setting.key}"
            values[setting.key] = parse_value(where, hints[setting.key], setting.value)
        else:
            rest.append(setting)
    own = JudgeOptions(**values)
    model_keys = backend_keys(own.backend)
    for setting in rest:
        if setting.key not in model_keys and not setting.key.startswith(PASSTHROUGH):
            where = setting.origin or f"-J {setting.key}"
            hint = did_you_mean(setting.key, [*own_keys, *model_keys])
            raise MlbenchError(
                f"{where}: the judge has no option {setting.key!r}{hint}; valid: {', '.join(own_keys)}, and its"
                f" backend's ({own.backend}): {', '.join(model_keys)}"
            )
    return own, rest
