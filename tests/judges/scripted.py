"""A backend whose answers a test writes: log-probs and texts as functions of the request."""

from __future__ import annotations

from collections.abc import Callable

from mlbench.backends.base import Backend
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt


def prompt_text(prompt: Prompt) -> str:
    return prompt.text if prompt.text is not None else "\n".join(m.content for m in prompt.messages or ())


class ScriptedBackend(Backend):
    name = "scripted"

    def __init__(
        self,
        logprob: Callable[[str, str], float | str] | None = None,
        text: Callable[[str], str | None] | None = None,
        *,
        chat: bool = False,
        fingerprint: str = "scripted-1",
    ) -> None:
        # logprob(prompt text, continuation) -> value, or a string = that request's error.
        # text(prompt text) -> the generation, or None = a failed request.
        self.logprob = logprob or (lambda prompt, continuation: -1.0)
        self.text = text or (lambda prompt: "yes")
        self.chat = chat
        self.fingerprint = fingerprint
        self.loglikelihood_requests: list[LoglikelihoodRequest] = []
        self.generation_requests: list[GenerationRequest] = []
        self.closed = False

    def loglikelihood(self, requests, progress=None):
        self.loglikelihood_requests += requests
        results = []
        for request in requests:
            value = self.logprob(prompt_text(request.prompt), request.continuation)
            failed = isinstance(value, str)
            results.append(LoglikelihoodResult(0.0 if failed else value, 1, error=value if failed else None))
        return results

    def generate(self, requests, progress=None):
        self.generation_requests += requests
        out = []
        for request in requests:
            text = self.text(prompt_text(request.prompt))
            out.append(
                Generation("", 0, "error", error="scripted failure") if text is None else Generation(text, 3, "stop")
            )
        return out

    def describe(self):
        return {"chat_template_hash": "0123" if self.chat else None}

    def close(self):
        self.closed = True
