"""A declarative benchmark file (``benchmark.toml``) read into a ``BenchmarkSpec``.

The common case of a user benchmark: a parallel multilingual QA or multiple-choice set,
one JSONL, JSON, CSV or Parquet file per language, scored like TruthfulQA-Multi (MC1/MC2, BLEU). A TOML
file is a benchmark when it has a ``[benchmark]`` table; every other table is optional::

    [benchmark]
    name = "my_qa"                    # the --task name and the results folder
    title = "My parallel QA set"
    data = "data/{lang}.jsonl"        # relative to this file; .jsonl, .json, .csv, .parquet
    languages = ["en", "es"]          # default: every file that matches `data`
    modes = ["mc", "gen"]             # default: both
    parallel = true                   # the same ids in every language (checked)
    answers_as_listed = false         # true: the correct answers as listed, without the best
                                      # answer added (a reference that scores only them)
    judges = ["truth"]                # what `--judge` judges by default

    [columns]                         # the data's column names, where they differ
    id = "id"                         # question, best_answer, correct_answers,
                                      # incorrect_answers, choices, labels, group
    [prompt]
    question = "Q: {question}\\nA:"
    shot = "Q: {question}\\nA: {answer}"

    [fewshot]
    primer = "data/{lang}.primer.jsonl"   # question + best_answer rows
    shots = 2                             # default: every primer row

    [generation]
    max_new_tokens = 64
    stop = ["\\n\\n", "Q:"]
    no_comment_reference = false      # the language's "I have no comment." as a true BLEU
                                      # reference; or a text, the same in every language
    rouge = false                     # ROUGE-1/2/L max, acc and diff beside BLEU (lm-eval's)

A hub dataset instead of ``data`` (see ``fields`` and ``mlbench.data.hub_layout``),
with what such data usually needs::

    [source]
    hub = "owner/name"                # fetched into the data cache; --data-dir: a copy
    revision = "<commit>"             # required; a branch name is locked at first fetch
    config = "{lang}"                 # or split = "{lang}"
    split = "validation"
    [columns]
    mc1_choices = "mc1_targets.choices"   # dotted paths reach into nested objects
    mc1_labels = "mc1_targets.labels"     # MC1 and MC2 may have their own option lists
    mc2_choices = "mc2_targets.choices"
    mc2_labels = "mc2_targets.labels"     # with [benchmark] mc2_true = "labelled" (default: the
                                          # options labelled 1) or "before_first_false" (those
                                          # before the first 0, as lm-eval's process_results_mc2)
    [ids]
    from = "row"                      # column (default), row, or hash (of ids.column)
    [clean]
    question = ["strip", "drop_brackets"] # named steps (clean.CLEAN_STEPS)
    [fewshot]
    examples = [{question = "...", answer = "..."}]   # or primer = "primer.jsonl" (shared)

A translation of TruthfulQA says which of its rows each question is in ``[align]`` (labels.py).
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mlbench.benchmarks.declarative.fields import HubSource, IdRule, read_source, template_fields
from mlbench.benchmarks.declarative.labels import AlignRule, read_align, read_labels
from mlbench.benchmarks.declarative.tables import MODES, BenchmarkFile, shaping, tables_of
from mlbench.benchmarks.declarative.templates import TemplateSpec, read_lm_eval_names, read_templates, read_vars
from mlbench.data.jsonlines import read_text
from mlbench.data.questions import Columns
from mlbench.data.tabular import TABULAR_SUFFIXES
from mlbench.errors import MlbenchError
from mlbench.records.budgets import check_path_length
from mlbench.records.jsontypes import JsonObject, settings_digest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

_LANG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class BenchmarkSpec:
    """A benchmark file as the rest of mlbench reads it; the keys' defaults are the
    declaration's (tables.py)."""

    path: Path  # the TOML file, resolved
    sha256: str  # of the TOML file's bytes
    name: str
    title: str
    # Where the data is: ``data``, a path pattern with {lang} relative to the TOML's folder
    # (or --data-dir); or ``source``, a hub dataset (cached, or --data-dir as the hub lays it out).
    data: str | None
    source: HubSource | None
    languages: tuple[str, ...]  # empty: discovered from the files matching ``data``
    modes: tuple[str, ...]
    parallel: bool
    judges: tuple[str, ...]
    columns: Columns
    ids: IdRule
    clean_question: tuple[str, ...]
    clean_answers: tuple[str, ...]
    question_template: str
    shot_template: str
    primer: str | None  # a path pattern, with {lang} or shared by every language
    examples: tuple[tuple[str, str], ...]  # few-shot pairs written in the file itself
    primer_split: str | None  # a hub benchmark's pairs: this split of each language's config
    shots: int | None  # None: every primer row (0 without a primer)
    max_new_tokens: int
    stop: tuple[str, ...]
    no_comment_reference: bool | str
    answers_as_listed: bool
    # A question's labels read from the data (``[labels]``: label → column), kept with each
    # sample for `report --by` and the explorer; TruthfulQA's row, by ``[align]`` (labels.py).
    labels: tuple[tuple[str, str], ...]
    align: AlignRule | None
    mc_metrics: tuple[str, ...]
    # Which of MC2's options count as true: the ones labelled 1, or the ones before the
    # first 0 (lm-eval's TruthfulQA process_results_mc2, which assumes sorted labels).
    mc2_true: str
    rouge: bool  # ROUGE-1/2/L beside BLEU, as lm-eval's TruthfulQA generation tasks
    # The authors' task files the prompts come from (None: the [prompt] templates above).
    templates: TemplateSpec | None
    # Per language, the [vars] values a template path or source.config may name.
    variables: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    # lm-eval's names of the benchmark's tasks, per mode (``[lm_eval]``, for the import).
    lm_eval: tuple[tuple[str, tuple[str, ...]], ...]
    # The file's tables as declared, which the settings hash is made of (the fields above
    # are read from them).
    tables: BenchmarkFile = field(repr=False, compare=False)

    def values(self, lang: str) -> dict[str, str]:
        """``lang``'s [vars] (empty without them)."""
        return dict(dict(self.variables).get(lang, ()))

    @property
    def folder(self) -> Path:
        return self.path.parent

    def data_path(self, lang: str, root: Path | None = None) -> Path:
        """The file of ``lang`` (a ``data`` pattern's; a hub source's come from ``hub_layout``)."""
        assert self.data is not None
        path = (root or self.folder) / self.data.format(lang=lang)
        check_path_length(path, f"{self.path}: benchmark.data for {lang}")
        return path

    def primer_split_of(self, lang: str) -> str:
        """``fewshot.split`` for ``lang``, its [vars] filled in (as ``source.split``'s are)."""
        assert self.primer_split is not None
        return self.primer_split.format(lang=lang, **self.values(lang))

    def primer_path(self, lang: str, root: Path | None = None) -> Path | None:
        if self.primer is None:
            return None
        path = (root or self.folder) / self.primer.format(lang=lang)
        check_path_length(path, f"{self.path}: fewshot.primer for {lang}")
        return path

    def discover_languages(self, root: Path | None = None) -> tuple[str, ...]:
        """The declared languages, else every language with a file matching ``data``."""
        if self.languages or self.data is None:
            return self.languages
        folder = root or self.folder
        before, _, after = self.data.partition("{lang}")
        pattern = re.compile(re.escape(before) + r"(?P<lang>[A-Za-z0-9_-]+)" + re.escape(after))
        found = set()
        for path in folder.glob(before + "*" + after):
            match = pattern.fullmatch(path.relative_to(folder).as_posix())
            if match and path.is_file():
                found.add(match["lang"])
        return tuple(sorted(found))

    def settings(self) -> JsonObject:
        """What a saved sample depends on besides the data: the keys tables.py marks so
        (the prompts, columns, generation settings; the title or the judges do not change a
        sample) and the authors' task files with their [vars]."""
        shaped = shaping(self.tables)
        if self.templates is not None:
            shaped["templates"] = asdict(self.templates)
            shaped["vars"] = [[lang, [list(kv) for kv in items]] for lang, items in self.variables]
        digest = settings_digest(shaped)
        return {"declarative": digest}


