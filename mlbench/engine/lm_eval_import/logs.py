"""lm-eval's output, read: ``samples_<task>_<time>.jsonl`` files and the ``results_<time>.json``
written beside them (lm-eval 0.4.x layouts: arguments as ``{"gen_args_0": {"arg_0": ...}}``
or as a list of argument lists).

Every line becomes a typed record or one problem line naming the file and line; nothing
malformed is guessed at.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from mlbench.data.jsonlines import read_text
from mlbench.errors import MlbenchError
from mlbench.records.json_read import JsonInputError, parse_json
from mlbench.records.jsontypes import JsonObject, JsonValue

SAMPLES_FILE = re.compile(r"^samples_(?P<task>.+?)_(?P<stamp>\d{4}-\d{2}-\d{2}T[0-9.:\-]+)\.jsonl$")
RESULTS_FILE = "results_{stamp}.json"


@dataclass(frozen=True)
class LoggedGeneration:
    """One generate_until request of a document, its settings and the completion lm-eval kept."""

    prompt: str
    completion: str
    until: tuple[str, ...]
    max_gen_toks: int | None  # None: not logged (lm-eval's default, 256)
    greedy: bool  # no sampling asked for


@dataclass(frozen=True)
class LoggedOption:
    """One loglikelihood request (context, continuation) and its log-likelihood."""

    context: str
    continuation: str
    loglikelihood: float


@dataclass(frozen=True)
class RunInfo:
    """What a ``results_*.json`` says about the run that wrote a samples file."""

    model: str
    model_sha: str | None = None
    dtype: str | None = None
    fewshot: int | None = None
    chat_template: str | None = None  # the template text, where the run applied one
    fewshot_as_multiturn: bool = False
    system_instruction: str | None = None
    # bos_token, eos_token, pad_token: as logged, for the chat template to read.
    special_tokens: JsonObject = field(default_factory=dict)
    # What the import records: lm-eval's version or git hash, the task's config and the
    # values lm-eval reported for the task.
    record: JsonObject = field(default_factory=dict)


@dataclass
class SamplesLog:
    """One ``samples_<task>_<date>.jsonl`` file: its run's settings, every readable line's
    requests and document, and one problem line per line that could not be read."""

    path: Path
    task: str  # lm-eval's task name
    info: RunInfo
    results_path: Path | None
    generations: list[LoggedGeneration] = field(default_factory=list)
    options: list[LoggedOption] = field(default_factory=list)
    docs: dict[str, JsonObject] = field(default_factory=dict)  # the documents as lm-eval logged them, by id
    problems: list[str] = field(default_factory=list)  # one line per malformed line

    @property
    def doc_ids(self) -> set[str]:
        return set(self.docs)

    @property
    def settings(self) -> tuple[object, ...]:
        """What one imported run's prompts and numbers depend on: logs of one model that
        differ here are never mixed."""
        info = self.info
        return (
            info.fewshot,
            info.chat_template,
            info.fewshot_as_multiturn,
            info.system_instruction,
            info.model_sha,
            info.dtype,
        )


def find_samples_files(paths: list[Path]) -> list[Path]:
    """Every ``samples_*.jsonl`` named or under a named folder, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("samples_*.jsonl") if SAMPLES_FILE.match(p.name))
        elif path.is_file():
            if not SAMPLES_FILE.match(path.name):
                raise MlbenchError(f"{path}: not an lm-eval samples file (samples_<task>_<date>.jsonl)")
            found.append(path)
        else:
            raise MlbenchError(f"{path}: no such file or folder")
    return list(dict.fromkeys(found))


def task_of(path: Path) -> str:
    match = SAMPLES_FILE.match(path.name)
    assert match is not None
    return match["task"]


# mlbench's id of a logged document (its ``doc``, at ``doc_id`` in the task's data), None
# where the document does not carry it.
SampleIdOf = Callable[[JsonObject, "int | None"], "str | None"]


def document_id(doc: JsonObject, position: int | None) -> str | None:
    """The document's own ``id`` (lm-eval's ``doc_id`` is a position, not the question's id)."""
    return str(doc["id"]) if "id" in doc else None


