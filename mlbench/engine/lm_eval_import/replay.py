"""A backend that answers from lm-eval's sample logs instead of a model.

`mlbench import lm-eval` runs the ordinary pipeline with it: mlbench builds each request
from its own copy of the benchmark, and the log answers only a request whose prompt is,
character for character, one that lm-eval sent (chat prompts rendered with the run's
logged chat template), generated with the same stop strings, token budget and greedy
decoding. Anything else is a failed sample with the reason, never a guess: a document
that differs from mlbench's copy, a prompt built another way, another protocol, or two
logs that answer one prompt differently all show up there.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, TypeVar, cast

from mlbench.backends.base import Backend, ProgressCallback, cut_at_stop
from mlbench.engine.lm_eval_import.logs import LoggedGeneration, RunInfo, SamplesLog
from mlbench.errors import MlbenchError
from mlbench.records import (
    ChatMessage,
    Generation,
    GenerationRequest,
    LoglikelihoodRequest,
    LoglikelihoodResult,
    Prompt,
)

NOT_LOGGED = "the lm-eval log has no {what} for this prompt (its document or prompt differs from mlbench's)"
LM_EVAL_MAX_GEN_TOKS = 256  # lm-eval's default, when a log does not say


K = TypeVar("K")
V = TypeVar("V")


class ReplayBackend(Backend):
    name = "lm-eval-log"

    def __init__(self, logs: list[SamplesLog], info: RunInfo) -> None:
        self.info = info
        self.logs = logs
        self.completions: dict[str, tuple[LoggedGeneration, Path]] = {}
        self.loglikelihoods: dict[tuple[str, str], tuple[float, Path]] = {}
        self.conflicts: dict[object, str] = {}  # request key → the two files that disagree
        for log in logs:
            for generation in log.generations:
                self._keep(self.completions, generation.prompt, generation, log.path)
            for option in log.options:
                self._keep(self.loglikelihoods, (option.context, option.continuation), option.loglikelihood, log.path)
        # The model the logs come from, as lm-eval identified it: two imports of one model's
        # logs share it, and no run of mlbench's own backends can.
        identity = f"lm-eval|{info.model}|{info.model_sha or ''}|{info.dtype or ''}"
        self.fingerprint = "lm-eval-" + hashlib.sha256(identity.encode()).hexdigest()[:16]

    def _keep(self, table: dict[K, tuple[V, Path]], key: K, value: V, path: Path) -> None:
        if key in table and table[key][0] != value:
            self.conflicts[key] = f"{table[key][1].name} and {path.name}"
        table.setdefault(key, (value, path))

    def describe(self) -> dict[str, object]:
        """Where the run came from, recorded in results.json (with lm-eval's own values)."""
        return {
            "imported_from": [
                {"samples_file": str(log.path), "lm_eval_task": log.task, **log.info.record} for log in self.logs
            ]
        }

    def render(self, prompt: Prompt) -> tuple[Prompt, str]:
        """The prompt as lm-eval sent it, and its text (the backends' ``render`` contract,
        which ``engine/scoring.py`` reads for what a sample records)."""
        return prompt, self._text(prompt)

    def _text(self, prompt: Prompt) -> str:
        if prompt.text is not None:
            return prompt.text
        if self.info.chat_template is None:
            raise MlbenchError("the lm-eval run applied no chat template; import it without one")
        from transformers.utils.chat_template_utils import render_jinja_template

        messages = [{"role": m.role, "content": m.content} for m in prompt.messages or ()]
        # Any: the logged special tokens reach the template through **kwargs, untyped there.
        template_variables: dict[str, Any] = self.info.special_tokens
        try:
            # cast: transformers annotates a str, but returns the rendered conversations
            # and their generation indices.
            rendered, _ = cast(
                "tuple[list[str], object]",
                render_jinja_template(
                    conversations=[messages],
                    chat_template=self.info.chat_template,
                    add_generation_prompt=True,
                    **template_variables,
                ),
            )
        except Exception as error:  # noqa: BLE001 - a logged template is data: any failure of it is one line
            raise MlbenchError(f"the chat template logged with the lm-eval run cannot be rendered ({error})") from None
        return rendered[0]

    def template_problem(self) -> str | None:
        """Why the logged chat template cannot render a conversation (None: it can, or there
        is none): asked before the run, so that a broken template leaves no run folder."""
        if self.info.chat_template is None:
            return None
        try:
            self._text(Prompt(messages=(ChatMessage("user", "?"),)))
        except MlbenchError as error:
            return str(error)
        return None

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        results = []
        for request in requests:
            key = (self._text(request.prompt), request.continuation)
            if key in self.conflicts:
                results.append(LoglikelihoodResult(0.0, 0, error=f"{self.conflicts[key]} log other values"))
            elif key not in self.loglikelihoods:
                results.append(LoglikelihoodResult(0.0, 0, error=NOT_LOGGED.format(what="log-likelihood")))
            else:
                results.append(LoglikelihoodResult(self.loglikelihoods[key][0], 0))
        if progress:
            progress(len(requests))
        return results

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        results = []
        for request in requests:
            prompt = self._text(request.prompt)
            if prompt in self.conflicts:
                results.append(Generation("", 0, "error", error=f"{self.conflicts[prompt]} log other completions"))
            elif prompt not in self.completions:
                results.append(Generation("", 0, "error", error=NOT_LOGGED.format(what="completion")))
            else:
                logged = self.completions[prompt][0]
                problem = protocol_difference(logged, request)
                if problem:
                    results.append(Generation("", 0, "error", error=problem))
                else:
                    # finish_reason: lm-eval does not log whether a completion hit a stop
                    # string or its token budget.
                    results.append(Generation(cut_at_stop(logged.completion, request.stop)[0], 0, "stop"))
        if progress:
            progress(len(requests))
        return results


def protocol_difference(logged: LoggedGeneration, request: GenerationRequest) -> str | None:
    """How lm-eval's generation settings differ from the request's (None: they do not)."""
    if set(logged.until) != set(request.stop):
        return f"lm-eval stopped at {list(logged.until)!r}, the protocol at {list(request.stop)!r}"
    budget = logged.max_gen_toks if logged.max_gen_toks is not None else LM_EVAL_MAX_GEN_TOKS
    if budget != request.max_new_tokens:
        return f"lm-eval generated up to {budget} tokens, the protocol {request.max_new_tokens}"
    if logged.greedy != (request.temperature == 0):
        return (
            "lm-eval sampled where the protocol decodes greedily" if not logged.greedy else "lm-eval decoded greedily"
        )
    return None
