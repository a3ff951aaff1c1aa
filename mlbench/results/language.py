"""``results_<lang>.json``: one language's summary, written only by the job that runs the
language (a Slurm job per language), from which ``results.json`` is rebuilt. And the
per-language block both files share: n, counts, metric values and intervals, groups, and
each question's value of each metric (``per_question``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlbench.data.jsonlines import read_text
from mlbench.errors import MlbenchError
from mlbench.records import LanguageResult, MetricValue, PerQuestion, SampleRecord
from mlbench.records.json_read import JsonInputError, parse_json
from mlbench.records.jsontypes import JsonObject
from mlbench.records.version import SCHEMA_VERSION, NewerSchema, check_version
from mlbench.results.files import language_path, samples_path, write_atomic
from mlbench.results.samples import read_samples


@dataclass
class LanguageFile:
    """The content of one ``results_<lang>.json``."""

    lang: str
    config_hash: str
    config: JsonObject
    result: LanguageResult  # with its per_question values when the file has them
    # The samples the result is of, in order: what the run's settings (--limit, --seed)
    # selected. A samples file may hold more (a larger earlier run, resumed with a smaller
    # --limit); judging and the cross-language tests read these only. None: a file
    # written before they were recorded (every sample of the settings hash counts).
    sample_ids: list[str] | None = None


# The keys of a language's block that are not a metric's value or a count.
_SIZES, _BLOCKS = ("n-samples", "n-questions"), ("groups", "templates")


def language_to_json(result: LanguageResult) -> JsonObject:
    """The block of one language (without its per-question values, kept apart on one line):
    n-samples, and n-questions where the samples are more than the questions (a run under
    several prompt templates, whose means and intervals are over its questions)."""
    sizes = (
        {"n-samples": result.n} if result.samples is None else {"n-samples": result.samples, "n-questions": result.n}
    )
    block: JsonObject = {**sizes, **result.counts, **{k: v.to_json() for k, v in result.metrics.items()}}
    if result.groups:
        block["groups"] = {name: language_to_json(group) for name, group in result.groups.items()}
    if result.templates:
        block["templates"] = {name: language_to_json(one) for name, one in result.templates.items()}
    return block


def language_from_json(lang: str, block: JsonObject) -> LanguageResult:
    """A language's block; TypeError/KeyError/ValueError on another shape."""
    if not isinstance(block, dict):
        raise TypeError(f"{lang}: a JSON {type(block).__name__}, not an object")
    metrics = {k: MetricValue(**v) for k, v in block.items() if isinstance(v, dict) and k not in _BLOCKS}
    counts = {k: v for k, v in block.items() if isinstance(v, int) and k not in _SIZES}
    groups, templates = ({name: language_from_json(lang, one) for name, one in block.get(key, {}).items()}
                         for key in _BLOCKS)  # fmt: skip
    samples = int(block["n-samples"])
    if "n-questions" in block:
        return LanguageResult(lang, int(block["n-questions"]), metrics, counts, groups, None, samples, templates)
    return LanguageResult(lang, samples, metrics, counts, groups, templates=templates)


def per_question_from_json(block: Any) -> PerQuestion:
    """``{"ids": [...], "values": {metric: [value | None, ...]}, "labels": {field: [label |
    None, ...]}}`` read and checked: a column per metric with one number (or null) per id,
    and per slice field one label (or null) per id; ValueError naming what is wrong."""
    if not isinstance(block, dict) or not isinstance(block.get("ids", []), list):
        raise ValueError("per_question is not an object with a list of ids")
    ids, columns = block.get("ids", []), block.get("values", {})
    if not isinstance(columns, dict):
        raise ValueError("per_question values are not an object")
    for metric, column in columns.items():
        if not isinstance(column, list) or len(column) != len(ids):
            raise ValueError(f"per_question {metric} does not have one value per id")
        if any(v is not None and (isinstance(v, bool) or not isinstance(v, int | float)) for v in column):
            raise ValueError("per_question holds values that are not numbers")
    labels = block.get("labels", {})
    if not isinstance(labels, dict):
        raise ValueError("per_question labels are not an object")
    for name, column in labels.items():
        if not isinstance(column, list) or len(column) != len(ids):
            raise ValueError(f"per_question labels of {name} do not have one label per id")
        if any(label is not None and not isinstance(label, str) for label in column):
            raise ValueError(f"per_question labels of {name} hold values that are not strings")
    return PerQuestion([str(q) for q in ids], columns, labels)


