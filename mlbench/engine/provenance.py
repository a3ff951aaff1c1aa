"""The ``config`` block of results.json: everything needed to reproduce or audit a run."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, cast

from mlbench.benchmarks import included_from
from mlbench.benchmarks.base import all_mode_settings
from mlbench.data.record import data_record
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.resources import prompt_hash

if TYPE_CHECKING:
    from mlbench.backends.base import Backend
    from mlbench.benchmarks.base import Task
    from mlbench.engine.plan import RunConfig

PACKAGES = ("mlbench", "torch", "transformers", "tokenizers", "datasets", "sacrebleu", "numpy")


@lru_cache(maxsize=1)
def package_versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


@lru_cache(maxsize=1)
def git_hash() -> str | None:
    """The commit of the mlbench checkout, when it runs from one."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def engine_settings(config: RunConfig) -> JsonObject:
    """The engine and server options that were set (defaults left out)."""
    from mlbench.backends.options import recorded_settings
    from mlbench.backends.redact import redact_url

    settings = recorded_settings(dict(config.model.given))
    if "base_url" in settings:  # recorded without its credentials; requests keep them
        settings["base_url"] = redact_url(str(settings["base_url"]))
    return settings


def batch_size(config: RunConfig) -> JsonValue:
    """The batch size given (hf's -M batch_size), else ``auto``, as a backend that batches
    by itself records it too."""
    given = dict(config.model.given).get("batch_size", "auto")
    return given if isinstance(given, int | str) else "auto"


def provenance(
    config: RunConfig, task: Task, modes: tuple[str, ...], backend: Backend, timings: dict[str, float]
) -> JsonObject:
    options = config.options_for(task)
    return {
        "model": config.model.model,
        "backend": backend.name,
        "model_fingerprint": backend.fingerprint,
        **cast(JsonObject, backend.describe()),  # JSON's values: results.json records them
        "batch_size": batch_size(config),
        "engine": engine_settings(config),
        "modes": list(modes),
        "fewshot": task.fewshot(options),
        "chat_template": options.chat_template,
        "system_prompt": options.system_prompt,
        "data_source": options.source.describe(task.hub_id),
        "data": data_record(task.name, options.source),
        # A benchmark from --include: its file, so that `mlbench judge` can load it again.
        **({"include": dict[str, JsonValue](origin)} if (origin := included_from(task.name)) else {}),
        # How its questions were translated, where the benchmark says (the report's chi-square reads it).
        **({"translation": task.alignment.translation} if task.alignment and task.alignment.translation else {}),
        "limit": config.limit,
        "seed": config.seed,
        "prompt_hashes": {name: prompt_hash(task.prompt_dir, name) for name in task.prompt_files},
        **({"task_settings": task.settings(options)} if task.settings(options) else {}),
        **(
            {"mode_settings": dict[str, JsonValue](per_mode)}
            if (per_mode := all_mode_settings(task, modes, options))
            else {}
        ),
        "packages": dict[str, JsonValue](package_versions()),
        "git_hash": git_hash(),
        "timings_s": dict[str, JsonValue](timings),
    }


def judged_settings(run_dir: Path, lang: str, config_hash: str) -> JsonObject:
    """What judging added to a language's settings (``judges``: each kind's judge and its
    prices), carried over when ``run --resume`` writes the language again: its samples keep
    their verdicts and judge tokens, so the settings they were made and priced with stay too."""
    from mlbench.errors import MlbenchError
    from mlbench.results import language_path, read_language_file

    path = language_path(run_dir, lang)
    try:
        written = read_language_file(path) if path.exists() else None
    except MlbenchError:  # unreadable: rewritten from the samples, as before
        return {}
    if written is None or written.config_hash != config_hash or not isinstance(written.config.get("judges"), dict):
        return {}
    return {"judges": written.config["judges"]}
