"""The data of a declarative benchmark: one file per language (``data``), or one config's
split of a hub dataset per language (``[source]``), read row by row by
``mlbench.data.tabular`` and into Samples by ``mlbench.data.questions`` (the reader
``--data-file`` shares), then checked to be parallel across languages.

On top of that reader a declared benchmark may name nested columns by dotted paths, give
MC1 and MC2 their own option lists, derive ids (``[ids]``) and clean texts (``[clean]``).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import cast

from mlbench.benchmarks.base import LeftOut
from mlbench.benchmarks.declarative.authors import (
    Unscorable,
    authors_answers_sample,
    authors_options_sample,
    fallback_reference,
    mc2_left_out,
)
from mlbench.benchmarks.declarative.clean import clean_text
from mlbench.benchmarks.declarative.spec import BenchmarkSpec
from mlbench.data.hub_layout import listed_split_files, split_files
from mlbench.data.questions import (
    Columns,
    check_answer_lists,
    check_new_id,
    label_list,
    question_sample,
    text_field,
)
from mlbench.data.tabular import column_value, read_rows
from mlbench.errors import MlbenchError, some_ids
from mlbench.records import Sample
from mlbench.records.budgets import listing, shown
from mlbench.records.jsontypes import JsonObject

SHOWN_IDS = 5  # ids listed in an error; the rest are counted
_OPTION_COLUMNS = ("mc1_choices", "mc1_labels", "mc2_choices", "mc2_labels")


def data_files(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[Path]:
    """The files holding ``lang``'s questions (a hub split may be sharded)."""
    if spec.source is None:
        return [spec.data_path(lang, root)]
    assert root is not None, "a hub source is read from its cached or --data-dir copy"
    config, split, named = _hub_split(spec, lang)
    return split_files(root, config, split, named=named)


def language_files(spec: BenchmarkSpec, lang: str, listing: list[str], card: str | None) -> list[str]:
    """The paths of ``lang``'s files in a hub dataset's listing (and card): what a run of
    ``lang`` fetches (its few-shot split's too)."""
    config, split, named = _hub_split(spec, lang)
    found = listed_split_files(listing, card, config, split, named=named)
    if spec.primer_split is not None:
        try:
            found += listed_split_files(listing, card, config, spec.primer_split_of(lang))
        except MlbenchError:
            pass  # a config without one runs zero-shot; more shots than it has are refused then
    english = spec.align.english if spec.align is not None else ""
    if english and english != lang:  # the questions its rows are matched by
        found += language_files(spec, english, listing, card)
    return found


def _hub_split(spec: BenchmarkSpec, lang: str) -> tuple[str, str, str | None]:
    """``lang``'s hub config, split and named file (with its [vars])."""
    assert spec.source is not None
    values = spec.values(lang)
    source = spec.source
    return source.config_of(lang, values), source.split_of(lang, values), source.data_files_of(lang, values)