def compact(value: Any) -> str:
    """JSON on one line: thousands of per-question numbers that only programs read."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_language(
    run_dir: Path, result: LanguageResult, config: JsonObject, config_hash: str, sample_ids: list[str] | None
) -> None:
    """One language's result, of the samples ``sample_ids``, in a file only this language's job writes."""
    payload = {
        "schema_version": SCHEMA_VERSION,
        "lang": result.lang,
        "config_hash": config_hash,
        "config": config,
        "result": language_to_json(result),
    }
    text = json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False)
    if result.per_question:
        text = f'{text[:-2]},\n  "per_question": {compact(result.per_question.to_json())}\n}}'
    if sample_ids is not None:
        text = f'{text[:-2]},\n  "sample_ids": {compact(sample_ids)}\n}}'
    write_atomic(language_path(run_dir, result.lang), text + "\n")


def read_language_file(path: Path) -> LanguageFile:
    """A ``results_<lang>.json`` by path; one line naming it when it is not one."""
    if path.is_dir():
        raise MlbenchError(f"{path} is a folder, not an mlbench language result")
    try:
        payload = parse_json(read_text(path), str(path), finite=True)
        if not isinstance(payload, dict):
            raise TypeError(f"a JSON {type(payload).__name__}")
        check_version(payload, str(path))
        lang, config = payload["lang"], payload["config"]
        if not isinstance(lang, str) or not isinstance(config, dict):
            raise TypeError("lang or config has another type")
        result = language_from_json(lang, payload["result"])
        if "per_question" in payload:
            result.per_question = per_question_from_json(payload["per_question"])
        ids = payload.get("sample_ids")
        if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
            raise ValueError("sample_ids is not a list of ids")
        return LanguageFile(lang, str(payload["config_hash"]), config, result, ids)
    except NewerSchema as error:
        raise MlbenchError(str(error)) from None
    except JsonInputError as error:
        raise MlbenchError(f"{path}: not an mlbench language result ({error.reason})") from None
    except OSError as error:
        raise MlbenchError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MlbenchError(f"{path}: not an mlbench language result ({type(error).__name__}: {error})") from None


def read_language(run_dir: Path, lang: str) -> LanguageFile:
    """``results_<lang>.json`` of ``run_dir``."""
    path = language_path(run_dir, lang)
    if not path.exists():
        raise MlbenchError(f"{path} not found: run the model on {lang} first")
    return read_language_file(path)


def language_records(run_dir: Path, written: LanguageFile) -> list[SampleRecord]:
    """The samples a language's result is of: those of its settings hash, and of those the
    ones its run selected (``sample_ids``), in that order. One line when the samples file
    lacks one of them (edited or replaced since)."""
    records = read_samples(samples_path(run_dir, written.lang), written.config_hash, repair=False)
    if written.sample_ids is None:
        return list(records.values())
    missing = [i for i in written.sample_ids if i not in records]
    if missing:
        raise MlbenchError(
            f"{samples_path(run_dir, written.lang)} lacks {len(missing)} of the samples its result is of "
            f"(e.g. {missing[0]!r}): run {written.lang} again"
        )
    return [records[i] for i in written.sample_ids]


def written_languages(run_dir: Path) -> list[str]:
    """Languages with a ``results_<lang>.json`` in ``run_dir``, sorted."""
    return sorted(path.stem.removeprefix("results_") for path in run_dir.glob("results_*.json"))
