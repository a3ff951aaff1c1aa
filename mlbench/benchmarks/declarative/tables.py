"""The tables and keys of a benchmark file (spec.py), declared once as pydantic models: each
key's type, its default, the value checks that need no other key, and whether a saved
sample depends on it (``Shapes``: what the settings hash is made of). The tables another
module reads (``[source]``, ``[upstream]``, ``[templates]``, ``[vars]``, ``[labels]``,
``[lm_eval]``, ``[align]``) are declared here as tables and checked by their readers.

What pydantic says of a value never reaches the user: every check raises our own words
(``Value.said``), and ``tables_of`` turns the first problem into one line naming the file
and the key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    FailFast,
    Field,
    GetCoreSchemaHandler,
    PlainValidator,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError, core_schema, to_jsonable_python

from mlbench.benchmarks.declarative.clean import CLEAN_STEPS
from mlbench.benchmarks.declarative.fields import known
from mlbench.data.questions import Columns
from mlbench.errors import MlbenchError
from mlbench.records.jsontypes import JsonObject, JsonValue

MODES = ("mc", "gen")
MC_METRICS = ("mc1", "mc2", "mc1_norm")
MC2_TRUE = ("labelled", "before_first_false")
ID_SOURCES = ("column", "row", "hash")
DEFAULT_QUESTION = "Q: {question}\nA:"
DEFAULT_SHOT = "Q: {question}\nA: {answer}"
# Used as a folder name under --output and as a --task name: no separators, no spaces.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_OURS = "mlbench"  # the type of the errors our checks raise; ctx["said"] holds their words
_NOT_A_TABLE = "mlbench_table"


def _bad(said: str) -> PydanticCustomError:
    """A problem with a value, in the words that follow its key (``benchmark.name`` + said)."""
    return PydanticCustomError(_OURS, "{said}", {"said": said})


@dataclass(frozen=True)
class Value:
    """The kind of value a key takes: what it accepts and, when it does not, what it must be.
    A list is kept as a tuple (the spec is frozen)."""

    said: str
    accepts: Callable[[object], bool]

    def check(self, value: object) -> object:
        if not self.accepts(value):
            raise _bad(self.said)
        return tuple(value) if isinstance(value, list) else value

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self.check)


TEXT = Value(" must be a non-empty string", lambda v: isinstance(v, str) and bool(v.strip()))
# A list's items may be blank (a stop sequence of one space), not empty.
TEXTS = Value(
    " must be a list of non-empty strings", lambda v: isinstance(v, list) and all(isinstance(i, str) and i for i in v)
)
FLAG = Value(" must be true or false", lambda v: isinstance(v, bool))


def _whole(least: int) -> Value:
    return Value(
        f" must be a whole number ≥ {least}",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= least,
    )


def _one_of(choices: tuple[str, ...]) -> AfterValidator:
    def check(value: str) -> str:
        if value not in choices:
            raise _bad(f" must be one of {', '.join(choices)} (got {value!r})")
        return value

    return AfterValidator(check)


def _name(value: str) -> str:
    if not _NAME.fullmatch(value):
        raise _bad(f" {value!r} must be letters, digits, '_', '.' or '-'")
    return value


def _metrics(value: tuple[str, ...]) -> tuple[str, ...]:
    """Some of MC_METRICS, each once (in the order first given)."""
    if not value or any(metric not in MC_METRICS for metric in value):
        raise _bad(f" must be some of {', '.join(MC_METRICS)} (got {value})")
    return tuple(dict.fromkeys(value))


def _steps(value: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [step for step in value if step not in CLEAN_STEPS]
    if unknown:
        raise _bad(f": no step {unknown[0]!r}; steps: {', '.join(CLEAN_STEPS)}")
    return value


def _no_comment(value: object) -> object:
    """``generation.no_comment_reference``: true or false, or the reference's own text."""
    return TEXT.check(value) if isinstance(value, str) else FLAG.check(value)


Text = Annotated[str, TEXT]
Texts = Annotated[tuple[str, ...], TEXTS]
Flag = Annotated[bool, FLAG]


@dataclass(frozen=True)
class Shapes:
    """A key (or table) a saved sample depends on: the settings hash holds it under its name,
    a table ``listed`` as the list of its values. ``when_set``: only when it is not its
    default, for keys that came after runs were saved (those runs keep their hash)."""

    listed: bool = False
    when_set: bool = False


