"""What ``mlbench explore`` shows, read from the runs' own files: per task, each question
with, per language and model, what was asked, what the model answered (or how it scored
each option), the metric values, the judges' verdicts and the surface flags.

Only a run's selected samples are read (``results_<lang>.json``'s ids, as judging does).
An input that cannot be shown (no samples, a samples file that cannot be read) is skipped
with a line saying why; the rest is shown. Where a model answered one language in two
translations of TruthfulQA, one more task, ``ALIGNED_TASK``, sets them side by side
(explore_translations.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mlbench.data.alignment import PAIRING_LABELS, TQA_INDEX_LABEL
from mlbench.data.source import QUESTION_LABEL
from mlbench.errors import MlbenchError
from mlbench.metrics.descriptor import Metric
from mlbench.metrics.names import base_name
from mlbench.records import SampleRecord
from mlbench.records.jsontypes import JsonObject, JsonValue
from mlbench.records.version import SCHEMA_VERSION
from mlbench.report.alignment import ALIGNED_TASK
from mlbench.report.collect import model_identity, model_labels
from mlbench.report.explore_translations import Aligned, Place, RowCell, align
from mlbench.report.slices import SliceFile
from mlbench.results import find_runs, language_records, read_language


@dataclass
class TaskView:
    """One benchmark's part of the page: its metrics (descriptors), its languages in the
    order found, and each question's cells (one per language and model)."""

    metrics: dict[str, JsonObject] = field(default_factory=dict)
    langs: list[str] = field(default_factory=list)
    questions: dict[str, list[JsonObject]] = field(default_factory=dict)
    # Each mode run: its own metrics, and whether it writes answers (whose surface and
    # judge metrics belong to it too). Empty for a benchmark this version does not know.
    modes: dict[str, JsonObject] = field(default_factory=dict)
    # The aligned view only: the columns of each language answered in two or more
    # benchmarks, and where each of its cells sits in its benchmark's own view.
    translations: dict[str, list[str]] = field(default_factory=dict)
    places: dict[str, list[Place]] = field(default_factory=dict)

    def to_json(self, positions: Mapping[str, Mapping[str, int]] | None = None) -> JsonObject:
        """``positions``: each task's question ids → their index on the page, which an
        aligned view's cells are written as (``at``: task, question, cell), not copied."""
        questions: list[JsonValue] = []
        for i, cells in self.questions.items():
            places = self.places.get(i)
            if places is None or positions is None:
                questions.append({"id": i, "cells": list(cells)})
                continue
            refs: list[JsonValue] = [
                {"l": entry["l"], "at": [p.task, positions[p.task][p.question], p.index]}
                for entry, p in zip(cells, places)
            ]
            questions.append({"id": i, "cells": refs})
        out: JsonObject = {
            "metrics": dict(self.metrics),
            "langs": list(self.langs),
            "modes": dict(self.modes),
            "questions": questions,
        }
        if self.translations:
            out["translations"] = {lang: list(names) for lang, names in self.translations.items()}
        return out


@dataclass
class ExplorerData:
    """The page's data: the model labels in order, the tasks by name, and one line per
    input left out."""

    models: list[str] = field(default_factory=list)
    tasks: dict[str, TaskView] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    @property
    def cells(self) -> int:
        return sum(len(cells) for task in self.tasks.values() for cells in task.questions.values())

    def to_json(self) -> JsonObject:
        positions = {name: {q: n for n, q in enumerate(task.questions)} for name, task in self.tasks.items()}
        return {
            "schema_version": SCHEMA_VERSION,
            "models": list(self.models),
            "tasks": {name: task.to_json(positions) for name, task in self.tasks.items()},
            "skipped": list(self.skipped),
        }


