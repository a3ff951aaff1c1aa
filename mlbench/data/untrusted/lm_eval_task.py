"""A task of lm-eval's (a task YAML from its repository) read like data: where a benchmark's
authors published their prompt as an lm-eval task (NorEval, AraDiCE), mlbench reads the
prompt from that file, pinned, and renders it as lm-eval does.

What is read: ``include`` (the file it extends, merged under it), ``doc_to_text`` (a
column name, a Jinja template rendered as lm-eval renders it, or ``!function
module.name``, a Python function evaluated by ``python_source`` without running the
file), ``target_delimiter``, ``num_fewshot`` and ``generation_kwargs`` (``until``,
``max_new_tokens``, with lm-eval's defaults where the file has none). The files come from
a reader the caller gives (``read``), so the hash of every file is checked where it is
found (``data.upstream``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from mlbench.data.untrusted.jinja_prompt import render_jinja
from mlbench.data.untrusted.python_source import UpstreamCode
from mlbench.data.untrusted.yaml_document import load_yaml
from mlbench.errors import MlbenchError
from mlbench.records.budgets import MAX_INCLUDES, MAX_NEW_TOKENS, listing, shown
from mlbench.records.jsontypes import JsonObject

DEFAULT_MAX_GEN_TOKS = 256  # lm-eval's, for a task that does not set it
_COLUMN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a doc_to_text that is a column's name


@dataclass(frozen=True)
class FunctionRef:
    """``!function utils.p0_nb``: function ``name`` of the Python file ``module`` (a path)."""

    module: str
    name: str


@dataclass(frozen=True)
class LmEvalTask:
    """What mlbench reads of one lm-eval task file (its includes merged in)."""

    path: str
    doc_to_text: str | FunctionRef
    target_delimiter: str = " "
    num_fewshot: int = 0
    until: tuple[str, ...] = ("\n\n",)
    max_new_tokens: int = DEFAULT_MAX_GEN_TOKS

    def render(self, doc: JsonObject, code: Callable[[str], UpstreamCode]) -> str:
        """The prompt for ``doc``, as lm-eval's ``doc_to_text`` gives it; ``code(path)``
        reads a Python file that a ``!function`` names."""
        if isinstance(self.doc_to_text, FunctionRef):
            upstream = code(self.doc_to_text.module)
            parameters = [a.arg for a in upstream.function(self.doc_to_text.name).args.args]
            if len(parameters) != 1:
                raise MlbenchError(f"{upstream.label}: {self.doc_to_text.name}() must take one document")
            text = upstream.call(self.doc_to_text.name, **{parameters[0]: doc})
        elif self.doc_to_text in doc:  # a column, as lm-eval reads a name of the dataset's features
            text = doc[self.doc_to_text]
        elif _COLUMN.fullmatch(self.doc_to_text):  # lm-eval would read a column mlbench does not give
            raise MlbenchError(
                f"{self.path}: doc_to_text names the column {shown(self.doc_to_text)}; mlbench gives {listing(doc)}"
            )
        else:
            text = render_jinja(self.doc_to_text, doc, self.path)
        if not isinstance(text, str):
            raise MlbenchError(f"{self.path}: doc_to_text gives {type(text).__name__}, not a text")
        return text


def read_lm_eval_task(path: str, read: Callable[[str], str]) -> LmEvalTask:
    """The task file at ``path`` (a path in the repository, posix), its includes followed;
    ``read(path)`` gives a file's text. Mistakes are one line naming the file."""
    # Any: a YAML document's keys, as lm-eval's task files write them.
    merged: dict[str, Any] = {}
    chain: list[str] = []
    current: str | None = path
    while current is not None:
        if current in chain or len(chain) >= MAX_INCLUDES:
            raise MlbenchError(f"{path}: its includes loop or nest more than {MAX_INCLUDES} deep ({' → '.join(chain)})")
        chain.append(current)
        document = _load_yaml(read(current), current)
        function = document.get("doc_to_text")
        if isinstance(function, FunctionRef):  # beside the file that names it, as lm-eval finds it
            document["doc_to_text"] = FunctionRef(_module_path(current, function.module), function.name)
        merged = {**document, **merged}  # the including file's keys win
        include = document.get("include")
        current = None if include is None else _relative(current, include)
    _check_supported(merged, path)
    doc_to_text = merged.get("doc_to_text")
    if not isinstance(doc_to_text, str | FunctionRef):
        raise MlbenchError(f"{path}: doc_to_text must be a text or a !function (got {shown(doc_to_text)})")
    # lm-eval's defaults: a task without `until` stops at its few-shot delimiter (a blank
    # line unless it says otherwise), and generates at most 256 tokens.
    separator = merged.get("fewshot_delimiter", "\n\n")
    generation = merged.get("generation_kwargs") or {}
    if not isinstance(generation, dict):
        raise MlbenchError(f"{path}: generation_kwargs must be a mapping")
    until = generation.get("until", [separator])
    until = [until] if isinstance(until, str) else until
    if not isinstance(until, list) or not all(isinstance(u, str) for u in until):
        raise MlbenchError(f"{path}: generation_kwargs.until must be a text or a list of texts")
    delimiter = merged.get("target_delimiter", " ")
    fewshot = merged.get("num_fewshot") or 0
    max_new = generation.get("max_gen_toks", generation.get("max_new_tokens", DEFAULT_MAX_GEN_TOKS))
    if not isinstance(delimiter, str) or not isinstance(fewshot, int) or isinstance(fewshot, bool):
        raise MlbenchError(f"{path}: target_delimiter or num_fewshot has another type")
    if not isinstance(max_new, int) or isinstance(max_new, bool) or not 1 <= max_new <= MAX_NEW_TOKENS:
        most = f"{MAX_NEW_TOKENS:,}"
        raise MlbenchError(f"{path}: generation_kwargs.max_new_tokens must be a whole number from 1 to {most}")
    return LmEvalTask(path, doc_to_text, delimiter, fewshot, tuple(until), max_new)