def is_benchmark_file(path: Path) -> bool:
    """Whether a TOML file declares a benchmark (has a ``[benchmark]`` table); a TOML that
    does not parse counts as one, so that its error is reported rather than skipped."""
    try:
        return "benchmark" in tomllib.loads(read_text(path))
    except (tomllib.TOMLDecodeError, RecursionError):
        return True


def read_spec(path: Path) -> BenchmarkSpec:
    """The benchmark ``path`` declares; any mistake is one line naming the file and key."""
    path = path.resolve()
    raw = path.read_bytes()
    try:
        doc = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as error:
        raise MlbenchError(f"{path}: invalid TOML ({error})") from None
    except RecursionError:  # a value nested thousands of levels deep
        raise MlbenchError(f"{path}: invalid TOML (nested deeper than mlbench reads)") from None
    if not isinstance(doc.get("benchmark"), dict):
        raise MlbenchError(f"{path}: not a benchmark file (it has no [benchmark] table)")
    tables = tables_of(path, doc)
    bench, prompt, fewshot, gen = tables.benchmark, tables.prompt, tables.fewshot, tables.generation
    if (bench.data is None) == (tables.source is None):
        raise MlbenchError(f"{path}: give either benchmark.data (local files) or a [source] table (a hub dataset)")
    data = _pattern(path, "benchmark.data", bench.data) if bench.data is not None else None
    languages = list(bench.languages)
    variables = read_vars(path, tables.vars, languages)
    names = tuple(next(iter(variables.values()), {}))
    source = read_source(path, tables.source, names) if tables.source is not None else None
    if source is not None and not languages:
        raise MlbenchError(
            f"{path}: a [source] benchmark lists its benchmark.languages (the hub's configs are not listed)"
        )
    placed = source is not None and any("{" + n + "}" in source.config + source.split for n in ("lang", *names))
    if source is not None and len(languages) > 1 and not placed:
        raise MlbenchError(
            f"{path}: source.config or source.split must hold {{lang}}: the languages need their own data"
        )
    bad = [lang for lang in languages if not _LANG.fullmatch(lang)]
    if bad or len(set(languages)) != len(languages):
        raise MlbenchError(f"{path}: benchmark.languages must be distinct language codes (got {languages})")
    modes = list(bench.modes)
    if not modes or any(mode not in MODES for mode in modes):
        raise MlbenchError(f"{path}: benchmark.modes must be some of {', '.join(MODES)} (got {modes})")
    columns = _columns(path, tables.columns)
    if "mc2" in bench.mc_metrics and columns.mc1_choices and not columns.mc2_choices:
        raise MlbenchError(f"{path}: benchmark.mc_metrics has mc2 but there is no columns.mc2_choices")
    if (tables.upstream is None) != (tables.templates is None):
        raise MlbenchError(f"{path}: [templates] and [upstream] come together (the task files, and where they are)")
    templates = None
    if tables.upstream is not None and tables.templates is not None:
        templates = read_templates(path, tables.upstream, tables.templates, modes, names)
    if templates is not None and "mc" in modes and not columns.mc1_choices:  # the task files score an option list
        need = "columns.mc1_choices (e.g. mc1_targets.choices, the correct option first)"
        raise MlbenchError(f"{path}: [templates] with the mc mode reads its options as the task files do: give {need}")
    if templates is not None and columns.mc1_labels:
        raise MlbenchError(
            f"{path}: with [templates] the first MC1 option is the correct one (lm-eval's doc_to_target: 0), "
            "in the order the templates list them: drop columns.mc1_labels"
        )
    if templates is not None and tables.clean.model_fields_set:  # the authors' code reads the rows as they are
        raise MlbenchError(
            f"{path}: a benchmark with [templates] reads its rows as its authors' code does: drop [clean]"
        )
    if templates is not None and (prompt.model_fields_set or fewshot.model_fields_set):
        raise MlbenchError(
            f"{path}: a benchmark with [templates] takes its prompts from them: drop [prompt] and [fewshot]"
        )
    _template(path, "prompt.question", prompt.question, ("question",))
    _template(path, "prompt.shot", prompt.shot, ("question", "answer"))
    if sum(x is not None and x != () for x in (fewshot.primer, fewshot.examples, fewshot.split)) > 1:
        raise MlbenchError(f"{path}: give one of fewshot.primer (a file), fewshot.examples and fewshot.split")
    if fewshot.split is not None and source is None:
        raise MlbenchError(f"{path}: fewshot.split names a split of the [source] dataset: a hub benchmark's")
    if fewshot.split is not None and source is not None and fewshot.split == source.split:
        raise MlbenchError(f"{path}: fewshot.split is source.split: the shots would be the questions themselves")
    primer = None if fewshot.primer is None else _pattern(path, "fewshot.primer", fewshot.primer, shared=True)
    examples = tuple((example.question, example.answer) for example in fewshot.examples)
    shots = fewshot.shots
    if shots and primer is None and not examples and fewshot.split is None:
        raise MlbenchError(f"{path}: fewshot.shots is {shots} but there is no fewshot.primer file or examples")
    if examples and shots is not None and shots > len(examples):
        raise MlbenchError(f"{path}: fewshot.shots is {shots} but fewshot.examples has {len(examples)}")
    align = read_align(path, tables.align)
    if align is not None and align.english:
        # The English question of an id gives the row of every language's question of that id.
        if align.english not in languages:
            raise MlbenchError(f"{path}: align.english is {align.english!r}, none of benchmark.languages")
        if not bench.parallel or tables.ids.source == "row":
            raise MlbenchError(
                f"{path}: align.english pairs each language's question with the English one of its id: it needs "
                'parallel = true and ids that are the data\'s (ids.from = "column" or "hash")'
            )
    if tables.ids.column is not None and tables.ids.source != "hash":
        raise MlbenchError(f'{path}: ids.column is for from = "hash"; the id column is columns.id')
    return BenchmarkSpec(
        path=path,
        sha256=hashlib.sha256(raw).hexdigest(),
        name=bench.name,
        title=bench.name if bench.title is None else bench.title,
        data=data,
        source=source,
        languages=bench.languages,
        modes=tuple(dict.fromkeys(modes)),
        parallel=bench.parallel,
        judges=bench.judges,
        columns=columns,
        ids=IdRule(tables.ids.source, tables.ids.column),
        clean_question=tables.clean.question,
        clean_answers=tables.clean.answers,
        question_template=prompt.question,
        shot_template=prompt.shot,
        primer=primer,
        examples=examples,
        primer_split=fewshot.split,
        shots=shots,
        max_new_tokens=gen.max_new_tokens,
        stop=gen.stop,
        no_comment_reference=gen.no_comment_reference,
        mc_metrics=bench.mc_metrics,
        mc2_true=bench.mc2_true,
        rouge=gen.rouge,
        answers_as_listed=bench.answers_as_listed,
        labels=read_labels(path, tables.labels),
        align=align,
        templates=templates,
        variables=tuple((lang, tuple(values.items())) for lang, values in variables.items()),
        lm_eval=read_lm_eval_names(
            path, tables.lm_eval, tuple(modes), variables, languages, templates.names if templates else None
        ),
        tables=tables,
    )


