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
import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from mlbench.benchmarks.declarative.fields import (
    HubSource,
    IdRule,
    count,
    flag,
    known,
    read_clean,
    read_examples,
    read_ids,
    read_source,
    template_fields,
    text,
    texts,
)
from mlbench.benchmarks.declarative.labels import AlignRule, read_align, read_labels
from mlbench.benchmarks.declarative.templates import TemplateSpec, read_lm_eval_names, read_templates, read_vars
from mlbench.data.jsonlines import read_text
from mlbench.data.questions import Columns
from mlbench.data.tabular import TABULAR_SUFFIXES
from mlbench.errors import MlbenchError
from mlbench.records.budgets import check_path_length
from mlbench.records.jsontypes import JsonObject

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

MODES = ("mc", "gen")
DEFAULT_QUESTION = "Q: {question}\nA:"
DEFAULT_SHOT = "Q: {question}\nA: {answer}"
# Used as a folder name under --output and as a --task name: no separators, no spaces.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_LANG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_TABLES = ("benchmark", "source", "columns", "ids", "clean", "prompt", "fewshot", "generation", "upstream",
           "templates", "vars", "labels", "lm_eval", "align")  # fmt: skip
MC_METRICS = ("mc1", "mc2", "mc1_norm")
MC2_TRUE = ("labelled", "before_first_false")


