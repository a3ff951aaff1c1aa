"""``mlbench report --align tqa_index``: questions paired across benchmarks by TruthfulQA's
row (``data/alignment.py``), so that a language of one translation is compared with a
language of another: TruthfulQA-X's German, which has no English, against TruthfulQA-Multi's
English.

Each model's aligned runs become one task, ``ALIGNED_TASK``, whose "languages" are a
language of a benchmark (``de (truthfulqax)``), its questions keyed by their TruthfulQA
row. The tables, paired tests, intervals and Holm corrections are then the report's own,
paired only (n = the questions both sides answered): two benchmarks' question sets differ
by design, and a share of shared questions is no reason to stop pairing them.

Each model's gaps are measured from its own reference column (``references``: the one
rule of ``reference_column`` on that model's runs), so that a model that ran English in
another benchmark than the others is not left without gaps. Where the models' references
differ, each reference's models get a task of their own (``by_reference``: ``aligned by
tqa_index · gaps to en (truthfulqa_multi_mt)``), so that every table has one reference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from mlbench.data.alignment import TQA_INDEX_LABEL
from mlbench.errors import MlbenchError, clipped, did_you_mean
from mlbench.report.collect import Collection, LanguageEntry, ModelTask, run_seed
from mlbench.report.questions import QuestionValues
from mlbench.report.slices import SEPARATOR, base_task
from mlbench.report.slicing import question_labels, restricted

ALIGNED_TASK = f"aligned by {TQA_INDEX_LABEL}"
# The aligned task of a model with no run of the reference language, where others have one.
NO_REFERENCE = f"{ALIGNED_TASK}{SEPARATOR}no run of the reference language"
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


def check_field(field: str) -> None:
    """``--align FIELD`` names a field questions are aligned by."""
    if field not in ALIGN_FIELDS:
        hint = did_you_mean(field, list(ALIGN_FIELDS))
        raise MlbenchError(f"--align {clipped(field)}: questions are aligned by {', '.join(ALIGN_FIELDS)} only{hint}")


def nonempty(aligned: Collection, collection: Collection, field: str = TQA_INDEX_LABEL) -> Collection:
    """``aligned`` (``aligned_runs`` of ``collection``); one line when it holds nothing."""
    if not aligned.runs:
        tasks = ", ".join(sorted({run.task for run in collection.runs}))
        raise MlbenchError(
            f"--align {field}: no question of these runs ({tasks}) carries {field} "
            "(a translation of TruthfulQA run by this version; `mlbench tasks NAME` says whether one can be aligned)"
        )
    return aligned


def aligned_runs(collection: Collection, field: str = TQA_INDEX_LABEL, *, unlabelled_notes: bool = True) -> Collection:
    """Per model, one ``ALIGNED_TASK`` holding each language of each benchmark whose
    questions carry ``field``; what cannot be aligned is left out, each in a note (none
    where nothing can be: ``nonempty`` says so in one line). ``unlabelled_notes``:
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
    if repeated:  # a run before `mlbench run` checked the rows: which question is the row's is unknown
        return None, (
            f"{len(repeated)} {field} value(s) name two questions or more (e.g. {repeated[0]}), so its questions "
            "cannot be paired by their row: left out of the aligned tables and the Translations section "
            "(run again by this version, which refuses such data)"
        )
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
    most questions in it (ties: a human translation, ``translation_of``, then the benchmark's
    name), None where no run has it."""
    names = {name for run in collection.runs for name in run.languages}
    if ref_lang in names:
        return ref_lang
    sizes: dict[str, int] = {}
    human: set[str] = set()
    for run in collection.runs:
        for name, entry in run.languages.items():
            column = parse_column(name)
            if column is not None and column.lang == ref_lang:
                sizes[name] = max(sizes.get(name, 0), len(entry.values.ids))
                if translation_of(run, name) == "human":
                    human.add(name)
    if not sizes:
        return None
    return min(sizes, key=lambda name: (-sizes[name], name not in human, name))


def translation_of(run: ModelTask, name: str) -> str:
    """How the benchmark of ``run``'s column ``name`` was translated, as its results.json
    says (``human``, ``machine``; "": not said, as by runs before it was recorded)."""
    config = run.configs.get(str(run.languages[name].run_dir), {})
    kind = config.get("translation", "")
    return kind if isinstance(kind, str) else ""


def references(aligned: Collection, ref_lang: str) -> dict[str, str | None]:
    """Each model's reference column: ``reference_column`` on that model's aligned runs
    alone (``ref_lang`` named in full is every model's, or none's that lacks it)."""
    return {run.model: reference_column(Collection([run], []), ref_lang) for run in aligned.runs}


def shared_reference(chosen: Mapping[str, str | None]) -> str | None:
    """The reference most models take (ties: by name); None where none has one."""
    counts = Counter(name for name in chosen.values() if name is not None)
    return min(counts, key=lambda name: (-counts[name], name)) if counts else None


def references_differ(chosen: Mapping[str, str | None]) -> bool:
    """Whether the models' reference columns (of those that have one) are not all one: then
    each reference has tables of its own (``by_reference``), and every format names each."""
    return len(set(chosen.values()) - {None}) > 1


def aligned_task(reference: str) -> str:
    """The aligned task of the models measured from ``reference``, where models differ."""
    return f"{ALIGNED_TASK}{SEPARATOR}gaps to {reference}"


def is_aligned(task: str) -> bool:
    return base_task(task) == ALIGNED_TASK


def by_reference(aligned: Collection, chosen: Mapping[str, str | None]) -> tuple[Collection, dict[str, str]]:
    """``aligned`` with each model's task named by its reference where the models' references
    differ (``aligned_task``), a model without one in a task of its own (``NO_REFERENCE``,
    whose gaps are none), and each task's reference. One reference for every model (or none
    for any): the tasks as they are."""
    shared = shared_reference(chosen)
    if shared is None:
        return aligned, {}
    split = references_differ(chosen)
    runs, tasks = [], {}
    for run in aligned.runs:
        reference = chosen.get(run.model)
        task = NO_REFERENCE if reference is None else aligned_task(reference) if split else ALIGNED_TASK
        tasks[task] = reference or shared
        runs.append(ModelTask(run.model, task, run.languages, run.configs, run.descriptors, run.recorded))
    return Collection(runs, aligned.notes), tasks
