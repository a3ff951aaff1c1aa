"""Results on disk: ``samples_<lang>.jsonl`` (appended as samples finish), ``results.json``
and ``table.md`` under ``<out>/<model-slug>/<task>/``."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mlbench.errors import MlbenchError
from mlbench.jsonlines import not_utf8, read_text
from mlbench.schema import LanguageResult, MetricValue, RunResult, SampleResult
from mlbench.tables import run_tables, to_markdown


def model_slug(model: str) -> str:
    """A folder name for a model: ``org/name`` → ``org__name``; a local path → its last part."""
    path = Path(model).expanduser()
    name = path.name if path.exists() or model.startswith((".", "/", "~")) else model.replace("/", "__")
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name) or "model"


def samples_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f"samples_{lang}.jsonl"


def read_samples(path: Path, config_hash: str | None = None, *, repair: bool = True) -> dict[str, dict[str, Any]]:
    """Finished samples of a (possibly interrupted) run, by id.

    A last line without its newline is what a kill mid-write leaves: it is cut off so the
    file ends on a complete record (with ``repair=False``, used on files another job may be
    writing, it is only skipped). Any other unreadable line is an error, as is a record
    written with different settings (``config_hash``).
    """
    if not path.exists():
        return {}
    raw = path.read_bytes()
    complete_end = raw.rfind(b"\n") + 1
    if repair and complete_end < len(raw):
        with path.open("r+b") as handle:
            handle.truncate(complete_end)
    records: dict[str, dict[str, Any]] = {}
    try:
        text = raw[:complete_end].decode("utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(path, error) from None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise MlbenchError(f"{path}:{line_no}: invalid JSON ({error.msg})") from None
        if config_hash is not None and record.get("config_hash") != config_hash:
            raise MlbenchError(
                f"{path} was written with different settings; rerun with --overwrite instead of --resume, or choose "
                "another --output"
            )
        records[str(record["id"])] = record
    return records


def append_samples(path: Path, results: Iterable[SampleResult]) -> None:
    """Append finished samples and force them to disk before returning."""
    lines = "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in results)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(lines)
        handle.flush()
        os.fsync(handle.fileno())


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as error:
        # A full disk (or quota) leaves a half-written temp file: remove it, so that the
        # folder holds only the old complete file, and end with one line, not a traceback.
        tmp.unlink(missing_ok=True)
        reason = error.strerror or str(error)
        raise MlbenchError(f"could not write {path}: {reason}; {path.name} is left as it was") from None


def run_to_json(run: RunResult) -> dict[str, Any]:
    return {
        "model": run.model,
        "task": run.task,
        **({"config_hash": run.config_hash} if run.config_hash else {}),
        "config": run.config,
        "results": {lang: language_to_json(result) for lang, result in run.languages.items()},
        **({"cross_language": run.cross_language} if run.cross_language else {}),
    }


def language_to_json(result: LanguageResult) -> dict[str, Any]:
    block: dict[str, Any] = {
        "n-samples": result.n,
        **result.counts,
        **{k: v.to_json() for k, v in result.metrics.items()},
    }
    if result.groups:
        block["groups"] = {name: language_to_json(group) for name, group in result.groups.items()}
    return block


def language_from_json(lang: str, block: dict[str, Any]) -> LanguageResult:
    metrics = {k: MetricValue(**v) for k, v in block.items() if isinstance(v, dict) and k != "groups"}
    counts = {k: v for k, v in block.items() if isinstance(v, int) and k != "n-samples"}
    groups = {name: language_from_json(lang, group) for name, group in block.get("groups", {}).items()}
    return LanguageResult(lang, int(block["n-samples"]), metrics, counts, groups)


def run_from_json(data: dict[str, Any]) -> RunResult:
    languages = {lang: language_from_json(lang, block) for lang, block in data["results"].items()}
    return RunResult(
        data["model"],
        data["task"],
        data.get("config", {}),
        languages,
        data.get("cross_language", {}),
        data.get("config_hash", ""),
    )


def language_path(run_dir: Path, lang: str) -> Path:
    return run_dir / f"results_{lang}.json"


def read_language(run_dir: Path, lang: str) -> dict[str, Any]:
    """``results_<lang>.json``: its ``config_hash``, ``config`` and ``result`` block."""
    path = language_path(run_dir, lang)
    try:
        payload = json.loads(read_text(path))
        payload["config_hash"], payload["config"], payload["result"]  # noqa: B018 - a shape check
    except FileNotFoundError:
        raise MlbenchError(f"{path} not found: run the model on {lang} first") from None
    except IsADirectoryError:
        raise MlbenchError(f"{path} is a folder, not an mlbench language result") from None
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise MlbenchError(f"{path}: not an mlbench language result ({error})") from None
    return payload


def written_languages(run_dir: Path) -> list[str]:
    """Languages with a ``results_<lang>.json`` in ``run_dir``, sorted."""
    return sorted(path.stem.removeprefix("results_") for path in run_dir.glob("results_*.json"))


def rewrite_samples(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Replace a samples file with ``records`` in one atomic step (after judging, which
    adds fields to finished samples; appending would duplicate them)."""
    _write_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def write_language(run_dir: Path, result: LanguageResult, config: dict[str, Any], config_hash: str) -> None:
    """One language's result, in a file only this language's job writes."""
    block = language_to_json(result)
    payload = {"lang": result.lang, "config_hash": config_hash, "config": config, "result": block}
    text = json.dumps(payload, indent=2, ensure_ascii=False)
    if result.per_question:
        # One line, not one line per value: thousands of numbers that only programs read.
        compact = json.dumps(result.per_question, ensure_ascii=False, separators=(",", ":"))
        text = f'{text[:-2]},\n  "per_question": {compact}\n}}'
    _write_atomic(language_path(run_dir, result.lang), text + "\n")


