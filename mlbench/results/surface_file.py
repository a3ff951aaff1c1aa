"""``mlbench surface``: the surface checks on answers produced anywhere (an API model,
another harness), read from a JSONL file, tabled like a run's surface table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from mlbench.data.jsonlines import json_objects
from mlbench.errors import MlbenchError
from mlbench.languages import LANGUAGES, language_hint, match_language
from mlbench.metrics.surface import SURFACE_METRICS, surface_block, surface_metrics
from mlbench.records import RunResult, SampleRecord
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.results.aggregation import aggregate


class Answer(TypedDict):
    """One answer to check: its question's id (its line's place when the file gives none),
    its language's code and its text ("" for a failed generation)."""

    id: str
    lang: str
    text: str


def field_value(row: JsonObject, path: str) -> JsonValue:
    """``row["outputs"]["answer"]`` for the path ``outputs.answer``; KeyError when absent."""
    value: JsonValue = row
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(path)
        value = value[part]
    return value


def checked_lang(value: JsonValue, where: str) -> str:
    """The code mlbench knows that ``value`` names (``EN``, ``pt-BR``, ``eng`` are read as
    ``en``, ``pt``, ``en``: ``languages.match_language``); else an error naming ``where``
    and the value. The surface checks look the code up in their script and marker tables:
    an unknown one (``xx``, ``5``) would score every answer as the wrong language instead
    of failing."""
    code = match_language(value, tuple(LANGUAGES)) if isinstance(value, str) else None
    if code is None:
        hint = language_hint(value, tuple(LANGUAGES)) if isinstance(value, str) else ""
        if ": there is only " in hint:  # sr-Latn: scoring it as sr would check Latin text for Cyrillic
            raise MlbenchError(
                f"{where}: language {value!r} cannot be checked{hint}; the surface checks know each language"
                " in one script"
            )
        raise MlbenchError(
            f"{where}: language {value!r} is not a known ISO code{hint}; known: {', '.join(sorted(LANGUAGES))}"
        )
    return code


def read_answers(path: Path, text_field: str, lang_field: str | None, lang: str | None) -> list[Answer]:
    """(id, lang, text) of every line; a line without the text or language is an error,
    never skipped. ``lang`` gives every row the same language when the file has none."""
    if not path.is_file():
        raise MlbenchError(f"no such file: {path}")
    if lang is not None:
        lang = checked_lang(lang, "--lang")
    answers: list[Answer] = []
    for position, (where, row) in enumerate(json_objects(path), start=1):
        try:
            text = field_value(row, text_field)
        except KeyError:
            raise MlbenchError(f"{where}: no field {text_field!r} (choose it with --text-field)") from None
        if text is None:
            text = ""  # a failed generation: an empty answer, checked and counted as such
        if not isinstance(text, str):
            raise MlbenchError(f"{where}: field {text_field!r} is not text")
        row_lang = lang
        if row_lang is None:
            try:
                value = field_value(row, lang_field or "lang")
            except KeyError:
                raise MlbenchError(f"{where}: no field {lang_field or 'lang'!r} (use --lang-field or --lang)") from None
            row_lang = checked_lang(value, where)
        # Without an id, an answer is known by its place in the file.
        answers.append({"id": str(row.get("id", position)), "lang": row_lang, "text": text})
    if not answers:
        raise MlbenchError(f"{path} has no answers")
    return answers


def check_answers(answers: list[Answer], progress: Callable[[int], None] = lambda n: None) -> list[SampleRecord]:
    """Records of the checked answers: a ``surface`` block and the surface metrics each."""
    records = []
    for answer in answers:
        block = surface_block(answer["text"], answer["lang"])
        records.append(
            SampleRecord(
                answer["id"],
                answer["lang"],
                outputs={"empty": not answer["text"].strip()},
                metrics=surface_metrics(block, answer["lang"]),
                surface=block,
            )
        )
        progress(1)
    return records


def surface_result(records: list[SampleRecord], source: str, seed: int = 0) -> RunResult:
    """Per-language summary of checked answers, as a run's results."""
    langs = list(dict.fromkeys(r.lang for r in records))
    languages = {
        lang: aggregate(lang, [r for r in records if r.lang == lang], list(SURFACE_METRICS), seed) for lang in langs
    }
    return RunResult(source, "surface", {}, languages)
