"""``results.json`` (and ``table.md`` beside it): a model × task over every language
written with the run's settings, rebuilt from the ``results_<lang>.json`` files under the
run folder's lock. It holds all that ``mlbench report`` reads: the config, each
language's n, counts, metric values and intervals and group tables, the statistics across
languages, and each question's value of each metric (``per_question``, one line per
language)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from mlbench.data.jsonlines import read_text
from mlbench.errors import MlbenchError
from mlbench.metrics.catalog import metrics_from_json, metrics_json
from mlbench.records import LanguageResult, RunResult
from mlbench.records.json_read import JsonInputError, parse_json
from mlbench.records.jsontypes import JsonObject, JsonValue, Tables
from mlbench.records.layouts import read_run_layout
from mlbench.records.version import SCHEMA_VERSION, NewerSchema, check_version
from mlbench.results.files import results_path, run_dir_lock, write_atomic
from mlbench.results.language import compact, language_result, language_to_json, read_language_file
from mlbench.results.tables import run_tables, to_markdown
from mlbench.results.usage import USAGE_KEYS, check_usage, run_usage


def run_to_json(run: RunResult) -> JsonObject:
    """results.json as an object, without the per-question values (see ``run_text``)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "model": run.model,
        "task": run.task,
        **({"config_hash": run.config_hash} if run.config_hash else {}),
        "config": run.config,
        "results": {lang: language_to_json(result) for lang, result in run.languages.items()},
        **({"cross_language": _json_tables(run.cross_language)} if run.cross_language else {}),
        "metrics": metrics_json(run),  # what each metric is, so that report needs no task code
    }


def _json_tables(tables: Tables) -> JsonObject:
    """Named tables of flat rows as the JSON they are (the same rows, typed as JSON)."""
    return {name: [{**row} for row in rows] for name, rows in tables.items()}


def run_text(run: RunResult) -> str:
    """results.json's text: indented, with each language's per-question values on one line
    at the end (thousands of numbers that only programs read)."""
    text = json.dumps(run_to_json(run), indent=2, ensure_ascii=False, allow_nan=False)
    columns = {lang: result.per_question for lang, result in run.languages.items() if result.per_question}
    if columns:
        lines = ",\n".join(
            f"    {json.dumps(lang, ensure_ascii=False)}: {compact(v.to_json())}" for lang, v in columns.items()
        )
        text = f'{text[:-2]},\n  "per_question": {{\n{lines}\n  }}\n}}'
    return text + "\n"


def run_from_json(data: JsonValue) -> RunResult:
    """A parsed results.json; ValueError naming what does not fit its layout
    (``records.layouts``), NewerSchema (a ValueError) when a newer mlbench wrote it."""
    check_version(data, "this results.json")  # before the layout: a newer one is named as such
    layout = read_run_layout(data)
    languages = {lang: language_result(lang, block) for lang, block in layout["results"].items()}
    for lang, per_question in layout.get("per_question", {}).items():
        if lang in languages:
            languages[lang].per_question = per_question
    run = RunResult(
        layout["model"],
        layout["task"],
        layout.get("config", {}),
        languages,
        layout.get("cross_language", {}),
        layout.get("config_hash", ""),
        descriptors=metrics_from_json(layout),
    )
    check_usage(run.config)  # read whole by the summary and the report: a bad count fails here
    return run


def read_run_file(path: Path) -> RunResult:
    """A results.json by path; one line naming it when it is not one."""
    if path.is_dir():
        raise MlbenchError(f"{path} is a folder, not an mlbench results file: rename or move it")
    try:
        return run_from_json(parse_json(read_text(path), str(path), finite=True))
    except FileNotFoundError:
        raise MlbenchError(f"{path} not found: not a finished run (run `mlbench run` first)") from None
    except OSError as error:
        raise MlbenchError(f"{path}: cannot be read ({error.strerror or error})") from None
    # Any other shape (a list, "results" that is not an object, a count that is not a
    # number) fails one of these while parsing: one line naming the file.
    except NewerSchema as error:
        raise MlbenchError(f"{path}: {error}") from None
    except JsonInputError as error:
        raise MlbenchError(f"{path}: not an mlbench results file ({error.reason})") from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise MlbenchError(f"{path}: not an mlbench results file ({type(error).__name__}: {error})") from None


