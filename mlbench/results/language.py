"""``results_<lang>.json``: one language's summary, written only by the job that runs the
language (a Slurm job per language), from which ``results.json`` is rebuilt. And the
per-language block both files share: n, counts, metric values and intervals, groups, and
each question's value of each metric (``per_question``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mlbench.data.jsonlines import read_text
from mlbench.errors import MlbenchError
from mlbench.records import LanguageResult, MetricValue, SampleRecord
from mlbench.records.json_read import JsonInputError, parse_json
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.layouts import LanguageBlock, read_block, read_language_layout
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


def language_from_json(lang: str, block: JsonValue) -> LanguageResult:
    """A language's block (its layout: ``records.layouts``); ValueError naming what does not fit."""
    return language_result(lang, read_block(block))


def language_result(lang: str, block: LanguageBlock) -> LanguageResult:
    """A checked language block as the result it holds."""
    held: Mapping[str, object] = block  # its metrics are MetricValues once checked (records.layouts)
    metrics = {k: v for k, v in held.items() if isinstance(v, MetricValue)}
    counts = {k: v for k, v in block.items() if isinstance(v, int) and k not in _SIZES}
    groups, templates = ({name: language_result(lang, one) for name, one in _blocks(block, key).items()}
                         for key in _BLOCKS)  # fmt: skip
    samples = _size(block, "n-samples")
    if "n-questions" in block:
        return LanguageResult(lang, _size(block, "n-questions"), metrics, counts, groups, None, samples, templates)
    return LanguageResult(lang, samples, metrics, counts, groups, templates=templates)


def _blocks(block: LanguageBlock, key: str) -> dict[str, LanguageBlock]:
    """A checked block's ``groups`` or ``templates`` (none: {})."""
    inner = block.get(key)
    return {name: one for name, one in inner.items() if isinstance(one, dict)} if isinstance(inner, dict) else {}


def _size(block: LanguageBlock, key: str) -> int:
    """``n-samples`` or ``n-questions`` of a checked block."""
    size = block[key]
    if not isinstance(size, int):
        raise TypeError(f"{key} is not a whole number")
    return size


def compact(value: object) -> str:
    """JSON on one line: thousands of per-question numbers that only programs read. Typed
    ``object``, as json.dumps takes it: a list[str] of ids is no list[JsonValue] to mypy."""
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
        check_version(payload, str(path))  # before the layout: a newer one is named as such
        layout = read_language_layout(payload)
        result = language_result(layout["lang"], layout["result"])
        result.per_question = layout.get("per_question")
        return LanguageFile(layout["lang"], layout["config_hash"], layout["config"], result, layout.get("sample_ids"))
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