def explorer_data(roots: Iterable[Path], slices: SliceFile | None = None) -> ExplorerData:
    """Every run under ``roots``; a root without runs is skipped with its reason. The
    labels of a ``--slices`` file join each question's own."""
    found = []
    data = ExplorerData()
    for root in roots:
        try:
            found += find_runs(root)
        except MlbenchError as error:
            data.skipped.append(str(error))
    labels = model_labels(run for _, run in found)
    rows: list[RowCell] = []  # the cells that carry TruthfulQA's row, for the aligned view
    for path, run in found:
        label = labels[model_identity(run)]
        if label not in data.models:
            data.models.append(label)
        model = data.models.index(label)
        task = data.tasks.setdefault(run.task, TaskView())
        task.modes.update(_modes(run.task, run.config.get("modes")))
        if run.descriptors is not None:
            for name, metric in run.descriptors.metrics.items():
                task.metrics.setdefault(name, _descriptor(metric, name in run.descriptors.headline))
        for lang in run.languages:  # the benchmark's order (en first), as results.json keeps them
            where = f"{label} · {run.task} · {lang}"
            try:
                records = language_records(path.parent, read_language(path.parent, lang))
            except MlbenchError as error:
                data.skipped.append(f"{where}: {error}")
                continue
            if not records:
                data.skipped.append(f"{where}: no samples in {path.parent}")
                continue
            if lang not in task.langs:
                task.langs.append(lang)
            for record in records:
                entry = cell(record, lang, model)
                # A sample of one of several templates takes its question's labels.
                own = slices.of(run.task, record.id) if slices is not None else {}
                own = own or (slices.of(run.task, record.labels.get(QUESTION_LABEL, "")) if slices is not None else {})
                if _slices(own):
                    entry["s"] = _slices({**record.labels, **own})
                cells = task.questions.setdefault(record.id, [])
                row = record.labels.get(TQA_INDEX_LABEL)
                if row:
                    rows.append(RowCell(model, lang, row, Place(run.task, record.id, len(cells))))
                cells.append(entry)
    aligned = align(rows, data.models)
    if aligned is not None:
        data.skipped += aligned.skipped
        data.tasks[ALIGNED_TASK] = _aligned_view(data.tasks, aligned)
    for task in data.tasks.values():
        _add_seen_metrics(task)
    return data


def _aligned_view(tasks: dict[str, TaskView], aligned: Aligned) -> TaskView:
    """``aligned`` as a task: each cell its benchmark's own, in its column; the metrics
    and modes of its benchmarks merged (a metric's first description kept)."""
    view = TaskView(langs=list(aligned.columns), translations=dict(aligned.translations))
    modes: dict[str, tuple[list[str], bool]] = {}
    for name in dict.fromkeys(place.task for cells in aligned.rows.values() for _, place in cells):
        for metric, descriptor in tasks[name].metrics.items():
            view.metrics.setdefault(metric, descriptor)
        for mode, about in tasks[name].modes.items():
            metrics, answers = modes.get(mode, ([], False))
            metrics += [m for m in _strings(about.get("metrics")) if m not in metrics]
            modes[mode] = (metrics, answers or about.get("answers") is True)
    view.modes = {mode: {"metrics": list(metrics), "answers": answers} for mode, (metrics, answers) in modes.items()}
    for row, cells in aligned.rows.items():
        view.questions[row] = [{**tasks[p.task].questions[p.question][p.index], "l": column} for column, p in cells]
        view.places[row] = [place for _, place in cells]
    return view


def _strings(value: JsonValue) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _slices(labels: Mapping[str, str]) -> JsonObject:
    """The labels a slice can be cut by: not those that name one question each
    (TruthfulQA's row: 817 slices of one question)."""
    return {name: value for name, value in labels.items() if name not in PAIRING_LABELS}


def _modes(task_name: str, run_modes: JsonValue) -> dict[str, JsonObject]:
    """The modes a run ran, as its benchmark declares them (none for an unknown one)."""
    from mlbench.benchmarks import get_task

    try:
        task = get_task(task_name)
    except MlbenchError:
        return {}
    names = run_modes if isinstance(run_modes, list) else task.mode_names
    declared = {mode.name: mode for mode in task.modes}
    return {
        str(name): {"metrics": list(declared[name].metrics), "answers": declared[name].writes_answers}
        for name in names
        if name in declared
    }


def _descriptor(metric: Metric, headline: bool) -> JsonObject:
    return {
        "binary": metric.binary,
        "higher": metric.higher_is_better,
        "decimals": metric.decimals,
        "share": metric.is_share,
        "headline": headline,
    }


