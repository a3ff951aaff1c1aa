"""What a run is asked to do (``RunConfig``), what its checks planned (``PlannedTask``) and
what it reports while it works (``RunObserver``): the nouns that the pipeline, its checks
(checks.py), provenance and the CLI share, kept apart so none of them imports another.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

from mlbench.backends.registry import ModelOptions
from mlbench.benchmarks.base import LanguageData, Task, TaskOptions
from mlbench.benchmarks.options import with_own
from mlbench.data.alignment import ALIGN_LABELS
from mlbench.engine.budget import Budget
from mlbench.records import RunResult, Sample

Mode = str  # "all", or one of the task's modes (mc, gen; XLingHealth's correctness, ...)
# Samples scored per backend call: small enough that a kill loses little work, large
# enough to batch options and generations well.
DEFAULT_CHUNK_SIZE = 32


@dataclass(frozen=True)
class RunConfig:
    model: ModelOptions
    tasks: tuple[str, ...]
    langs: tuple[str, ...] | Literal["all"]
    mode: Mode = "all"
    task_options: TaskOptions = field(default_factory=TaskOptions)
    limit: int | None = None
    seed: int = 0
    output: Path = Path("results")
    resume: bool = False
    # Replace the results already in OUTPUT for the languages being run (without it, and
    # without ``resume``, such a run is refused rather than silently losing them).
    overwrite: bool = False
    cache_dir: Path | None = None
    chunk_size: int | None = None  # samples per backend call; None: the backend's, else DEFAULT_CHUNK_SIZE
    yes: bool = False  # go ahead with a run of more than checks.CONFIRM_GENERATIONS generations
    # Task name → its own options (benchmarks/<name>/options.py).
    own_options: Mapping[str, object] = field(default_factory=dict)
    # Language → the question ids to run (a run imported from logs that hold only some
    # questions); a language not named runs all of its questions.
    ids: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # False when the answers come from logs (`mlbench import`): nothing is generated, so
    # there is no generation count to show or confirm.
    generates: bool = True
    # False where the command has no --resume (`mlbench import`): refusals name --overwrite only.
    resumable: bool = True
    # --max-cost / --max-tokens (engine/budget.py): shared with the judging stage; None: no limit.
    budget: Budget | None = None

    def options_for(self, task: Task) -> TaskOptions:
        """The options ``task`` reads: the shared ones with its own."""
        return with_own(self.task_options, task, self.own_options.get(task.name))

    def asked(self, lang: str, samples: list[Sample]) -> list[Sample]:
        """The samples of ``lang`` that --limit draws from: those ``ids`` names, where it names the language."""
        return [s for s in samples if s.id in self.ids[lang]] if lang in self.ids else samples


@dataclass
class PlannedLanguage:
    lang: str
    data: LanguageData
    samples: list[Sample]
    # Labels of TruthfulQA's rows this run cannot derive (their source not at hand): a
    # resumed run keeps the saved ones (engine/resumed.py).
    unknown_labels: tuple[str, ...] = ()

    @cached_property
    def data_hash(self) -> str:
        """The content of the language's data as loaded (every question, its answers and
        the primer, not only the ones --limit picks), so that an edited data file is seen."""
        content = {"samples": [_hashed(s) for s in self.data.samples], "primer": self.data.primer}
        if self.data.left_out:  # only where some are: other runs keep their hash
            content["left_out"] = self.data.left_out
        blob = json.dumps(content, sort_keys=True, ensure_ascii=False, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def _hashed(sample: Sample) -> dict[str, object]:
    """A sample's content as the data hash reads it: TruthfulQA's row, a label the loader
    derives from the id (already in it), is left out, so that runs made before questions
    carried it resume as they were."""
    content = asdict(sample)
    content["meta"] = {k: v for k, v in sample.meta.items() if k not in ALIGN_LABELS}
    return content


@dataclass
class PlannedTask:
    task: Task
    modes: tuple[str, ...]
    languages: list[PlannedLanguage]


class RunObserver:
    """What the pipeline reports while it works (the CLI draws progress bars from it)."""

    def start(self, task: str, lang: str, total: int, done: int) -> Callable[[int], None]:
        """A bar of ``total`` samples of which ``done`` were finished before (a resumed
        run); the callback advances it by n finished samples, one sample at a time while
        scoring (see ``SampleProgress``)."""
        return lambda n: None

    def generated(self, task: str, lang: str, tokens: int, seconds: float) -> None:
        """A generation call of ``task`` in ``lang`` made ``tokens`` new tokens in
        ``seconds`` (shown as tokens per second)."""

    def finish(self, run: RunResult, metric_order: list[str], group_name: str = "group") -> None:
        pass

    def warn(self, message: str) -> None:
        pass

    def note(self, message: str) -> None:
        pass