def read_samples_log(path: Path, sample_id: SampleIdOf = document_id) -> SamplesLog:
    """A samples file with its run's results file (None where there is none beside it);
    ``sample_id`` gives each document's id in mlbench's copy of the benchmark."""
    task = task_of(path)
    results_path = _results_file(path, task)
    info = _run_info(results_path, task, path) if results_path else RunInfo(model=_model_from_folder(path))
    log = SamplesLog(path, task, info, results_path)
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            _read_line(log, parse_json(line, f"{path}:{number}"), sample_id)
        except JsonInputError as error:
            log.problems.append(str(error))
        except KeyError as error:
            log.problems.append(f"{path}:{number}: no {error} field")
        except OverflowError:  # Infinity where a whole number belongs (max_gen_toks)
            log.problems.append(f"{path}:{number}: a number out of range (Infinity?)")
        except (ValueError, TypeError, IndexError) as error:
            log.problems.append(f"{path}:{number}: {error or type(error).__name__}")
    return log


def _read_line(log: SamplesLog, line: JsonValue, sample_id: SampleIdOf) -> None:
    """Add one line's document and requests to ``log``, all of them or, on an error, none."""
    if not isinstance(line, dict):
        raise ValueError("a line must be a JSON object")
    doc = line.get("doc")
    if not isinstance(doc, dict):
        raise ValueError("no 'doc' object")
    position = line.get("doc_id")
    if not isinstance(position, int) or isinstance(position, bool) or position < 0:
        position = None
    doc_id = sample_id(doc, position)
    if doc_id is None:
        raise ValueError("its document has no 'id'" + ("" if position is not None else " and the line no 'doc_id'"))
    arguments = _arguments(line.get("arguments"))
    responses = line.get("filtered_resps", line.get("resps"))
    if not isinstance(responses, list) or len(responses) != len(arguments):
        raise ValueError(
            f"{len(arguments)} requests but {len(responses) if isinstance(responses, list) else 0} responses"
        )
    settings = [second for _, second in arguments if isinstance(second, dict)]
    continuations = [second for _, second in arguments if isinstance(second, str)]
    if len(settings) == len(arguments):  # generate_until: (context, {"until": [...], ...})
        generations = [
            _generation(context, given, response)
            for (context, _), given, response in zip(arguments, settings, responses)
        ]
        options: list[LoggedOption] = []
    elif len(continuations) == len(arguments):  # loglikelihood: (context, continuation)
        generations = []
        loglikelihoods = [_loglikelihood(response) for response in responses]
        contexts = [context for context, _ in arguments if isinstance(context, str)]
        if len(contexts) != len(arguments):
            raise ValueError("a log-likelihood request needs a text context")
        options = [
            LoggedOption(context, continuation, loglikelihood)
            for context, continuation, loglikelihood in zip(contexts, continuations, loglikelihoods)
        ]
    else:
        raise ValueError("requests of an unknown kind (neither generate_until nor loglikelihood)")
    log.docs[doc_id] = doc
    log.generations += generations
    log.options += options


def _generation(context: JsonValue, settings: JsonObject, response: JsonValue) -> LoggedGeneration:
    completion = response[0] if isinstance(response, list) else response
    until = settings.get("until", [])
    if isinstance(until, str):
        until = [until]
    if not isinstance(completion, str) or not isinstance(context, str) or not isinstance(until, list):
        raise ValueError("a generation needs a text prompt, a text completion and an 'until' list")
    stops = [stop for stop in until if isinstance(stop, str)]
    if len(stops) != len(until):
        raise ValueError("'until' must list texts")
    max_gen_toks = settings.get("max_gen_toks")
    if max_gen_toks is not None and (isinstance(max_gen_toks, bool) or not isinstance(max_gen_toks, int | float)):
        raise ValueError("'max_gen_toks' must be a number")
    temperature = settings.get("temperature")
    greedy = not settings.get("do_sample", False) and temperature in (None, 0, 0.0, "0", "0.0")
    return LoggedGeneration(
        context, completion, tuple(stops), int(max_gen_toks) if max_gen_toks is not None else None, greedy
    )


def _loglikelihood(response: JsonValue) -> float:
    """lm-eval logs a response as ``[ll, is_greedy]`` (inside one more list in ``resps``),
    as numbers or, from 0.4.3 on, as their text (its ``sanitize_list``)."""
    value = response[0] if isinstance(response, list) and isinstance(response[0], list) else response
    raw = value[0] if isinstance(value, list) else value
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise ValueError("a log-likelihood response must hold a number")
    try:
        number = float(raw)
    except ValueError:
        raise ValueError(f"a log-likelihood response must hold a number, not {raw!r}") from None
    if not math.isfinite(number) or number > 0:
        raise ValueError(f"{number} is not a log-likelihood")
    return number