class Table(BaseModel):
    """A table of the file: only the keys declared, each checked as declared."""

    # Built when a file is first read, not when the module is imported.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @model_validator(mode="before")
    @classmethod
    def _a_table(cls, value: object) -> object:
        if not isinstance(value, dict):
            raise PydanticCustomError(_NOT_A_TABLE, "not a table")
        return value


def _raw_table(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise PydanticCustomError(_NOT_A_TABLE, "not a table")
    return value


# A table that its own reader checks key by key (fields.py, labels.py, templates.py).
RawTable = Annotated[dict[str, object], PlainValidator(_raw_table)]


def _text_key(default: object) -> Any:  # Any: a field as create_model takes it, a type form mypy cannot name
    """A key whose value is a non-empty string, ``default`` when not given (None: optional)."""
    return (Text if isinstance(default, str) else Text | None, default)


class TableOf:
    """A dataclass of texts (``Columns``) read as a table: its fields are the keys, each a
    non-empty string, with the dataclass's defaults (declared there, once)."""

    def __init__(self, kind: type) -> None:
        self.kind = kind
        declared = {f.name: _text_key(f.default) for f in fields(kind)}
        self.model = create_model(f"{kind.__name__}Table", __base__=Table, **declared)

    def made(self, table: BaseModel) -> object:
        return self.kind(**{name: getattr(table, name) for name in type(table).model_fields})

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.made, handler(self.model))


class BenchmarkTable(Table):
    name: Annotated[str, TEXT, AfterValidator(_name)]
    title: Text | None = None  # None: the name
    data: Text | None = None
    languages: Texts = ()
    modes: Texts = MODES
    parallel: Flag = True
    judges: Texts = ("truth",)
    mc_metrics: Annotated[tuple[str, ...], TEXTS, AfterValidator(_metrics), Shapes(when_set=True)] = ("mc1", "mc2")
    answers_as_listed: Annotated[bool, FLAG, Shapes(when_set=True)] = False
    mc2_true: Annotated[str, TEXT, _one_of(MC2_TRUE), Shapes(when_set=True)] = "labelled"


class IdsTable(Table):
    source: Annotated[str, TEXT, _one_of(ID_SOURCES)] = Field(default="column", alias="from")
    column: Text | None = None


class CleanTable(Table):
    question: Annotated[tuple[str, ...], TEXTS, AfterValidator(_steps)] = ()
    answers: Annotated[tuple[str, ...], TEXTS, AfterValidator(_steps)] = ()


class PromptTable(Table):
    question: Annotated[str, TEXT, Shapes()] = DEFAULT_QUESTION
    shot: Annotated[str, TEXT, Shapes()] = DEFAULT_SHOT


class ExampleTable(Table):
    question: Text
    answer: Text


def _examples(value: object) -> object:
    if not isinstance(value, list) or not value:
        raise _bad(f" must be a list of {{{', '.join(ExampleTable.model_fields)}}} tables")
    return value


class FewshotTable(Table):
    primer: Text | None = None
    split: Text | None = None  # a hub benchmark's pairs: this split of each language's config
    # FailFast: the first bad example is reported, whatever the number of them.
    examples: Annotated[tuple[ExampleTable, ...], FailFast(), BeforeValidator(_examples), Shapes(listed=True)] = ()
    shots: Annotated[int, _whole(0)] | None = None  # None: every primer row (0 without a primer)


class GenerationTable(Table):
    max_new_tokens: Annotated[int, _whole(1), Shapes()] = 64
    stop: Annotated[tuple[str, ...], TEXTS, Shapes()] = ("\n\n", "Q:")
    no_comment_reference: Annotated[bool | str, PlainValidator(_no_comment), Shapes()] = False
    rouge: Annotated[bool, FLAG, Shapes(when_set=True)] = False


class BenchmarkFile(Table):
    """The whole file; the order of its tables is the order its mistakes are found in."""

    benchmark: BenchmarkTable
    source: RawTable | None = None
    columns: Annotated[Columns, TableOf(Columns), Shapes()] = Field(default_factory=Columns)
    ids: Annotated[IdsTable, Shapes()] = Field(default_factory=IdsTable)
    clean: Annotated[CleanTable, Shapes(listed=True)] = Field(default_factory=CleanTable)
    prompt: PromptTable = Field(default_factory=PromptTable)
    fewshot: FewshotTable = Field(default_factory=FewshotTable)
    generation: GenerationTable = Field(default_factory=GenerationTable)
    upstream: RawTable | None = None
    templates: RawTable | None = None
    vars: RawTable = Field(default_factory=dict)
    labels: RawTable = Field(default_factory=dict)
    lm_eval: RawTable = Field(default_factory=dict)
    align: RawTable = Field(default_factory=dict)


