"""Rows by English questions (``Alignment.english``): a benchmark whose rows name no
TruthfulQA row, but whose questions in one language are TruthfulQA's own English ones
(X-TruthfulQA keeps them beside its translations, under the same ids). Each such question
matched exactly (surrounding spaces aside) against TruthfulQA's English gives its row to
every language's question of that id. TruthfulQA's English is TruthfulQA-Multi's ``en``
(its 817 rows, in TruthfulQA's order), found through the registry and read from the
run's data: its --data-dir copy, or the pinned release in the cache. A question that
matches none, or is asked twice on either side, gets no row, and the run is told how many."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from mlbench.benchmarks.base import LanguageData, Task, TaskOptions
from mlbench.data.alignment import SCOPE_LABEL, TQA_INDEX_LABEL
from mlbench.data.source import DataSource
from mlbench.data.store import data_root
from mlbench.errors import MlbenchError
from mlbench.records import Sample

TRUTHFULQA = "truthfulqa_multi"  # the benchmark whose English questions are TruthfulQA's, in order


@dataclass(frozen=True)
class EnglishMatch:
    """Sample id → TruthfulQA row for each matched question; ``missing``: why nothing
    could be matched (TruthfulQA's English not at hand), "" when the match was made."""

    rows: dict[str, str]
    missing: str = ""


@dataclass(frozen=True)
class Matched:
    """A language's data with its rows, and what its run is told: ``note`` where the match
    could not be made (its source not at hand: then the rows, and their scopes, are
    ``unknown``, kept as saved by a resumed run), ``warning`` where the data left some
    questions unmatched."""

    data: LanguageData
    note: str | None = None
    warning: str | None = None
    unknown: tuple[str, ...] = ()


# (task, data source, data cache) → its match, once a process; a match not made is not kept
# (a fetch may bring TruthfulQA's English later in the same process).
_MATCHES: dict[tuple[str, str, str], EnglishMatch] = {}


def align_by_english(task: Task, data: LanguageData, options: TaskOptions, lang: str) -> Matched:
    """``data`` (``lang``'s) with the rows its questions' English text gives; unchanged
    for a benchmark aligned otherwise."""
    english = task.alignment.english if task.alignment is not None else ""
    if not english:
        return Matched(data)
    key = (task.name, options.source.describe(task.hub_id), str(data_root()))
    match = _MATCHES.get(key)
    if match is None:
        own = data.samples if lang == english else task.load(english, options).samples
        match = match_english(own, options.source)
        if not match.missing:
            _MATCHES[key] = match
    if match.missing:
        note = f"{task.name}: not aligned (report --align): {match.missing}"
        return Matched(data, note, unknown=(TQA_INDEX_LABEL, SCOPE_LABEL))
    samples = [replace(s, meta={**s.meta, TQA_INDEX_LABEL: match.rows[s.id]}) if s.id in match.rows else s
               for s in data.samples]  # fmt: skip
    return Matched(replace(data, samples=samples), warning=unaligned_line(task.name, lang, english, samples))


def truthfulqa_english(source: DataSource) -> dict[str, str]:
    """TruthfulQA's English question → its row; MlbenchError where TruthfulQA-Multi's
    English cannot be read for ``source``."""
    from mlbench.benchmarks import get_task  # the registry: no benchmark's module is named here

    samples = get_task(TRUTHFULQA).load("en", TaskOptions(source)).samples
    asked = Counter(s.question.strip() for s in samples)
    return {
        s.question.strip(): str(s.meta[TQA_INDEX_LABEL])
        for s in samples
        if asked[s.question.strip()] == 1 and TQA_INDEX_LABEL in s.meta
    }


def match_english(english: list[Sample], source: DataSource) -> EnglishMatch:
    """The rows of a benchmark's ``english`` questions, by exact match."""
    try:
        truthful = truthfulqa_english(source if source.kind == "local" else DataSource("hub"))
    except MlbenchError as error:  # not there (its own line says where it looked), or not whole
        return EnglishMatch({}, f"TruthfulQA's English (truthfulqa_multi en) cannot be read: {error}")
    asked = Counter(s.question.strip() for s in english)
    found = {s.question.strip(): s.id for s in english if asked[s.question.strip()] == 1}
    return EnglishMatch({sample_id: truthful[text] for text, sample_id in found.items() if text in truthful})


def unaligned_line(task: str, lang: str, english: str, samples: list[Sample]) -> str | None:
    """What the run is told of ``lang``'s questions left without a row (None: none is)."""
    left = sum(TQA_INDEX_LABEL not in s.meta for s in samples)
    if not left:
        return None
    return (
        f"{task} {lang}: {left} of {len(samples)} questions have no TruthfulQA row: their {english} question "
        "matches none of TruthfulQA's English exactly (they are left out of report --align)"
    )
