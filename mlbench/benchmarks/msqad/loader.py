"""MSQAD (docs/protocols.md#msqad): sensitive questions on Human Rights Watch topics, one JSON file per
topic, rows parallel across six languages.

The release (github.com/seungukyu/MSQAD, ``MSQAD/gpt-3.5-turbo-0125/<Topic>.json``) is
UTF-8 with a byte-order mark. ``--data-dir DIR`` reads ``DIR/msqad/<Topic>.json`` or a
clone of that repository. One ``Sample`` per (row, language); its id is ``<Topic>:<row>``,
the same in every language, and the topic is kept in ``meta``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.errors import MlbenchError
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject

SOURCE = "github.com/seungukyu/MSQAD (MSQAD/gpt-3.5-turbo-0125)"
LANGUAGE_COLUMNS = {"en": "English", "ko": "Korean", "zh": "Chinese", "es": "Spanish", "de": "German", "hi": "Hindi"}
FIELDS = ("question", "acceptable_response", "non-acceptable_response")
# Where a topic folder may sit under --data-dir: our layout, or a clone of the release.
LAYOUTS = ("msqad", "MSQAD/gpt-3.5-turbo-0125")
# The release's Human Rights Watch topics, one file each (``<Topic>.json``), in its order:
# what a complete copy holds (a data dir may hold fewer; they are found by file name).
TOPICS: tuple[str, ...] = (
    "Arms",
    "Children's Rights",
    "Crisis and Conflict",
    "Disability Rights",
    "Economic Justice and Rights",
    "Environment and Human Rights",
    "Free Speech",
    "Health",
    "International Justice",
    "LGBT Rights",
    "Refugees and Migrants",
    "Rights of Older People",
    "Technology and Rights",
    "Terrorism and Counterterrorism",
    "Torture",
    "United Nations",
    "Women's Rights",
)


@dataclass
class TopicQuestions:
    samples: list[Sample]
    counts: dict[str, int] = field(default_factory=dict)  # rows left out, by reason


def topic_dir(data_dir: Path) -> Path:
    for layout in LAYOUTS:
        folder = data_dir / layout
        if folder.is_dir() and any(folder.glob("*.json")):
            return folder
    expected = " or ".join(str(data_dir / layout / "<Topic>.json") for layout in LAYOUTS)
    raise MlbenchError(f"data dir has no MSQAD topic files: expected {expected}")


def available_topics(data_dir: Path) -> tuple[str, ...]:
    """Topic names (the file names), sorted."""
    return tuple(sorted(path.stem for path in topic_dir(data_dir).glob("*.json")))


@functools.lru_cache(maxsize=32)
def _read_topic(path: Path, mtime: float) -> tuple[JsonObject, ...]:
    """A topic file's rows, read once per process (every language reads the same file)."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MlbenchError(f"{path}: not a readable MSQAD topic file ({error})") from None
    if not isinstance(rows, list):
        raise MlbenchError(f"{path}: expected a JSON array of rows, got {type(rows).__name__}")
    needed = [f"{name}_{f}" for name in LANGUAGE_COLUMNS.values() for f in FIELDS]
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise MlbenchError(f"{path}: row {index} is not a JSON object")
        missing = [c for c in needed if c not in row]
        if missing:
            raise MlbenchError(f"{path}: row {index} has no {', '.join(missing[:3])}")
        bad = [c for c in needed if row[c] is not None and not isinstance(row[c], str)]
        if bad:
            raise MlbenchError(f"{path}: row {index}: {bad[0]} is not text")
    return tuple(rows)


def _cell(row: JsonObject, column: str) -> str:
    """A column ``_read_topic`` checked (a text, or null: ``""``), stripped."""
    value = row[column]
    return value.strip() if isinstance(value, str) else ""


def load_msqad(data_dir: Path, lang: str, topics: tuple[str, ...] = ()) -> TopicQuestions:
    """The questions of ``topics`` (default: every topic found) in ``lang``. A row whose
    question is empty in ``lang`` is left out and counted."""
    known = available_topics(data_dir)
    unknown = [t for t in topics if t not in known]
    if unknown:
        raise MlbenchError(f"msqad has no topic {', '.join(map(repr, unknown))}; found: {', '.join(known)}")
    column = LANGUAGE_COLUMNS[lang]
    samples, empty = [], 0
    for topic in topics or known:
        path = topic_dir(data_dir) / f"{topic}.json"
        for index, row in enumerate(_read_topic(path, path.stat().st_mtime)):
            question = _cell(row, f"{column}_question")
            if not question:
                empty += 1
                continue
            acceptable = _cell(row, f"{column}_acceptable_response")
            samples.append(
                Sample(
                    id=f"{topic}:{index}",
                    lang=lang,
                    question=question,
                    best_answer=acceptable,
                    correct_answers=(acceptable,) if acceptable else (),
                    incorrect_answers=tuple(filter(None, [_cell(row, f"{column}_non-acceptable_response")])),
                    meta={"topic": topic, "title": row.get("title") or ""},
                )
            )
    return TopicQuestions(samples, {"skipped_empty_question": empty} if empty else {})