@dataclass(frozen=True)
class BenchmarkSpec:
    path: Path  # the TOML file, resolved
    sha256: str  # of the TOML file's bytes
    name: str
    title: str
    # Where the data is: ``data``, a path pattern with {lang} relative to the TOML's folder
    # (or --data-dir); or ``source``, a hub dataset (cached, or --data-dir as the hub lays it out).
    data: str | None = None
    source: HubSource | None = None
    languages: tuple[str, ...] = ()  # empty: discovered from the files matching ``data``
    modes: tuple[str, ...] = MODES
    parallel: bool = True
    judges: tuple[str, ...] = ("truth",)
    columns: Columns = field(default_factory=Columns)
    ids: IdRule = field(default_factory=IdRule)
    clean_question: tuple[str, ...] = ()
    clean_answers: tuple[str, ...] = ()
    question_template: str = DEFAULT_QUESTION
    shot_template: str = DEFAULT_SHOT
    primer: str | None = None  # a path pattern, with {lang} or shared by every language
    examples: tuple[tuple[str, str], ...] = ()  # few-shot pairs written in the file itself
    shots: int | None = None  # None: every primer row (0 without a primer)
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ("\n\n", "Q:")
    no_comment_reference: bool | str = False
    answers_as_listed: bool = False
    # A question's labels read from the data (``[labels]``: label → column), kept with each
    # sample for `report --by` and the explorer; TruthfulQA's row, by ``[align]`` (labels.py).
    labels: tuple[tuple[str, str], ...] = ()
    align: AlignRule | None = None
    mc_metrics: tuple[str, ...] = ("mc1", "mc2")
    # Which of MC2's options count as true: the ones labelled 1, or the ones before the
    # first 0 (lm-eval's TruthfulQA process_results_mc2, which assumes sorted labels).
    mc2_true: str = "labelled"
    rouge: bool = False  # ROUGE-1/2/L beside BLEU, as lm-eval's TruthfulQA generation tasks
    # The authors' task files the prompts come from (None: the [prompt] templates above).
    templates: TemplateSpec | None = None
    # Per language, the [vars] values a template path or source.config may name.
    variables: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # lm-eval's names of the benchmark's tasks, per mode (``[lm_eval]``, for the import).
    lm_eval: tuple[tuple[str, tuple[str, ...]], ...] = ()

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
        """What a saved sample depends on besides the data: templates, columns, generation
        settings (the title or the judges do not change a sample)."""
        shaping = {
            "columns": asdict(self.columns),
            "ids": asdict(self.ids),
            "clean": [list(self.clean_question), list(self.clean_answers)],
            "examples": [list(pair) for pair in self.examples],
            "question": self.question_template,
            "shot": self.shot_template,
            "max_new_tokens": self.max_new_tokens,
            "stop": list(self.stop),
            "no_comment_reference": self.no_comment_reference,
        }
        if self.mc_metrics != ("mc1", "mc2"):  # only when set, so older runs keep their hash
            shaping["mc_metrics"] = list(self.mc_metrics)
        if self.answers_as_listed:
            shaping["answers_as_listed"] = True
        for key, default in (("mc2_true", "labelled"), ("rouge", False)):  # only when set, as above
            if getattr(self, key) != default:
                shaping[key] = getattr(self, key)
        if self.templates is not None:
            shaping["templates"] = asdict(self.templates)
            shaping["vars"] = [[lang, [list(kv) for kv in items]] for lang, items in self.variables]
        digest = hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()[:16]
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
    known(path, "", doc, _TABLES)
    tables = {name: doc.get(name, {}) for name in _TABLES}
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise MlbenchError(f"{path}: {name} must be a table ([{name}])")
    bench, prompt, fewshot, gen = (tables[n] for n in ("benchmark", "prompt", "fewshot", "generation"))
    known(path, "benchmark", bench, ("name", "title", "data", "languages", "modes", "parallel", "judges",
                                     "mc_metrics", "answers_as_listed", "mc2_true"))  # fmt: skip
    known(path, "columns", tables["columns"], tuple(f.name for f in fields(Columns)))
    known(path, "prompt", prompt, ("question", "shot"))
    known(path, "fewshot", fewshot, ("primer", "examples", "shots"))
    known(path, "generation", gen, ("max_new_tokens", "stop", "no_comment_reference", "rouge"))
    name = text(path, "benchmark.name", bench.get("name"))
    if not _NAME.fullmatch(name):
        raise MlbenchError(f"{path}: benchmark.name {name!r} must be letters, digits, '_', '.' or '-'")
    if ("data" in bench) == ("source" in doc):
        raise MlbenchError(f"{path}: give either benchmark.data (local files) or a [source] table (a hub dataset)")
    data = _pattern(path, "benchmark.data", bench["data"]) if "data" in bench else None
    languages = texts(path, "benchmark.languages", bench.get("languages", []))
    variables = read_vars(path, doc.get("vars", {}), languages)
    names = tuple(next(iter(variables.values()), {}))
    source = read_source(path, doc["source"], names) if "source" in doc else None
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
    modes = texts(path, "benchmark.modes", bench.get("modes", list(MODES)))
    if not modes or any(mode not in MODES for mode in modes):
        raise MlbenchError(f"{path}: benchmark.modes must be some of {', '.join(MODES)} (got {modes})")
    columns = _columns(path, tables["columns"])
    mc_metrics = tuple(texts(path, "benchmark.mc_metrics", bench.get("mc_metrics", ["mc1", "mc2"])))
    if not mc_metrics or any(m not in MC_METRICS for m in mc_metrics):
        raise MlbenchError(f"{path}: benchmark.mc_metrics must be some of {', '.join(MC_METRICS)} (got {mc_metrics})")
    if "mc2" in mc_metrics and columns.mc1_choices and not columns.mc2_choices:
        raise MlbenchError(f"{path}: benchmark.mc_metrics has mc2 but there is no columns.mc2_choices")
    mc2_true = text(path, "benchmark.mc2_true", bench.get("mc2_true", "labelled"))
    if mc2_true not in MC2_TRUE:
        raise MlbenchError(f"{path}: benchmark.mc2_true must be one of {', '.join(MC2_TRUE)} (got {mc2_true!r})")
    if ("upstream" in doc) != ("templates" in doc):
        raise MlbenchError(f"{path}: [templates] and [upstream] come together (the task files, and where they are)")
    templates = read_templates(path, doc["upstream"], doc["templates"], modes, names) if "templates" in doc else None
    if templates is not None and "mc" in modes and not columns.mc1_choices:  # the task files score an option list
        need = "columns.mc1_choices (e.g. mc1_targets.choices, the correct option first)"
        raise MlbenchError(f"{path}: [templates] with the mc mode reads its options as the task files do: give {need}")
    if templates is not None and columns.mc1_labels:
        raise MlbenchError(
            f"{path}: with [templates] the first MC1 option is the correct one (lm-eval's doc_to_target: 0), "
            "in the order the templates list them: drop columns.mc1_labels"
        )
    if templates is not None and tables["clean"]:  # the authors' code reads the rows as they are
        raise MlbenchError(
            f"{path}: a benchmark with [templates] reads its rows as its authors' code does: drop [clean]"
        )
    if templates is not None and (prompt or fewshot):
        raise MlbenchError(
            f"{path}: a benchmark with [templates] takes its prompts from them: drop [prompt] and [fewshot]"
        )
    question = _template(path, "prompt.question", prompt.get("question", DEFAULT_QUESTION), ("question",))
    shot = _template(path, "prompt.shot", prompt.get("shot", DEFAULT_SHOT), ("question", "answer"))
    if "primer" in fewshot and "examples" in fewshot:
        raise MlbenchError(f"{path}: give either fewshot.primer (a file) or fewshot.examples, not both")
    primer = None if "primer" not in fewshot else _pattern(path, "fewshot.primer", fewshot["primer"], shared=True)
    examples = read_examples(path, fewshot["examples"]) if "examples" in fewshot else ()
    shots = None if "shots" not in fewshot else count(path, "fewshot.shots", fewshot["shots"], 0)
    if shots and primer is None and not examples:
        raise MlbenchError(f"{path}: fewshot.shots is {shots} but there is no fewshot.primer file or examples")
    if examples and shots is not None and shots > len(examples):
        raise MlbenchError(f"{path}: fewshot.shots is {shots} but fewshot.examples has {len(examples)}")
    clean_question, clean_answers = read_clean(path, tables["clean"])
    return BenchmarkSpec(
        path=path,
        sha256=hashlib.sha256(raw).hexdigest(),
        name=name,
        title=text(path, "benchmark.title", bench.get("title", name)),
        data=data,
        source=source,
        languages=tuple(languages),
        modes=tuple(dict.fromkeys(modes)),
        parallel=flag(path, "benchmark.parallel", bench.get("parallel", True)),
        judges=tuple(texts(path, "benchmark.judges", bench.get("judges", ["truth"]))),
        columns=columns,
        ids=read_ids(path, tables["ids"]),
        clean_question=clean_question,
        clean_answers=clean_answers,
        question_template=question,
        shot_template=shot,
        primer=primer,
        examples=examples,
        shots=shots,
        max_new_tokens=count(path, "generation.max_new_tokens", gen.get("max_new_tokens", 64), 1),
        stop=tuple(texts(path, "generation.stop", gen.get("stop", ["\n\n", "Q:"]))),
        no_comment_reference=_no_comment(path, gen.get("no_comment_reference", False)),
        mc_metrics=tuple(dict.fromkeys(mc_metrics)),
        mc2_true=mc2_true,
        rouge=flag(path, "generation.rouge", gen.get("rouge", False)),
        answers_as_listed=flag(path, "benchmark.answers_as_listed", bench.get("answers_as_listed", False)),
        labels=read_labels(path, tables["labels"]),
        align=read_align(path, tables["align"]),
        templates=templates,
        variables=tuple((lang, tuple(values.items())) for lang, values in variables.items()),
        lm_eval=read_lm_eval_names(
            path, tables["lm_eval"], tuple(modes), variables, languages, templates.names if templates else None
        ),
    )