def _pattern(path: Path, key: str, given: str, *, shared: bool = False) -> str:
    """A data file pattern: relative, with ``{lang}`` once (or, ``shared``, not at all: one
    file for every language), naming a file mlbench reads (.jsonl, .json, .csv, .parquet)."""
    template_fields(path, key, given, ("lang",))
    check_path_length(given, f"{path}: {key}")
    if given.count("{lang}") != 1 and not (shared and "{lang}" not in given):
        raise MlbenchError(f"{path}: {key} must contain {{lang}} once (e.g. data/{{lang}}.jsonl)")
    if Path(given).is_absolute() or ".." in Path(given).parts:
        raise MlbenchError(f"{path}: {key} must be a path inside the benchmark's folder")
    if not given.endswith(TABULAR_SUFFIXES):
        raise MlbenchError(f"{path}: {key} must name {', '.join(TABULAR_SUFFIXES)} files")
    return given


def _columns(path: Path, columns: Columns) -> Columns:
    if columns.mc2_choices and not columns.mc1_choices:
        raise MlbenchError(f"{path}: columns.mc2_choices needs columns.mc1_choices (MC1's options)")
    if columns.mc2_choices and not columns.mc2_labels:
        raise MlbenchError(f"{path}: columns.mc2_choices needs columns.mc2_labels (which options are true)")
    if columns.mc1_labels and not columns.mc1_choices:
        raise MlbenchError(f"{path}: columns.mc1_labels needs columns.mc1_choices")
    return columns


def _template(path: Path, key: str, given: str, allowed: tuple[str, ...]) -> None:
    """A ``str.format`` template that uses only ``allowed`` fields (checked now, not at
    the first prompt after the model has loaded)."""
    used = template_fields(path, key, given, allowed)
    if "question" in allowed and "question" not in used:
        raise MlbenchError(f"{path}: {key} must contain {{question}}")
