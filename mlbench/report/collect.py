"""Every run under a results folder, read for ``mlbench report``: per (model, task), each
language's summary (value and interval of every metric) and each question's value of
every metric, so that languages can be compared question by question.

Languages of the same model and task written by separate jobs, in one folder or in
several, are merged. Reads only JSON (never torch), and only ``results.json``, which holds
the per-question values too. Runs written before it did are read from the older places,
through the same readers: ``results_<lang>.json``'s per-question values, else
``samples_<lang>.jsonl`` (slower, the same values).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.metrics.descriptor import MetricsBlock
from mlbench.records import LanguageResult, RunResult
from mlbench.records.jsontypes import JsonObject
from mlbench.report.questions import QuestionValues
from mlbench.results import find_runs, language_path, read_language_file, read_samples, results_path, samples_path


@dataclass
class LanguageEntry:
    result: LanguageResult
    # Each question's value of each metric; no columns when neither file has them.
    values: QuestionValues
    run_dir: Path
    config_hash: str


@dataclass
class ModelTask:
    """One model on one task, over every language found for it."""

    model: str  # as shown: the hub id, or a local model's folder name
    task: str
    languages: dict[str, LanguageEntry] = field(default_factory=dict)
    configs: dict[str, JsonObject] = field(default_factory=dict)  # run folder → config
    # Each run's results.json "metrics" block (descriptors and headline), where it has one.
    descriptors: list[MetricsBlock] = field(default_factory=list)
    recorded: str = ""  # the model as its runs record it (hub id or path); ``--ref-model`` takes it too


@dataclass
class Collection:
    runs: list[ModelTask]
    notes: list[str]  # what a reader should know: merged duplicates, mixed settings


def run_seed(run: ModelTask, entry: LanguageEntry, seed: int) -> int:
    """The seed the run of ``entry`` computed its intervals with (``seed`` when its config
    has none): a mean taken again over some of its questions is bootstrapped the same way."""
    own = run.configs.get(str(entry.run_dir), {}).get("seed", seed)
    return own if isinstance(own, int) else seed


def model_label(model: str) -> str:
    """A hub id as it is; a local path by its last part (``/scratch/ckpt/llama-eu`` → ``llama-eu``)."""
    if model.startswith(("/", ".", "~")) or Path(model).expanduser().exists():
        return Path(model).expanduser().name or model
    return model


def model_identity(run: RunResult) -> str:
    """What makes two runs the same model: its fingerprint (the weights' content, dtype and
    backend). A served model is known by its name: its fingerprint holds the server's URL,
    which differs between the jobs of one model served on several nodes."""
    fingerprint = run.config.get("model_fingerprint")
    if run.config.get("backend") == "openai" or not isinstance(fingerprint, str) or not fingerprint:
        return f"name:{run.model}"
    return f"fingerprint:{fingerprint}"


def model_labels(runs: Iterable[RunResult]) -> dict[str, str]:
    """A label per model identity: the model's short name, made longer only where two
    models would share it (``a/tiny`` and ``b/tiny``; the same path holding other weights
    gets its fingerprint, ``tiny@1a2b3c4d``)."""
    names: dict[str, str] = {}
    for run in runs:
        names.setdefault(model_identity(run), run.model)
    labels = {identity: model_label(name) for identity, name in names.items()}
    for label in {label for label in labels.values() if list(labels.values()).count(label) > 1}:
        sharing = [identity for identity in labels if labels[identity] == label]
        for identity in sharing:
            others = [names[other] for other in sharing if names[other] != names[identity]]
            labels[identity] = _distinct_name(names[identity], others)
        tails = [labels[identity] for identity in sharing]
        for identity in sharing:
            if tails.count(labels[identity]) > 1:
                labels[identity] = f"{labels[identity]}@{identity.split(':', 1)[1][:8]}"
    return labels


def _distinct_name(name: str, others: list[str]) -> str:
    """The shortest tail of the path ``name`` that none of ``others`` ends with (its
    last part when no other is given)."""
    parts = Path(name).expanduser().parts
    for size in range(1, len(parts) + 1):
        tail = "/".join(parts[-size:])
        if not any("/".join(Path(other).expanduser().parts[-size:]) == tail for other in others):
            return tail
    return model_label(name)


def collect(root: Path, *, tasks: Iterable[str] = (), models: Iterable[str] = ()) -> Collection:
    """Read every run under ``root``, keeping the given tasks and models (all when empty).
    A language found in two runs of the same model and task is taken from the newer.
    Runs are the same model by ``model_identity``, never by folder name alone."""
    tasks, models = set(tasks), set(models)
    merged: dict[tuple[str, str], ModelTask] = {}
    notes: list[str] = []
    found = find_runs(root)
    labels = model_labels(run for _, run in found)
    for path, run in found:
        identity = model_identity(run)
        label = labels[identity]
        if (tasks and run.task not in tasks) or (models and not {label, model_label(run.model), run.model} & models):
            continue
        entry = merged.setdefault((identity, run.task), ModelTask(label, run.task, recorded=run.model))
        run_dir = path.parent
        entry.configs[str(run_dir)] = run.config
        if run.descriptors is not None:
            entry.descriptors.append(run.descriptors)
        for lang, result in run.languages.items():
            values = _question_values(run_dir, result, run.config_hash)
            samples = result.n if result.samples is None else result.samples  # one value per sample
            if values.ids and len(values.ids) != samples:
                # E.g. results_<lang>.json gone and samples_<lang>.jsonl cut short: its gaps
                # would test other questions than the mean beside them. The mean and interval
                # of results.json stand on their own, so only this language's gaps are left
                # untested (refusing would lose every other run of the report).
                notes.append(
                    f"{label} · {run.task} · {lang} in {run_dir}: the per-question values hold "
                    f"{len(values.ids)} questions but results.json counts n={samples}; "
                    f"{lang}'s gaps are left untested (rerun the language, or restore results_{lang}.json)"
                )
                values = QuestionValues([])
            candidate = LanguageEntry(result, values, run_dir, run.config_hash)
            kept = entry.languages.get(lang)
            if kept is not None:
                newer = candidate if _written_at(candidate) >= _written_at(kept) else kept
                older = kept if newer is candidate else candidate
                notes.append(
                    f"{label} · {run.task} · {lang} is in {older.run_dir} and {newer.run_dir}; "
                    f"the newer ({newer.run_dir}) is used"
                )
                candidate = newer
            entry.languages[lang] = candidate
    for entry in merged.values():
        hashes = {e.config_hash for e in entry.languages.values() if e.config_hash}
        if len(hashes) > 1:
            notes.append(f"{entry.model} · {entry.task}: its languages come from runs with different settings")
    if (tasks or models) and not merged:
        wanted = ", ".join(map(clipped, sorted(tasks | models)))
        names = sorted({run.task for _, run in found} | set(labels.values()))
        hint = did_you_mean(min(tasks | models), names) if len(tasks | models) == 1 else ""
        raise MlbenchError(f"no run under {root} matches {wanted}{hint}; found {_found(found)}")
    return Collection(list(merged.values()), notes)


def _found(found: list[tuple[Path, RunResult]]) -> str:
    labels = model_labels(run for _, run in found)
    pairs = sorted({f"{labels[model_identity(run)]} · {run.task}" for _, run in found})
    return ", ".join(pairs)


def _written_at(entry: LanguageEntry) -> float:
    """When the language was written: its ``results_<lang>.json`` where a run still has
    it, else the run's results.json (a folder holding only that)."""
    for path in (language_path(entry.run_dir, entry.result.lang), results_path(entry.run_dir)):
        if path.exists():
            return path.stat().st_mtime
    return 0.0


def _question_values(run_dir: Path, result: LanguageResult, config_hash: str) -> QuestionValues:
    """Each question's value of each metric: from results.json (read with it), or for a
    run written before results.json held them, from the older files."""
    block = result.per_question
    if not block:
        path = language_path(run_dir, result.lang)
        written = read_language_file(path) if path.exists() else None
        if written is not None and (not config_hash or written.config_hash == config_hash):
            block = written.result.per_question
    if block:
        return QuestionValues.from_columns(block.ids, block.values)
    return _from_samples(samples_path(run_dir, result.lang), config_hash)


def _from_samples(path: Path, config_hash: str) -> QuestionValues:
    if not path.exists():
        return QuestionValues([])
    # Without repair: a job may still be writing it (its cut-off last line is skipped).
    records = [
        record
        for record in read_samples(path, repair=False).values()
        if not config_hash or record.config_hash == config_hash  # not an older run's sample
    ]
    names = dict.fromkeys(name for r in records for name in r.metrics)
    columns = {name: [r.metrics.get(name) for r in records] for name in names}
    return QuestionValues.from_columns([r.id for r in records], columns)