def read_run(run_dir: Path) -> RunResult:
    """The results.json of a run folder."""
    return read_run_file(results_path(run_dir))


def find_runs(root: Path) -> list[tuple[Path, RunResult]]:
    """Every ``results.json`` under ``root``, parsed, in path order."""
    if not root.exists():
        raise MlbenchError(f"no such results folder: {root}")
    runs = [(path, read_run_file(path)) for path in sorted(root.rglob("results.json"))]
    if not runs:
        raise MlbenchError(f"no results.json under {root}")
    return runs


def merge_run(
    run_dir: Path,
    run: RunResult,
    config_hash: str,
    metric_order: list[str],
    lang_order: Iterable[str] = (),
    group_name: str = "group",
    cross_language: Tables | None = None,
) -> tuple[RunResult, list[str]]:
    """Rebuild results.json and table.md from every ``results_<lang>.json`` written with
    ``config_hash``; ``run`` gives the model, task and config. Returns the merged run and
    the languages left out because they were written with other settings (an older run in
    the same folder). ``cross_language`` holds the task's statistics across languages."""
    rank = {lang: i for i, lang in enumerate(lang_order)}
    with run_dir_lock(run_dir):
        languages: dict[str, LanguageResult] = {}
        timings: JsonObject = {}
        # Each language's blocks of its own: what the loader left out (counts, and the rows
        # by reason), the content of its data, when the model worked on it, and the API
        # tokens of its samples.
        blocks: dict[str, JsonObject] = {key: {} for key in _LANGUAGE_BLOCKS}
        other_settings = []
        for path in sorted(run_dir.glob("results_*.json")):
            written = read_language_file(path)
            if written.config_hash != config_hash:
                other_settings.append(written.lang)
                continue
            timings_s = written.config.get("timings_s")
            if not isinstance(timings_s, dict) or written.lang not in timings_s:
                missing = repr(written.lang) if isinstance(timings_s, dict) else "'timings_s'"
                raise MlbenchError(f"{path}: not an mlbench language result (no timing: {missing})")
            timings[written.lang] = timings_s[written.lang]
            for key, into in blocks.items():
                into.update(_settings_block(path, written.config, key))
            languages[written.lang] = written.result
        ordered = sorted(languages, key=lambda lang: (rank.get(lang, len(rank)), lang))
        merged = RunResult(
            run.model,
            run.task,
            {
                # The usage is the languages' own, summed again: an older one in ``run.config``
                # (a language's settings before its rejudging) must not survive an empty sum.
                **{key: value for key, value in run.config.items() if key not in USAGE_KEYS},
                "timings_s": {lang: timings[lang] for lang in ordered},
                **{
                    key: {lang: block[lang] for lang in ordered if lang in block}
                    for key, block in blocks.items()
                    if block and key != "usage"
                },
                **run_usage(blocks["usage"], ordered),
            },
            {lang: languages[lang] for lang in ordered},
            cross_language or {},
            config_hash,
        )
        write_atomic(results_path(run_dir), run_text(merged))
        write_atomic(run_dir / "table.md", to_markdown(run_tables(merged, metric_order, group_name)))
    return merged, other_settings


_LANGUAGE_BLOCKS = ("data_counts", "data_left_out", "data_sha256", "model_work_unix", "usage")


def _settings_block(path: Path, config: JsonObject, key: str) -> JsonObject:
    """A per-language block of a ``results_<lang>.json``'s settings ({} when absent);
    MlbenchError naming the file when it is malformed."""
    block = config.get(key, {})
    if not isinstance(block, dict):
        raise MlbenchError(f"{path}: not an mlbench language result ({key} is not an object)")
    if key == "usage":
        try:
            check_usage({"usage": block})
        except ValueError as error:
            raise MlbenchError(f"{path}: not an mlbench language result ({error})") from None
    return block