def _check_supported(merged: dict[str, Any], path: str) -> None:  # Any: a YAML document's keys
    """Refuse what lm-eval would do with a task file that mlbench would not: text before
    the prompt, a forced start of the answer, few-shot examples of its own, or sampling;
    and generation settings of another type than lm-eval reads (a temperature "0.0")."""
    for key in ("description", "gen_prefix", "fewshot_config"):
        if merged.get(key):
            raise MlbenchError(f"{path}: {key} is set; mlbench reads tasks without it (another prompt than its own)")
    generation = merged.get("generation_kwargs")
    if not isinstance(generation, dict):
        return
    for key, kinds, what in _GENERATION_TYPES:
        value = generation.get(key)
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool) != (bool in kinds)):
            raise MlbenchError(f"{path}: generation_kwargs.{key} must be {what} (got {shown(value)})")
    sampled = generation.get("do_sample") or (generation.get("temperature") or 0) > 0
    if sampled or (generation.get("num_beams") or 1) != 1:
        raise MlbenchError(f"{path}: generation_kwargs sample or search beams; mlbench reads greedy tasks")


# What lm-eval's HF model reads each setting as: (key, the Python types, in words).
_GENERATION_TYPES: tuple[tuple[str, tuple[type, ...], str], ...] = (
    ("do_sample", (bool,), "true or false"),
    ("temperature", (int, float), "a number"),
    ("top_p", (int, float), "a number"),
    ("top_k", (int,), "a whole number"),
    ("num_beams", (int,), "a whole number"),
    ("max_gen_toks", (int,), "a whole number"),
    ("max_new_tokens", (int,), "a whole number"),
)


def _relative(base: str, include: object) -> str:
    if not isinstance(include, str) or posixpath.isabs(include):
        raise MlbenchError(f"{base}: include must be a relative path (got {shown(include)})")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), include))
    if joined.startswith("../") or joined == "..":
        raise MlbenchError(f"{base}: include {shown(include)} leaves the repository")
    return joined


def _module_path(task_path: str, module: str) -> str:
    """``utils`` of ``!function utils.p0_nb``: ``utils.py`` beside the task file."""
    return posixpath.join(posixpath.dirname(task_path), *module.split(".")) + ".py"


# Any: a YAML document, whatever its task file holds.
def _load_yaml(text: str, path: str) -> dict[str, Any]:
    import yaml

    def _function(loader: yaml.SafeLoader, node: yaml.Node) -> FunctionRef:
        # cast: construct_scalar refuses any other node itself (a ConstructorError).
        value = loader.construct_scalar(cast(yaml.ScalarNode, node))
        module, _, name = str(value).rpartition(".")
        if not module or not name:
            raise MlbenchError(f"{path}: !function {shown(value)} is not module.function")
        return FunctionRef(module, name)

    try:
        document = load_yaml(text, path, {"!function": _function})
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise MlbenchError(f"{path}: not a YAML task file ({str(error).splitlines()[0]}{where})") from None
    if not isinstance(document, dict):
        raise MlbenchError(f"{path}: not a YAML task file (no mapping at the top)")
    return document
