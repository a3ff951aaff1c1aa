"""``mlbench report --align tqa_index``: questions paired across benchmarks by TruthfulQA's
row (``data/alignment.py``), so that a language of one translation is compared with a
language of another: TruthfulQA-X's German, which has no English, against TruthfulQA-Multi's
English.

Each model's aligned runs become one task, ``ALIGNED_TASK``, whose "languages" are a
language of a benchmark (``de (truthfulqax)``), its questions keyed by their TruthfulQA
row. The tables, paired tests, intervals and Holm corrections are then the report's own,
paired only (n = the questions both sides answered): two benchmarks' question sets differ
by design, and a share of shared questions is no reason to stop pairing them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.errors import MlbenchError, did_you_mean
from mlbench.report.collect import Collection, LanguageEntry, ModelTask, run_seed
from mlbench.report.questions import QuestionValues
from mlbench.report.slicing import question_labels, restricted

ALIGNED_TASK = f"aligned by {TQA_INDEX_LABEL}"
ALIGN_FIELDS = (TQA_INDEX_LABEL,)


@dataclass(frozen=True)
class Column:
    """A language of one benchmark, as an aligned table's column (``column_name``)."""

    lang: str
    task: str


def column_name(lang: str, task: str) -> str:
    return f"{lang} ({task})"


def parse_column(name: str) -> Column | None:
    """The column ``column_name`` wrote; None for a plain language code."""
    lang, found, rest = name.partition(" (")
    return Column(lang, rest[:-1]) if found and rest.endswith(")") else None


def aligned_collection(collection: Collection, field: str = TQA_INDEX_LABEL) -> Collection:
    """Per model, one ``ALIGNED_TASK`` holding each language of each benchmark whose
    questions carry ``field``; what cannot be aligned is left out, each in a note. One
    line when nothing can be aligned."""
    if field not in ALIGN_FIELDS:
        hint = did_you_mean(field, list(ALIGN_FIELDS))
        raise MlbenchError(f"--align {field}: questions are aligned by {', '.join(ALIGN_FIELDS)} only{hint}")
    aligned = aligned_runs(collection, field)
    if not aligned.runs:
        tasks = ", ".join(sorted({run.task for run in collection.runs}))
        raise MlbenchError(
            f"--align {field}: no question of these runs ({tasks}) carries {field} "
            "(a translation of TruthfulQA run by this version; `mlbench tasks NAME` says whether one can be aligned)"
        )
    return aligned


def aligned_runs(collection: Collection, field: str = TQA_INDEX_LABEL, *, unlabelled_notes: bool = True) -> Collection:
    """``aligned_collection``'s runs, none where nothing can be aligned. ``unlabelled_notes``:
    a note for each run none of whose questions carries ``field`` (not a translation of
    TruthfulQA, mostly: worth saying where the user asked to align, noise elsewhere)."""
    merged: dict[str, ModelTask] = {}
    notes = list(collection.notes)
    for run in collection.runs:
        unlabelled = []
        for lang, entry in sorted(run.languages.items()):
            keyed, note = _keyed(run, entry, field)
            if keyed is None and not note:
                unlabelled.append(lang)
                continue
            if note:
                notes.append(f"{run.model} · {run.task} · {lang}: {note}")
            if keyed is None:
                continue
            target = merged.setdefault(run.model, ModelTask(run.model, ALIGNED_TASK, recorded=run.recorded))
            target.languages[column_name(lang, run.task)] = keyed
            target.configs.update(run.configs)
            target.descriptors.extend(run.descriptors)
        if unlabelled and unlabelled_notes:
            notes.append(
                f"{run.model} · {run.task} ({', '.join(unlabelled)}): no question carries {field}, "
                "left out of the aligned tables"
            )
    return Collection(list(merged.values()), notes)


def _keyed(run: ModelTask, entry: LanguageEntry, field: str) -> tuple[LanguageEntry | None, str]:
    """``entry`` with its questions keyed by ``field``, and a note for the reader: why it
    is left out (None; no note: none of its questions carries ``field``), or which of its
    questions are."""
    labels = question_labels(run.task, entry, field, None)
    if not labels:
        return None, ""
    repeated = [label for label, times in Counter(labels.values()).items() if times > 1]
    if repeated:
        return None, f"{len(repeated)} {field} value(s) name two questions (e.g. {repeated[0]}): left out"
    left = len(entry.values.ids) - len(labels)
    if left:  # the language's means are taken again over the questions that have a row
        entry = restricted(entry, [q for q in entry.values.ids if q in labels], run_seed(run, entry, 0))
    rows = [labels[q] for q in entry.values.ids]
    values = QuestionValues.from_columns(rows, {name: column.tolist() for name, column in entry.values.columns.items()})
    note = f"{left} question(s) without {field} left out" if left else ""
    return LanguageEntry(entry.result, values, entry.run_dir, entry.config_hash), note


def reference_column(collection: Collection, ref_lang: str) -> str | None:
    """The aligned column the gaps are measured from: ``ref_lang`` itself where it names
    one (``en (truthfulqa_multi)``), else ``ref_lang`` in the benchmark that answered the
    most questions in it (ties: the benchmark's name), None where no run has it."""
    names = {name for run in collection.runs for name in run.languages}
    if ref_lang in names:
        return ref_lang
    sizes: dict[str, int] = {}
    for run in collection.runs:
        for name, entry in run.languages.items():
            column = parse_column(name)
            if column is not None and column.lang == ref_lang:
                sizes[name] = max(sizes.get(name, 0), len(entry.values.ids))
    if not sizes:
        return None
    return min(sizes, key=lambda name: (-sizes[name], name))