@contextmanager
def run_dir_lock(run_dir: Path) -> Iterator[None]:
    """An exclusive lock on the run folder: cluster jobs writing other languages of the same
    model and task take turns rebuilding results.json instead of overwriting each other."""
    import fcntl

    with (run_dir / ".results.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def merge_run(
    run_dir: Path,
    run: RunResult,
    config_hash: str,
    metric_order: list[str],
    lang_order: Iterable[str] = (),
    group_name: str = "group",
    cross_language: dict[str, list[dict[str, Any]]] | None = None,
) -> tuple[RunResult, list[str]]:
    """Rebuild results.json and table.md from every ``results_<lang>.json`` written with
    ``config_hash``; ``run`` gives the model, task and config. Returns the merged run and
    the languages left out because they were written with other settings (an older run in
    the same folder). ``cross_language`` holds the task's statistics across languages."""
    rank = {lang: i for i, lang in enumerate(lang_order)}
    with run_dir_lock(run_dir):
        languages: dict[str, LanguageResult] = {}
        timings: dict[str, Any] = {}
        data_counts: dict[str, Any] = {}  # what the loader left out, per language
        other_settings = []
        for path in sorted(run_dir.glob("results_*.json")):
            try:
                payload = json.loads(path.read_text(encoding="utf-8"))
                lang = payload["lang"]
                if payload["config_hash"] != config_hash:
                    other_settings.append(lang)
                    continue
                languages[lang] = language_from_json(lang, payload["result"])
                timings[lang] = payload["config"]["timings_s"][lang]
                data_counts.update(payload["config"].get("data_counts", {}))
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise MlbenchError(f"{path}: not an mlbench language result ({error})") from None
        ordered = sorted(languages, key=lambda lang: (rank.get(lang, len(rank)), lang))
        merged = RunResult(
            run.model,
            run.task,
            {
                **run.config,
                "timings_s": {lang: timings[lang] for lang in ordered},
                **(
                    {"data_counts": {lang: data_counts[lang] for lang in ordered if lang in data_counts}}
                    if data_counts
                    else {}
                ),
            },
            {lang: languages[lang] for lang in ordered},
            cross_language or {},
            config_hash,
        )
        _write_atomic(run_dir / "results.json", json.dumps(run_to_json(merged), indent=2, ensure_ascii=False) + "\n")
        _write_atomic(run_dir / "table.md", to_markdown(run_tables(merged, metric_order, group_name)))
    return merged, other_settings


def find_runs(root: Path) -> list[tuple[Path, RunResult]]:
    """Every ``results.json`` under ``root``, parsed, in path order."""
    if not root.exists():
        raise MlbenchError(f"no such results folder: {root}")
    runs = []
    for path in sorted(root.rglob("results.json")):
        if path.is_dir():
            raise MlbenchError(f"{path} is a folder, not an mlbench results file: rename or move it")
        try:
            run = run_from_json(json.loads(path.read_text(encoding="utf-8")))
            if not isinstance(run.model, str) or not isinstance(run.task, str):
                raise TypeError("model and task must be strings")
        # Any other shape (a list, "results" that is not an object, a count that is not a
        # number) fails one of these while parsing: one line naming the file.
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise MlbenchError(f"{path}: not an mlbench results file ({type(error).__name__}: {error})") from None
        except OSError as error:
            raise MlbenchError(f"{path}: cannot be read ({error.strerror or error})") from None
        runs.append((path, run))
    if not runs:
        raise MlbenchError(f"no results.json under {root}")
    return runs