def tables_of(path: Path, doc: dict[str, object]) -> BenchmarkFile:
    """The file's tables, checked as declared: an unknown key first (with the nearest known
    one), then each value in the order of the declaration; the first mistake is one line."""
    _check_keys(path, BenchmarkFile, doc, "")
    try:
        return BenchmarkFile.model_validate(doc)
    except ValidationError as error:
        raise MlbenchError(_line(path, error)) from None


def shaping(table: BaseModel) -> JsonObject:
    """What a saved sample depends on in ``table`` and the tables in it: the keys marked
    ``Shapes``, by name, as JSON."""
    found: JsonObject = {}
    for name, info in type(table).model_fields.items():
        value = getattr(table, name)
        mark = next((m for m in info.metadata if isinstance(m, Shapes)), None)
        if mark is None:
            if isinstance(value, BaseModel):
                found.update(shaping(value))
        elif not (mark.when_set and value == info.default):
            dumped = to_jsonable_python(value, by_alias=False)
            found[name] = _listed(dumped) if mark.listed else dumped
    return found


def _listed(dumped: JsonValue) -> JsonValue:
    """A table as the list of its values (a list of tables, each so)."""
    if isinstance(dumped, list):
        return [_listed(item) for item in dumped]
    return list(dumped.values()) if isinstance(dumped, dict) else dumped


def _check_keys(path: Path, model: type[BaseModel], table: dict[str, object], where: str) -> None:
    """Every key of ``table`` and of the tables in it is one ``model`` declares (the values
    are left to the model: a table given as a number is its mistake)."""
    known(path, where, table, tuple(_by_key(model)))
    for key, inner in _tables_in(model):
        given, named = table.get(key), f"{where}.{key}" if where else key
        if isinstance(given, dict):
            _check_keys(path, inner, given, named)
        elif isinstance(given, list):
            for number, item in enumerate(given, start=1):
                if isinstance(item, dict):
                    _check_keys(path, inner, item, f"{named} item {number}")


@cache
def _by_key(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """``model``'s fields by the key the file writes (``ids.from`` for ``source``)."""
    return {info.alias or name: info for name, info in model.model_fields.items()}


@cache
def _tables_in(model: type[BaseModel]) -> tuple[tuple[str, type[BaseModel]], ...]:
    """``model``'s keys that hold tables, with the table each holds."""
    return tuple((key, inner) for key, info in _by_key(model).items() if (inner := _table_in(info)) is not None)


def _table_in(info: FieldInfo) -> type[BaseModel] | None:
    """The table a field holds: a table, a list of them or a dataclass read as one."""
    for mark in info.metadata:
        if isinstance(mark, TableOf):
            return mark.model
    annotation = info.annotation
    if get_origin(annotation) is tuple:
        annotation = get_args(annotation)[0]
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _field_at(loc: tuple[str | int, ...]) -> FieldInfo | None:
    model: type[BaseModel] | None = BenchmarkFile
    info = None
    for part in loc:
        if isinstance(part, int):
            continue
        info = _by_key(model).get(part) if model is not None else None
        if info is None:
            return None
        model = _table_in(info)
    return info


def _line(path: Path, error: ValidationError) -> str:
    """The first problem pydantic found, in our words: ``FILE: KEY must be …``."""
    problem = error.errors(include_url=False, include_input=False)[0]
    loc = tuple(problem["loc"])
    key = "".join(
        (f" item {part + 1}" if n == len(loc) - 1 else f"[{part + 1}]") if isinstance(part, int) else f".{part}"
        for n, part in enumerate(loc)
    ).lstrip(".")
    info = _field_at(loc)
    if problem["type"] == _OURS:
        return f"{path}: {key}{problem.get('ctx', {}).get('said', ' is not valid')}"
    if problem["type"] == _NOT_A_TABLE and loc and isinstance(loc[-1], int):
        inner = _table_in(info) if info is not None else None
        return f"{path}: {key} must be a {{{', '.join(_by_key(inner) if inner else ())}}} table"
    if problem["type"] == _NOT_A_TABLE:
        return f"{path}: {key} must be a table ([{key}])"
    checks = [m for m in info.metadata if isinstance(m, Value)] if info is not None else []
    if problem["type"] == "missing" and checks:
        return f"{path}: {key}{checks[0].said}"
    return f"{path}: {key} is not valid here"  # a kind of problem the declaration does not raise