def _arguments(raw: JsonValue) -> list[tuple[JsonValue, JsonValue]]:
    """lm-eval ≥ 0.4.3 logs ``{"gen_args_0": {"arg_0": ..., "arg_1": ...}, ...}``; earlier
    versions a list of argument lists."""
    # cast: Python's indexing checks each value's shape; its KeyError, IndexError or
    # TypeError is the line's problem (read_samples_log).
    if isinstance(raw, dict):
        ordered = sorted(raw.items(), key=lambda item: int(re.sub(r"\D", "", item[0]) or 0))
        args = [(cast(JsonObject, value)["arg_0"], cast(JsonObject, value)["arg_1"]) for _, value in ordered]
    elif isinstance(raw, list):
        args = [(cast("list[JsonValue]", value)[0], cast("list[JsonValue]", value)[1]) for value in raw]
    else:
        raise ValueError("no 'arguments'")
    if not args:
        raise ValueError("no requests in 'arguments'")
    return args


def _results_file(samples: Path, task: str) -> Path | None:
    """The ``results_<date>.json`` of the run that wrote ``samples`` (lm-eval gives both
    the run's date). A results file of another date could be another run's settings: none
    is read then, and the import goes by the benchmark's defaults (its prompts must still
    equal the logged ones, sample by sample)."""
    match = SAMPLES_FILE.match(samples.name)
    assert match is not None  # read_samples_log has read the task from this name
    stamp = match["stamp"]
    same_run = samples.parent / RESULTS_FILE.format(stamp=stamp)
    return same_run if same_run.is_file() else None


def _model_from_folder(samples: Path) -> str:
    """lm-eval writes ``<output>/<org>__<name>/``: the folder's name, read back."""
    return samples.parent.name.replace("__", "/", 1)


def _run_info(path: Path, task: str, samples: Path) -> RunInfo:
    try:
        data = parse_json(read_text(path), str(path))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
    except JsonInputError as error:
        raise MlbenchError(f"damaged lm-eval results file: {error}") from None
    except ValueError as error:
        raise MlbenchError(f"{path}: damaged lm-eval results file ({error})") from None
    config = _object(data, "config", path)
    model = data.get("model_name") or _pretrained(config.get("model_args")) or _model_from_folder(samples)
    if not isinstance(model, str):
        raise MlbenchError(f"{path}: damaged lm-eval results file ('model_name' is not a text)")
    fewshot = _object(data, "n-shot", path).get(task)
    tokens: JsonObject = {}
    for name in ("bos", "eos", "pad"):
        logged = data.get(f"tokenizer_{name}_token")
        if isinstance(logged, list) and logged:
            tokens[f"{name}_token"] = logged[0]
    record = {
        "results_file": str(path),
        "lm_eval_version": data.get("lm_eval_version"),
        "lm_eval_git_hash": data.get("git_hash"),
        "model_args": config.get("model_args"),
        "task_config": _object(data, "configs", path).get(task),
        "reported": _object(data, "results", path).get(task),
    }
    return RunInfo(
        model=model,
        model_sha=_text(config, "model_sha", path),
        dtype=_text(config, "model_dtype", path),
        fewshot=int(fewshot) if isinstance(fewshot, int) else None,
        chat_template=_text(data, "chat_template", path),
        fewshot_as_multiturn=bool(data.get("fewshot_as_multiturn")),
        system_instruction=_text(data, "system_instruction", path),
        special_tokens=tokens,
        # lm-eval writes NaN where a metric is undefined; results.json keeps none (JSON has none).
        record={key: _finite(value) for key, value in record.items() if value is not None},
    )


def _finite(value: JsonValue) -> JsonValue:
    """``value`` with every NaN or infinite number as None (nesting is bounded by parse_json)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _object(data: JsonObject, key: str, path: Path) -> JsonObject:
    """``data[key]`` where it is an object, {} where it is missing or null."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise MlbenchError(f"{path}: damaged lm-eval results file ('{key}' is not an object)")
    return value


def _text(data: JsonObject, key: str, path: Path) -> str | None:
    """``data[key]`` where it is a text, None where it is missing, null or empty."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise MlbenchError(f"{path}: damaged lm-eval results file ('{key}' is not a text)")
    return value or None


def _pretrained(model_args: JsonValue) -> JsonValue:
    """The ``pretrained`` of lm-eval's ``model_args`` (an object or ``a=b,c=d`` text), as logged."""
    if isinstance(model_args, dict):
        return model_args.get("pretrained")
    if isinstance(model_args, str):
        for part in model_args.split(","):
            key, _, value = part.partition("=")
            if key.strip() == "pretrained":
                return value.strip()
    return None