def _add_seen_metrics(task: TaskView) -> None:
    """The metrics the samples hold, each with its descriptor: results.json describes a
    metric by its base name (``wrong_language``) where samples hold its settings too
    (``wrong_language@adversarial``). A metric no run describes (a run from before
    descriptors) is shown with three decimals, no direction; a described one no sample
    holds is left out."""
    unknown: JsonObject = {"binary": False, "higher": None, "decimals": 3, "share": False, "headline": False}
    seen = dict.fromkeys(name for cells in task.questions.values() for entry in cells for name in _names(entry))
    described = task.metrics
    task.metrics = {n: dict(described.get(n) or described.get(base_name(n)) or unknown) for n in seen}


def _names(entry: JsonObject) -> list[str]:
    metrics = entry.get("m")
    return list(metrics) if isinstance(metrics, dict) else []


def cell(record: SampleRecord, lang: str, model: int) -> JsonObject:
    """One question in one language by one model, with short keys (a page holds
    thousands): l lang, mo model, q question, a answer, r reference, m metrics, o
    options [text, probability, correct], s labels (category, topic, …), j judges, f
    flags, e error."""
    outputs = record.outputs
    entry: JsonObject = {"l": lang, "mo": model, "q": record.question, "r": record.reference}
    answer = outputs.get("answer")
    if isinstance(answer, str):
        entry["a"] = answer
    adversarial = outputs.get("adversarial")
    if isinstance(adversarial, dict) and isinstance(adversarial.get("answer"), str):
        entry["a2"] = adversarial["answer"]
    entry["m"] = {k: v for k, v in record.metrics.items() if isinstance(v, int | float) and math.isfinite(v)}
    options = _options(outputs.get("options"))
    if options:
        entry["o"] = options
    judges: JsonObject = {kind: _verdict(block) for kind, block in record.judges.items() if isinstance(block, dict)}
    if judges:
        entry["j"] = judges
    labels = _slices(record.labels)
    if labels:
        entry["s"] = labels
    flags = _flags(record)
    if flags:
        entry["f"] = flags
    if record.error:
        entry["e"] = record.error
    return entry


def _options(block: JsonValue) -> list[JsonValue]:
    """[text, probability among the options, correct] per option; the probabilities are
    the options' likelihoods normalised over the options shown."""
    if not isinstance(block, list) or not block:
        return []
    rows = [
        (o, float(logprob))
        for o in block
        if isinstance(o, dict) and isinstance(logprob := o.get("logprob"), int | float)
    ]
    if not rows:
        return []
    logprobs = [logprob for _, logprob in rows]
    weights = [math.exp(value - max(logprobs)) for value in logprobs]
    total = sum(weights)
    return [[str(o.get("text", "")), round(w / total, 4), o.get("correct")] for (o, _), w in zip(rows, weights)]


def _verdict(block: JsonObject) -> JsonObject:
    """A verdict with short keys: l label, s score, t the judge's words, e error, p share
    supported, x what the judge read (its text, the turns a server templated, or the
    sha256 kept in place of a long text)."""
    verdict: JsonObject = {}
    for key, short in (("label", "l"), ("score", "s"), ("output", "t"), ("judge_error", "e"), ("supported", "p")):
        if block.get(key) is not None:
            verdict[short] = block[key]
    sent = block.get("sent")
    if isinstance(sent, list):  # turns: shown as the role of each, then its text
        sent = "\n\n".join(f"[{t.get('role')}]\n{t.get('content')}" for t in sent if isinstance(t, dict))
    if isinstance(sent, str):
        verdict["x"] = sent
    elif isinstance(block.get("sent_sha256"), str):
        verdict["x"] = f"({block.get('sent_chars')} characters, sha256 {block['sent_sha256']})"
    return verdict


def _flags(record: SampleRecord) -> list[JsonValue]:
    """What a reader should notice about the answer: a wrong language (with the language
    detected), repetition, a refusal, the surface markers, an empty answer."""
    flags: list[JsonValue] = []
    surface = record.surface or {}
    language = surface.get("language")
    if isinstance(language, dict) and language.get("status") == "wrong":
        flags.append(f"wrong language ({language.get('detected')})")
    if surface.get("repetition") is True:
        flags.append("repetition")
    markers = surface.get("markers")
    if isinstance(markers, list):
        flags += [str(marker).replace("_", " ") for marker in markers]
    if any(base_name(name) == "refusal" and value == 1 for name, value in record.metrics.items()):
        flags.append("refusal")  # MSQAD's, per response: refusal@direct, refusal@adversarial
    if record.outputs.get("empty") is True:
        flags.append("empty answer")
    return flags
