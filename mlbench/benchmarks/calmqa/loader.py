"""CaLMQA questions, in any of the three shapes they ship in:

- the hub dataset ``shanearora/CaLMQA`` (the default source): a local snapshot that
  ``mlbench.data`` downloads, read with ``datasets``; ``language`` and
  ``question_type`` are ClassLabel integers there;
- the GitHub release (2015aroras/CaLMQA, ``data/datasets/dataset-{specific,agnostic}-
  <language>.json``), with ``--data-dir`` naming a clone, its ``data/datasets/`` folder,
  or a folder whose ``calmqa/`` holds those files;
- our flattening of the release, ``DIR/calmqa/questions.jsonl`` (one question per line;
  schema in docs/data.md, "Local copies").

Every shape is mapped to one row shape in ``normalize_row``, the only place that knows the
field names: ``id, lang, kind, question, question_english, category, references``. The
release's entries are first flattened exactly as ``questions.jsonl`` is, so the same
question gets the same row from both.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypedDict, cast

from mlbench import data as datastore
from mlbench.data.jsonlines import json_objects, read_text
from mlbench.data.source import DataSource
from mlbench.errors import MlbenchError
from mlbench.languages import LANGUAGES
from mlbench.records import Sample
from mlbench.records.jsontypes import JsonObject, JsonValue

HUB_ID = "shanearora/CaLMQA"
KINDS = ("specific", "agnostic")

# The hub's ClassLabel names, in label order. Only a fallback: the labels are read from the
# dataset's own features; these decode a column that arrives as plain integers (a snapshot
# whose ClassLabel metadata was lost), and would be wrong if the hub reordered its labels.
HUB_LABEL_NAMES = {
    "language": (
        "Afar", "Arabic", "Balochi", "Chinese", "English", "Faroese", "Fijian", "German", "Hebrew", "Hiligaynon",
        "Hindi", "Hungarian", "Japanese", "Kirundi", "Korean", "Papiamento", "Pashto", "Russian", "Samoan",
        "Spanish", "Tongan", "Tswana", "Wolof",
    ),
    "question_type": ("culturally agnostic", "culturally specific"),
}  # fmt: skip
# Language names as the release writes them → ISO code (others come from languages.py).
NAME_ALIASES = {"baluchi": "bal", "rundi": "rn", "setswana": "tn", "chinese (simplified)": "zh"}

# The release: one file per (kind, language); where it may sit under --data-dir.
RELEASE_FILE = re.compile(r"dataset-(specific|agnostic)-(.+)\.json")
RELEASE_FOLDERS = ("calmqa", "data/datasets", ".")
# Human answers are named ``<question>:...:human`` (or ``human (dot points)``, a second
# human answer); every other answer is a model's and is no reference.
HUMAN_ANSWER_SUFFIXES = (":human", ":human (dot points)")


class CalmqaRow(TypedDict):
    """One question as ``normalize_row`` makes it, whatever the shape it was read in."""

    id: str
    lang: str
    kind: str
    question: str
    question_english: str
    category: str
    references: list[str]


def language_code(name: str) -> str | None:
    """``"Kirundi"`` → ``"rn"``; a code is returned as it is."""
    lowered = name.strip().lower()
    if lowered in LANGUAGES:
        return lowered
    by_name = {lang.name.lower(): code for code, lang in LANGUAGES.items()}
    return by_name.get(lowered) or NAME_ALIASES.get(lowered)


def question_kind(value: str) -> str | None:
    """``culturally_specific`` / ``culturally specific`` → ``specific`` (likewise agnostic)."""
    lowered = value.lower()
    return next((kind for kind in KINDS if kind in lowered), None)


def _text_field(row: JsonObject, name: str, where: str, *, required: bool) -> str | None:
    """``row[name]`` when it is a string (None when absent or null and not ``required``).
    Anything else is an error: str() of a list would run its repr ("['...']") as text."""
    value = row.get(name)
    if value is None:
        if required:
            raise MlbenchError(f"{where}: missing field {name}")
        return None
    if not isinstance(value, str):
        raise MlbenchError(f"{where}: {name} must be a string, not {type(value).__name__}")
    return value


def normalize_row(row: JsonObject, where: str) -> CalmqaRow:
    """One question in either schema → our fields; a malformed row is an error."""
    # The hub's rows are known by its column names; any other row is the release's layout,
    # so a release row that lacks question_text is told so (not "unknown language None").
    if "question_text" in row or not ("question" in row or "language" in row):
        language = _text_field(row, "file_language", where, required=True)
        kind = _text_field(row, "kind", where, required=True)
        question = _text_field(row, "question_text", where, required=True)
        answers = row.get("human_answers") or []
        if not isinstance(answers, list) or not all(
            isinstance(a, dict) and isinstance(a.get("text", ""), str) for a in answers
        ):
            # Never dropped silently: a reference the judge does not see changes its verdicts.
            raise MlbenchError(f'{where}: human_answers must be a list of objects with a "text" string')
        # Every answer is an object (checked just above): the test only tells the type checker.
        references: list[JsonValue] = [a.get("text", "") for a in answers if isinstance(a, dict)]
        name = row.get("name")
        if name is not None and not isinstance(name, (str, int)):
            raise MlbenchError(f"{where}: name must be a string, not {type(name).__name__}")
        sample_id = name
    else:  # the hub's columns
        language = _text_field(row, "language", where, required=True)
        kind = _text_field(row, "question_type", where, required=True)
        question = _text_field(row, "question", where, required=True)
        answer = _text_field(row, "answer", where, required=False)
        references = [answer] if answer else []
        sample_id = None
    english_text = _text_field(row, "question_english", where, required=False)
    category = _text_field(row, "category", where, required=False)
    code = language_code(str(language or ""))
    if code is None:
        raise MlbenchError(f"{where}: unknown language {language!r}")
    if not isinstance(question, str) or not question.strip():
        raise MlbenchError(f"{where}: empty question")
    normalized_kind = question_kind(str(kind or ""))
    if normalized_kind is None:
        raise MlbenchError(f"{where}: kind {kind!r} is neither culturally specific nor agnostic")
    english = english_text or ""
    if not sample_id:
        # The hub has no ids: agnostic questions are translations of one English question,
        # so their id comes from it and is shared across languages, as the release's is.
        basis = english if normalized_kind == "agnostic" else f"{code}:{question}"
        sample_id = f"{normalized_kind}:{hashlib.sha1(basis.encode()).hexdigest()[:12]}"
    return {
        "id": str(sample_id),
        "lang": code,
        "kind": normalized_kind,
        "question": question.strip(),
        "question_english": english,
        "category": category or "",
        "references": [r.strip() for r in references if isinstance(r, str) and r.strip()],
    }


def to_sample(row: CalmqaRow) -> Sample:
    # A question may have several human answers; the judge sees them all as its evidence.
    reference = "\n\n".join(row["references"])
    return Sample(
        id=row["id"],
        lang=row["lang"],
        question=row["question"],
        best_answer=reference,
        correct_answers=tuple(row["references"]),
        incorrect_answers=(),
        meta={"kind": row["kind"], "category": row["category"], "question_english": row["question_english"]},
    )


# --- the hub snapshot -------------------------------------------------------------------


def read_hub_folder(folder: Path) -> list[CalmqaRow]:
    """The normalized rows of a local snapshot of the hub repository (``data/*.parquet``
    and its README), its ClassLabel integers turned into the names they stand for."""
    import datasets

    try:
        table = datasets.load_dataset(str(folder), split="train")
    except Exception as error:  # noqa: BLE001 - datasets raises many kinds for a bad folder
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise MlbenchError(f"{folder}: not a readable snapshot of {HUB_ID} ({reason[:160]})") from None
    decoders = {column: _label_decoder(table.features.get(column), column) for column in HUB_LABEL_NAMES}
    rows = []
    for index, raw in enumerate(table):
        where = f"{HUB_ID} row {index + 1}"
        row = dict(raw)
        for column, decode in decoders.items():
            if isinstance(row.get(column), int):
                row[column] = decode(row[column], where)
        rows.append(normalize_row(row, where))
    return rows


def _label_decoder(feature: Any, column: str) -> Callable[[int, str], str]:
    """int → name for one label column: the dataset's own ClassLabel names, or (a plain
    integer column) the names the hub is known to use."""
    import datasets

    if isinstance(feature, datasets.ClassLabel):
        names: tuple[str, ...] = tuple(feature.names)
        to_name = feature.int2str
    else:
        names = HUB_LABEL_NAMES[column]
        to_name = names.__getitem__

    def decode(value: int, where: str) -> str:
        if not 0 <= value < len(names):
            raise MlbenchError(f"{where}: {column} label {value} is not one of the {len(names)} known labels")
        return str(to_name(value))

    return decode


@lru_cache(maxsize=2)
def _hub_rows(folder: Path) -> tuple[CalmqaRow, ...]:
    return tuple(read_hub_folder(folder))


# --- the GitHub release -----------------------------------------------------------------


def release_files(data_dir: Path) -> list[Path]:
    """The release's ``dataset-{specific,agnostic}-<language>.json`` files under
    ``data_dir`` (see ``RELEASE_FOLDERS``), sorted as our flattening orders them; empty
    if there are none. Older names in the repository's history are not matched."""
    for folder in RELEASE_FOLDERS:
        files = sorted(p for p in (data_dir / folder).glob("dataset-*.json") if RELEASE_FILE.fullmatch(p.name))
        if files:
            return files
    return []


def read_release_file(path: Path) -> list[CalmqaRow]:
    """One release file's questions, normalized: the question in the file's language,
    its English translation, and its human answers as references."""
    match = RELEASE_FILE.fullmatch(path.name)
    if match is None:
        raise MlbenchError(f"{path}: not a CaLMQA release file (dataset-{{specific,agnostic}}-<language>.json)")
    kind, file_language = match.groups()
    code = language_code(file_language)
    if code is None:
        raise MlbenchError(f"{path}: unknown language {file_language!r} in the file name")
    try:
        data = json.loads(read_text(path, encoding="utf-8-sig"))
    except (OSError, json.JSONDecodeError) as error:
        raise MlbenchError(f"{path}: not a readable CaLMQA release file ({error})") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise MlbenchError(f'{path}: expected a JSON object with an "entries" list')
    rows = []
    for index, entry in enumerate(entries):
        row = _flatten_entry(entry, f"culturally_{kind}", code, f"{path} entry {index + 1}")
        rows.append(normalize_row(row, f"{path} entry {index + 1} ({row['name']})"))
    return rows


def _flatten_entry(entry: JsonValue, kind: str, code: str, where: str) -> JsonObject:
    """A release entry → the row ``questions.jsonl`` holds for it (the fields we read)."""
    question = entry.get("question") if isinstance(entry, dict) else None
    if not isinstance(entry, dict) or not isinstance(question, dict) or not question.get("name"):
        raise MlbenchError(f'{where}: expected {{"question": {{"name", "translations", ...}}, "answers"}}')
    where = f"{where} ({question['name']})"
    translations = question.get("translations")
    if not isinstance(translations, dict):
        raise MlbenchError(f"{where}: the question has no translations")
    text = _translation(translations, code)
    if text is None:
        raise MlbenchError(f"{where}: the question has no text in {LANGUAGES[code].name}")
    answers = entry.get("answers") or []
    if not isinstance(answers, list) or not all(isinstance(a, dict) for a in answers):
        raise MlbenchError(f'{where}: "answers" is not a list of objects')
    human: list[JsonValue] = []
    for answer in cast("list[JsonObject]", answers):  # every item checked just above
        if not str(answer.get("name", "")).endswith(HUMAN_ANSWER_SUFFIXES):
            continue  # a model's answer
        answer_code = language_code(str(answer.get("language") or ""))
        answer_text = _translation(answer.get("translations") or {}, answer_code) if answer_code else None
        if answer_text is None:
            raise MlbenchError(f"{where}: human answer {answer.get('name')!r} has no text in its own language")
        human.append({"name": answer["name"], "text": answer_text})
    return {
        "name": question["name"],
        "kind": kind,
        "file_language": LANGUAGES[code].name,
        "category": question.get("category"),
        "question_text": text,
        "question_english": _translation(translations, "en") or "",
        "human_answers": human,
    }


def _translation(translations: JsonValue, code: str | None) -> str | None:
    """The text of the translation into language ``code`` (keys are language names)."""
    if not isinstance(translations, dict):
        return None
    for name, translation in translations.items():
        if language_code(str(name)) == code and isinstance(translation, dict):
            text = translation.get("text")
            return text if isinstance(text, str) else None
    return None


@lru_cache(maxsize=2)
def _release_rows(files: tuple[tuple[Path, int], ...]) -> tuple[CalmqaRow, ...]:
    # Keyed by the files' modification times too, so an edited file is read again.
    return tuple(row for path, _ in files for row in read_release_file(path))


# --- our flattening ---------------------------------------------------------------------


@lru_cache(maxsize=4)
def _file_rows(path: Path, mtime_ns: int) -> tuple[CalmqaRow, ...]:
    # Keyed by modification time too, so an edited file is read again.
    return tuple(normalize_row(row, where) for where, row in json_objects(path))


# --- loading ----------------------------------------------------------------------------


def load_rows(source: DataSource) -> list[CalmqaRow]:
    """Every question of every language, normalized. Each source is read and checked once
    per process, not once per language."""
    if source.kind == "hub":
        return list(_hub_rows(datastore.source_folder("calmqa")))
    assert source.path is not None
    path = source.path / "calmqa" / "questions.jsonl"
    if not path.is_file() and (source.path / "questions.jsonl").is_file():
        path = source.path / "questions.jsonl"
    if path.is_file():
        return list(_file_rows(path, path.stat().st_mtime_ns))
    files = release_files(source.path)
    if files:
        return list(_release_rows(tuple((f, f.stat().st_mtime_ns) for f in files)))
    raise MlbenchError(
        f"data dir has no CaLMQA questions: expected {path}, or the release's "
        "dataset-{specific,agnostic}-<language>.json files in DIR/calmqa, DIR/data/datasets or DIR"
    )


@dataclass
class CalmqaQuestions:
    samples: list[Sample]
    # What the run should know about the data, reported with the language's results:
    # questions kept although their text repeats another's, ids given a ``#2``-style suffix.
    counts: dict[str, int] = field(default_factory=dict)


def distinct_ids(rows: list[CalmqaRow]) -> list[CalmqaRow]:
    """``rows`` with every repeated id made distinct: its 2nd use becomes ``<id>#2``, and
    so on, in file order (a changed row is a copy; the cached rows stay as read)."""
    used = {row["id"] for row in rows}
    seen: set[str] = set()
    out: list[CalmqaRow] = []
    for row in rows:
        if row["id"] not in seen:
            seen.add(row["id"])
            out.append(row)
            continue
        number = 2
        while f"{row['id']}#{number}" in used:
            number += 1
        new_id = f"{row['id']}#{number}"
        used.add(new_id)
        out.append({**row, "id": new_id})
    return out


def load_calmqa(lang: str, source: DataSource, kind: str = "all") -> CalmqaQuestions:
    """The questions posed in ``lang``, of one kind or both. Questions with the same text
    (the release has a few, and the hub's ids for them come from the text) are all kept,
    under distinct ids, and counted: a run never stops on them."""
    read = [row for row in load_rows(source) if row["lang"] == lang]
    # Ids are made distinct over both kinds, so that -T kind never changes them.
    pairs = [(old, new) for old, new in zip(read, distinct_ids(read)) if kind in ("all", old["kind"])]
    texts = Counter(new["question"] for _, new in pairs)
    counts = {
        "duplicate_question_kept": sum(n - 1 for n in texts.values()),
        "duplicate_id_renamed": sum(old["id"] != new["id"] for old, new in pairs),
    }
    return CalmqaQuestions([to_sample(new) for _, new in pairs], {k: v for k, v in counts.items() if v})