def data_name(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> str:
    """What the errors call ``lang``'s data: its file, or the hub config and split."""
    if spec.source is None:
        return str(spec.data_path(lang, root))
    where = f"{root}: " if root is not None else ""
    config, split = spec.source.config_of(lang, spec.values(lang)), spec.source.split_of(lang, spec.values(lang))
    return f"{where}{spec.source.repo} config {config!r} split {split!r}"


@dataclass
class LanguageRows:
    """One language's questions, and what is left out of them: (reason, metric) → their
    ids (only a benchmark read as its authors' task files read it leaves any out: those
    their code cannot score; a metric: left out of it alone)."""

    samples: list[Sample]
    left_out: dict[tuple[str, str | None], list[str]] = field(default_factory=dict)

    def parts(self) -> list[LeftOut]:
        return [LeftOut(reason, tuple(ids), metric) for (reason, metric), ids in self.left_out.items()]


def read_language(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> LanguageRows:
    """One language's questions; a repeated id is an error naming both rows."""
    rows = LanguageRows([])
    seen: dict[str, str] = {}
    index = 0
    try:
        paths = data_files(spec, lang, root)
    except MlbenchError as error:  # the language asked for has no file there
        raise MlbenchError(f"{spec.name} {lang}: {error} (add it there, or leave {lang} out of --lang)") from None
    unlabelled = dict(spec.labels)  # label → column, until a row has the column
    first_row: JsonObject = {}
    for path in paths:
        for where, row in read_rows(path, f"{spec.name} {lang} data"):
            if index == 0:
                check_columns(spec, row, where)
                first_row = row
            if unlabelled:
                unlabelled = {k: c for k, c in unlabelled.items() if not column_value(row, c)[0]}
            try:
                sample = declared_sample(spec, row, lang, index, where)
            except Unscorable as unscorable:
                # Its id still counts: a row number or an id is never given to two rows.
                check_new_id(seen, unscorable.sample_id, where)
                rows.left_out.setdefault((unscorable.reason, None), []).append(unscorable.sample_id)
                index += 1
                continue
            check_new_id(seen, sample.id, where)
            rows.samples.append(sample)
            if "mc2" in spec.mc_metrics and (reason := mc2_left_out(sample, spec.mc2_true)) is not None:
                rows.left_out.setdefault((reason, "mc2"), []).append(sample.id)
            index += 1
    if unlabelled and index:
        label, column = next(iter(unlabelled.items()))
        raise MlbenchError(
            f"{data_name(spec, lang, root)}: no row has the column {shown(column)} (labels.{label} in "
            f"{spec.path.name}); its columns: {listing(shown(c) for c in first_row)}"
        )
    if not rows.samples:
        left = sum(map(len, rows.left_out.values()))  # whole rows only, with no sample left
        why = f" (the {left} rows there cannot be scored: {'; '.join(r for r, _ in rows.left_out)})" if left else ""
        raise MlbenchError(f"{data_name(spec, lang, root)}: no questions{why}")
    return rows


def check_columns(spec: BenchmarkSpec, row: JsonObject, where: str) -> None:
    """Every column the file names is in the first row: a misspelt path is one line naming
    it and the row's columns, not a question skipped later."""
    named = {"columns.question": spec.columns.question}
    if spec.ids.source == "column":
        named["columns.id"] = spec.columns.id
    elif spec.ids.source == "hash":
        named["ids.column"] = spec.ids.column or spec.columns.question
    named |= {f"columns.{k}": getattr(spec.columns, k) for k in _OPTION_COLUMNS if getattr(spec.columns, k)}
    for key, path in named.items():
        if not column_value(row, path)[0]:
            raise MlbenchError(
                f"{where}: no column {path!r} ({key} in {spec.path.name}); "
                f"the row's columns: {', '.join(map(str, row))}"
            )


def declared_sample(spec: BenchmarkSpec, row: JsonObject, lang: str, index: int, where: str) -> Sample:
    """Row ``index`` (from 0, in file order) of ``lang``'s data, as a Sample."""
    columns = spec.columns
    flat = dict(row)  # every column the file names, dotted paths resolved, under its name
    for name in {*(v for v in asdict(columns).values() if isinstance(v, str)), spec.ids.column or ""} - {""}:
        found, value = column_value(row, name)
        if found:
            flat[name] = value
    try:
        flat[columns.id] = sample_id_of(spec, flat, lang, index, where)
    except MlbenchError as error:
        if spec.templates is None:
            raise
        # The authors' code needs no id; mlbench cannot tell the row from another without one.
        raise Unscorable(f"no id: {str(error).removeprefix(where + ': ')}", f"row {index + 1}") from None
    if spec.templates is not None:  # as the authors' task files read it
        try:
            if columns.mc1_choices:
                sample = authors_options_sample(flat, lang, columns, where, spec.mc2_true)
            else:
                fallback = fallback_reference(spec.no_comment_reference, lang)
                sample = authors_answers_sample(flat, lang, columns, where, fallback)
        except Unscorable as unscorable:
            raise Unscorable(unscorable.reason, str(flat[columns.id])) from None
        sample = _cleaned(
            spec, replace(sample, meta={**sample.meta, **_group(flat, columns, where)}), where, options=True
        )
    elif columns.mc1_choices:
        sample = _cleaned(spec, _options_sample(flat, lang, columns, where), where, options=True)
    else:
        listed = spec.answers_as_listed
        sample = question_sample(flat, lang, columns, where, as_listed=listed, repeats=listed)
        sample = _cleaned(spec, sample, where, options=False)
    if not spec.labels and spec.align is None:
        return sample
    return replace(sample, meta={**sample.meta, **_labels(spec, row, where)})


def _labels(spec: BenchmarkSpec, row: JsonObject, where: str) -> JsonObject:
    """The row's ``[labels]``: each label's column, as text (a label left empty is left
    out); and its TruthfulQA row, by ``[align]``."""
    found: JsonObject = dict(spec.align.label(row, where)) if spec.align is not None else {}
    for label, column in spec.labels:
        present, value = column_value(row, column)
        if present and value is not None and str(value).strip():
            found[label] = str(value).strip()
    return found


def sample_id_of(spec: BenchmarkSpec, row: JsonObject, lang: str, index: int, where: str) -> str:
    """The id of row ``index`` (from 0, in file order) of ``lang``'s data, by the file's
    ``[ids]`` rule (``row``: its dotted columns resolved); MlbenchError when it has none."""
    rule = spec.ids
    if rule.source == "column":
        value = text_field(row, spec.columns.id, where, number=True)
        assert value is not None
        return value
    # Rows of a benchmark that is not parallel are not the same question in two languages:
    # the language in a derived id keeps the report from pairing them.
    prefix = "" if spec.parallel else f"{lang}-"
    if rule.source == "row":
        return f"{prefix}{index:04d}"
    column = rule.column or spec.columns.question
    hashed = row.get(column)
    if not isinstance(hashed, str) or not hashed.strip():
        raise MlbenchError(f"{where}: ids come from a hash of {column!r}, which is empty or not text here")
    return prefix + "h" + hashlib.sha256(hashed.strip().encode()).hexdigest()[:12]


def _options_sample(row: JsonObject, lang: str, columns: Columns, where: str) -> Sample:
    """A row with MC1's and MC2's own option lists, kept exactly as listed (the reference
    scores each listed option, repeats included; ``data_warnings`` counts repeats)."""
    assert columns.mc1_choices
    question = text_field(row, columns.question, where)
    assert question is not None
    mc1 = _options(row, columns.mc1_choices, where)
    mc1_labels = label_list(row, columns.mc1_labels, where) if columns.mc1_labels else (1,) + (0,) * (len(mc1) - 1)
    # Without MC2's lists (a benchmark scored on MC1 alone), MC1's options stand for both.
    mc2, mc2_labels = mc1, mc1_labels
    if columns.mc2_choices:
        assert columns.mc2_labels  # spec.py refuses mc2_choices without mc2_labels
        mc2, mc2_labels = _options(row, columns.mc2_choices, where), label_list(row, columns.mc2_labels, where)
    for options, labels, name in ((mc1, mc1_labels, "mc1"), (mc2, mc2_labels, "mc2")):
        if len(options) != len(labels):
            raise MlbenchError(f"{where}: {len(options)} {name} options but {len(labels)} labels")
        if 1 not in labels or 0 not in labels:
            raise MlbenchError(f"{where}: the {name} options need a correct and an incorrect one (labels {labels})")
    if sum(mc1_labels) != 1:
        raise MlbenchError(f"{where}: MC1 has one correct option; these labels mark {sum(mc1_labels)}")
    best = mc1[mc1_labels.index(1)]
    others = tuple(option for option, label in zip(mc1, mc1_labels) if not label)
    return Sample(
        id=str(row[columns.id]),
        lang=lang,
        question=question,
        best_answer=best,
        correct_answers=tuple(o for o, label in zip(mc2, mc2_labels) if label),
        incorrect_answers=tuple(o for o, label in zip(mc2, mc2_labels) if not label),
        mc1_choices=(best, *others),  # the correct one first, as MC1 scores it
        mc2_choices=mc2,
        mc2_labels=mc2_labels,
        meta=_group(row, columns, where),
    )


def _options(row: JsonObject, column: str, where: str) -> tuple[str, ...]:
    """Option texts as the data has them: not stripped, an empty one kept (the reference
    scores them as they are; ``data_warnings`` counts the empty ones)."""
    value = row.get(column)
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value) or not value:
        raise MlbenchError(f"{where}: {column} must be a non-empty list of texts")
    return tuple(cast("list[str]", value))  # every item checked just above


def _group(row: JsonObject, columns: Columns, where: str) -> JsonObject:
    group = text_field(row, columns.group, where, required=False) if columns.group else None
    return {"group": group} if group else {}


def _cleaned(spec: BenchmarkSpec, sample: Sample, where: str, *, options: bool) -> Sample:
    """``sample`` after the ``[clean]`` steps. Answer lists are checked again afterwards
    (a step can empty an answer or make two alike); option lists stay as listed."""
    if not spec.clean_question and not spec.clean_answers:
        return sample

    def answers(texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(clean_text(t, spec.clean_answers) for t in texts)

    cleaned = replace(
        sample,
        question=clean_text(sample.question, spec.clean_question),
        best_answer=clean_text(sample.best_answer, spec.clean_answers),
        correct_answers=answers(sample.correct_answers),
        incorrect_answers=answers(sample.incorrect_answers),
        mc1_choices=answers(sample.mc1_choices or ()),
        mc2_choices=answers(sample.mc2_choices or ()),
    )
    if not options and spec.clean_answers:
        texts = (cleaned.best_answer, *cleaned.correct_answers, *cleaned.incorrect_answers)
        if not all(text.strip() for text in texts):
            raise MlbenchError(f"{where}: an answer is empty after the clean.answers steps")
        check_answer_lists(cleaned.best_answer, cleaned.correct_answers, cleaned.incorrect_answers, where)
    return cleaned


def read_primer(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> list[tuple[str, str]]:
    """One language's few-shot pairs (question, best answer), in order: the file's
    ``fewshot.examples``, else the rows of ``fewshot.primer`` (beside the TOML, or under
    ``root`` for a ``data`` benchmark)."""
    if spec.examples:
        return list(spec.examples)
    if spec.primer_split is not None:
        return _split_primer(spec, lang, root)
    path = primer_file(spec, lang, root)
    if path is None:
        return []
    pairs = []
    for where, row in read_rows(path, f"{spec.name} {lang} few-shot primer"):
        question = text_field(row, spec.columns.question, where)
        answer = text_field(row, spec.columns.best_answer, where)
        assert question is not None and answer is not None
        pairs.append((question, answer))
    return pairs


def _split_primer(spec: BenchmarkSpec, lang: str, root: Path | None) -> list[tuple[str, str]]:
    """The pairs of ``fewshot.split``: each row of ``lang``'s config in that split, read as
    its questions are (an option list's correct option is its answer), in file order."""
    assert spec.source is not None and spec.primer_split is not None and root is not None
    config = spec.source.config_of(lang, spec.values(lang))
    try:
        paths = split_files(root, config, spec.primer_split_of(lang))
    except MlbenchError:
        return []  # none: zero-shot runs; more shots are refused, naming the split
    # A shot needs its question and answer, not the labels a question of the test split keeps.
    shots = replace(spec, align=None, labels=())
    pairs = []
    index = 0
    for path in paths:
        for where, row in read_rows(path, f"{spec.name} {lang} few-shot split"):
            sample = declared_sample(shots, row, lang, index, where)
            pairs.append((sample.question, sample.best_answer))
            index += 1
    return pairs


def primer_name(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> str:
    """What an error calls ``lang``'s few-shot pairs: their file, or their split."""
    if spec.primer_split is not None and spec.source is not None:
        config = spec.source.config_of(lang, spec.values(lang))
        return f"{spec.source.repo} config {config!r} split {spec.primer_split_of(lang)!r}"
    return str(primer_file(spec, lang, root) or f"no fewshot.primer or examples in {spec.path}")


def primer_file(spec: BenchmarkSpec, lang: str, root: Path | None = None) -> Path | None:
    """The file of ``fewshot.primer`` for ``lang``: under ``root`` for a ``data`` benchmark
    (its --data-dir has the same layout), beside the TOML for a hub one (the hub's copy has
    no primer)."""
    return spec.primer_path(lang, root if spec.source is None else None)


def check_parallel(spec: BenchmarkSpec, ids: dict[str, set[str]], root: Path | None = None) -> None:
    """Every language has the ids of the first one (every row's, left-out ones included):
    the report pairs questions by id."""
    if not spec.parallel or len(ids) < 2:
        return
    first, *others = ids
    reference = ids[first]
    for lang in others:
        missing, extra = _listed(reference - ids[lang]), _listed(ids[lang] - reference)
        if missing or extra:
            parts = [f"missing ids {missing}" if missing else "", f"extra ids {extra}" if extra else ""]
            raise MlbenchError(
                f"{data_name(spec, lang, root)} is not parallel to {data_name(spec, first, root)}: "
                f"{'; '.join(p for p in parts if p)} (or set parallel = false in {spec.path.name})"
            )


def _listed(ids: set[str]) -> str:
    return some_ids(sorted(ids), SHOWN_IDS)
