"""A declarative benchmark file (``benchmark.toml``) read into a ``BenchmarkSpec``.

The common case of a user benchmark: a parallel multilingual QA or multiple-choice set,
one JSONL or CSV file per language, scored like TruthfulQA-Multi (MC1/MC2, BLEU). A TOML
file is a benchmark when it has a ``[benchmark]`` table; every other table is optional::

    [benchmark]
    name = "my_qa"                    # the --task name and the results folder
    title = "My parallel QA set"
    data = "data/{lang}.jsonl"        # relative to this file; .jsonl or .csv
    languages = ["en", "es"]          # default: every file that matches `data`
    modes = ["mc", "gen"]             # default: both
    parallel = true                   # the same ids in every language (checked)
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
    no_comment_reference = false      # "I have no comment." as a true BLEU reference
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from mlbench.data.jsonlines import read_text
from mlbench.data.questions import Columns
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA_SUFFIXES = (".jsonl", ".csv")
MODES = ("mc", "gen")
DEFAULT_QUESTION = "Q: {question}\nA:"
DEFAULT_SHOT = "Q: {question}\nA: {answer}"
# Used as a folder name under --output and as a --task name: no separators, no spaces.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_LANG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_TABLES = ("benchmark", "columns", "prompt", "fewshot", "generation")


@dataclass(frozen=True)
class BenchmarkSpec:
    path: Path  # the TOML file, resolved
    sha256: str  # of the TOML file's bytes
    name: str
    title: str
    data: str  # a path pattern with {lang}, relative to the TOML's folder (or --data-dir)
    languages: tuple[str, ...] = ()  # empty: discovered from the files matching ``data``
    modes: tuple[str, ...] = MODES
    parallel: bool = True
    judges: tuple[str, ...] = ("truth",)
    columns: Columns = field(default_factory=Columns)
    question_template: str = DEFAULT_QUESTION
    shot_template: str = DEFAULT_SHOT
    primer: str | None = None  # a path pattern with {lang}, like ``data``
    shots: int | None = None  # None: every primer row (0 without a primer)
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ("\n\n", "Q:")
    no_comment_reference: bool = False

    @property
    def folder(self) -> Path:
        return self.path.parent

    def data_path(self, lang: str, root: Path | None = None) -> Path:
        return (root or self.folder) / self.data.format(lang=lang)

    def primer_path(self, lang: str, root: Path | None = None) -> Path | None:
        return None if self.primer is None else (root or self.folder) / self.primer.format(lang=lang)

    def discover_languages(self, root: Path | None = None) -> tuple[str, ...]:
        """The declared languages, else every language with a file matching ``data``."""
        if self.languages:
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
            "question": self.question_template,
            "shot": self.shot_template,
            "max_new_tokens": self.max_new_tokens,
            "stop": list(self.stop),
            "no_comment_reference": self.no_comment_reference,
        }
        digest = hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()[:16]
        return {"declarative": digest}


def is_benchmark_file(path: Path) -> bool:
    """Whether a TOML file declares a benchmark (has a ``[benchmark]`` table); a TOML that
    does not parse counts as one, so that its error is reported rather than skipped."""
    try:
        return "benchmark" in tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError:
        return True


def read_spec(path: Path) -> BenchmarkSpec:
    """The benchmark ``path`` declares; any mistake is one line naming the file and key."""
    path = path.resolve()
    raw = path.read_bytes()
    try:
        doc = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as error:
        raise MlbenchError(f"{path}: invalid TOML ({error})") from None
    if not isinstance(doc.get("benchmark"), dict):
        raise MlbenchError(f"{path}: not a benchmark file (it has no [benchmark] table)")
    _known(path, "", doc, _TABLES)
    tables = {name: doc.get(name, {}) for name in _TABLES}
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise MlbenchError(f"{path}: {name} must be a table ([{name}])")
    bench, prompt, fewshot, gen = (tables[n] for n in ("benchmark", "prompt", "fewshot", "generation"))
    _known(path, "benchmark", bench, ("name", "title", "data", "languages", "modes", "parallel", "judges"))
    _known(path, "columns", tables["columns"], tuple(f.name for f in fields(Columns)))
    _known(path, "prompt", prompt, ("question", "shot"))
    _known(path, "fewshot", fewshot, ("primer", "shots"))
    _known(path, "generation", gen, ("max_new_tokens", "stop", "no_comment_reference"))
    name = _text(path, "benchmark.name", bench.get("name"))
    if not _NAME.fullmatch(name):
        raise MlbenchError(f"{path}: benchmark.name {name!r} must be letters, digits, '_', '.' or '-'")
    data = _pattern(path, "benchmark.data", bench.get("data"))
    languages = _texts(path, "benchmark.languages", bench.get("languages", []))
    bad = [lang for lang in languages if not _LANG.fullmatch(lang)]
    if bad or len(set(languages)) != len(languages):
        raise MlbenchError(f"{path}: benchmark.languages must be distinct language codes (got {languages})")
    modes = _texts(path, "benchmark.modes", bench.get("modes", list(MODES)))
    if not modes or any(mode not in MODES for mode in modes):
        raise MlbenchError(f"{path}: benchmark.modes must be some of {', '.join(MODES)} (got {modes})")
    columns = Columns(**{k: _text(path, f"columns.{k}", v) for k, v in tables["columns"].items()})
    question = _template(path, "prompt.question", prompt.get("question", DEFAULT_QUESTION), ("question",))
    shot = _template(path, "prompt.shot", prompt.get("shot", DEFAULT_SHOT), ("question", "answer"))
    primer = None if "primer" not in fewshot else _pattern(path, "fewshot.primer", fewshot["primer"])
    shots = None if "shots" not in fewshot else _count(path, "fewshot.shots", fewshot["shots"], 0)
    if shots and primer is None:
        raise MlbenchError(f"{path}: fewshot.shots is {shots} but there is no fewshot.primer file")
    return BenchmarkSpec(
        path=path,
        sha256=hashlib.sha256(raw).hexdigest(),
        name=name,
        title=_text(path, "benchmark.title", bench.get("title", name)),
        data=data,
        languages=tuple(languages),
        modes=tuple(dict.fromkeys(modes)),
        parallel=_flag(path, "benchmark.parallel", bench.get("parallel", True)),
        judges=tuple(_texts(path, "benchmark.judges", bench.get("judges", ["truth"]))),
        columns=columns,
        question_template=question,
        shot_template=shot,
        primer=primer,
        shots=shots,
        max_new_tokens=_count(path, "generation.max_new_tokens", gen.get("max_new_tokens", 64), 1),
        stop=tuple(_texts(path, "generation.stop", gen.get("stop", ["\n\n", "Q:"]))),
        no_comment_reference=_flag(path, "generation.no_comment_reference", gen.get("no_comment_reference", False)),
    )


def _known(path: Path, table: str, values: dict[str, object], allowed: tuple[str, ...]) -> None:
    unknown = [key for key in values if key not in allowed]
    if unknown:
        where = f"[{table}]" if table else "the file"
        raise MlbenchError(f"{path}: {where} has no key {unknown[0]!r}; valid: {', '.join(allowed)}")


def _text(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise MlbenchError(f"{path}: {key} must be a non-empty string")
    return value


def _texts(path: Path, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise MlbenchError(f"{path}: {key} must be a list of non-empty strings")
    return value


def _flag(path: Path, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise MlbenchError(f"{path}: {key} must be true or false")
    return value


def _count(path: Path, key: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise MlbenchError(f"{path}: {key} must be a whole number ≥ {least}")
    return value


def _pattern(path: Path, key: str, value: Any) -> str:
    """A data file pattern: relative, with ``{lang}`` once, ending in .jsonl or .csv."""
    text = _text(path, key, value)
    _template(path, key, text, ("lang",))
    if text.count("{lang}") != 1:
        raise MlbenchError(f"{path}: {key} must contain {{lang}} once (e.g. data/{{lang}}.jsonl)")
    if Path(text).is_absolute() or ".." in Path(text).parts:
        raise MlbenchError(f"{path}: {key} must be a path inside the benchmark's folder")
    if not text.endswith(DATA_SUFFIXES):
        raise MlbenchError(f"{path}: {key} must name .jsonl or .csv files")
    return text


def _template(path: Path, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    """A ``str.format`` template that uses only ``allowed`` fields (checked now, not at
    the first prompt after the model has loaded)."""
    text = _text(path, key, value)
    try:
        used = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as error:
        raise MlbenchError(f"{path}: {key}: {error} (write a literal brace as {{{{ or }}}})") from None
    unknown = sorted(name for name in used if name not in allowed)
    if unknown:
        fields_ = ", ".join("{" + name + "}" for name in allowed)
        raise MlbenchError(f"{path}: {key} uses {{{unknown[0]}}}; it may use {fields_}")
    if "question" in allowed and "question" not in used:
        raise MlbenchError(f"{path}: {key} must contain {{question}}")
    return text