def _pattern(path: Path, key: str, value: Any, *, shared: bool = False) -> str:
    """A data file pattern: relative, with ``{lang}`` once (or, ``shared``, not at all: one
    file for every language), naming a file mlbench reads (.jsonl, .json, .csv, .parquet)."""
    given = text(path, key, value)
    _template(path, key, given, ("lang",))
    check_path_length(given, f"{path}: {key}")
    if given.count("{lang}") != 1 and not (shared and "{lang}" not in given):
        raise MlbenchError(f"{path}: {key} must contain {{lang}} once (e.g. data/{{lang}}.jsonl)")
    if Path(given).is_absolute() or ".." in Path(given).parts:
        raise MlbenchError(f"{path}: {key} must be a path inside the benchmark's folder")
    if not given.endswith(TABULAR_SUFFIXES):
        raise MlbenchError(f"{path}: {key} must name {', '.join(TABULAR_SUFFIXES)} files")
    return given


def _no_comment(path: Path, value: Any) -> bool | str:
    """``generation.no_comment_reference``: true or false, or the reference's own text."""
    if isinstance(value, str):
        return text(path, "generation.no_comment_reference", value)
    return flag(path, "generation.no_comment_reference", value)


def _columns(path: Path, table: dict[str, object]) -> Columns:
    columns = Columns(**{k: text(path, f"columns.{k}", v) for k, v in table.items()})
    if columns.mc2_choices and not columns.mc1_choices:
        raise MlbenchError(f"{path}: columns.mc2_choices needs columns.mc1_choices (MC1's options)")
    if columns.mc2_choices and not columns.mc2_labels:
        raise MlbenchError(f"{path}: columns.mc2_choices needs columns.mc2_labels (which options are true)")
    if columns.mc1_labels and not columns.mc1_choices:
        raise MlbenchError(f"{path}: columns.mc1_labels needs columns.mc1_choices")
    return columns


def _template(path: Path, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    """A ``str.format`` template that uses only ``allowed`` fields (checked now, not at
    the first prompt after the model has loaded)."""
    given = text(path, key, value)
    used = template_fields(path, key, given, allowed)
    if "question" in allowed and "question" not in used:
        raise MlbenchError(f"{path}: {key} must contain {{question}}")
    return given
