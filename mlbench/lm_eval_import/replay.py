"""A backend that answers from lm-eval's sample logs instead of a model.

`mlbench import lm-eval` runs the ordinary pipeline with it: mlbench builds each request
from its own copy of the benchmark, and the log answers only a request whose prompt is,
character for character, one that lm-eval sent (chat prompts rendered with the run's
logged chat template). Anything else is a failed sample with the reason, never a guess:
a document that differs from mlbench's copy, or a prompt built another way, shows up there.
"""

from __future__ import annotations

import hashlib

from mlbench.backends.base import ProgressCallback, cut_at_stop
from mlbench.errors import MlbenchError
from mlbench.lm_eval_import.logs import RunInfo, SamplesLog
from mlbench.schema import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt

NOT_LOGGED = "the lm-eval log has no {what} for this prompt (its document or prompt differs from mlbench's)"


class ReplayBackend:
    name = "lm-eval-log"

    def __init__(self, logs: list[SamplesLog], info: RunInfo) -> None:
        self.info = info
        self.logs = logs
        self.completions: dict[str, str] = {}
        self.loglikelihoods: dict[tuple[str, str], float] = {}
        for log in logs:
            for generation in log.generations:
                self.completions[generation.prompt] = generation.completion
            for option in log.options:
                self.loglikelihoods[(option.context, option.continuation)] = option.loglikelihood
        # The model the logs come from, as lm-eval identified it: two imports of one model's
        # logs share it, and no run of mlbench's own backends can.
        identity = f"lm-eval|{info.model}|{info.model_sha or ''}|{info.dtype or ''}"
        self.fingerprint = "lm-eval-" + hashlib.sha256(identity.encode()).hexdigest()[:16]

    def describe(self) -> dict[str, object]:
        """Where the run came from, recorded in results.json (with lm-eval's own values)."""
        return {
            "imported_from": [
                {"samples_file": str(log.path), "lm_eval_task": log.task, **log.info.record} for log in self.logs
            ]
        }

    def render(self, prompt: Prompt) -> str:
        if prompt.text is not None:
            return prompt.text
        if self.info.chat_template is None:
            raise MlbenchError("the lm-eval run applied no chat template; import it without one")
        from transformers.utils.chat_template_utils import render_jinja_template

        messages = [{"role": m.role, "content": m.content} for m in prompt.messages or ()]
        rendered, _ = render_jinja_template(
            conversations=[messages],
            chat_template=self.info.chat_template,
            add_generation_prompt=True,
            **self.info.special_tokens,
        )
        return rendered[0]

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        results = []
        for request in requests:
            value = self.loglikelihoods.get((self.render(request.prompt), request.continuation))
            if value is None:
                results.append(LoglikelihoodResult(0.0, 0, error=NOT_LOGGED.format(what="log-likelihood")))
            else:
                results.append(LoglikelihoodResult(value, 0))
        if progress:
            progress(len(requests))
        return results

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        results = []
        for request in requests:
            completion = self.completions.get(self.render(request.prompt))
            if completion is None:
                results.append(Generation("", 0, "error", error=NOT_LOGGED.format(what="completion")))
                continue
            # lm-eval already cut at its stop strings; mlbench's own are applied too, so a
            # log made with fewer stops cannot carry text past one of ours.
            text, _ = cut_at_stop(completion, request.stop)
            results.append(Generation(text, 0, "stop"))
        if progress:
            progress(len(requests))
        return results
