"""OpenAI-compatible server backend (vLLM's ``vllm serve``, or any server with that API).

Generation goes through ``/chat/completions`` for chat prompts and ``/completions`` for
plain text. Log-likelihoods need ``/completions`` with ``echo`` and ``logprobs`` (vLLM's
server has them; OpenAI's own API does not): the prompt is sent as token ids tokenized on
our side, so the option's tokens are the same as with the in-process backends.

Requests run ``max_concurrency`` at a time. 429s (waiting as Retry-After asks), 5xx
answers, timeouts and connections closed mid-answer are retried with exponential backoff,
a bounded number of times; a request that still fails is returned with its error (the
pipeline records it, never scores it), as is an answer with log-probs for part of an
option only. Errors that no retry can fix (bad key, unknown model) stop the run with one
line, and the requests still queued are not sent. Every message it writes or shows goes
without the API key and the URL's credentials (``backends/redact.py``). Each answered
request carries its ``usage``: the server's token counts, else ours, marked estimated
(``backends/usage_count.py``).
"""

from __future__ import annotations

import math
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from mlbench.backends.base import Backend, ProgressCallback, cut_at_stop, drop_partial_character
from mlbench.backends.chat import encode_requests
from mlbench.backends.fingerprint import model_fingerprint
from mlbench.backends.openai_answers import (
    BadShape,
    NoPromptLogprobs,
    NoText,
    PartialLogprobs,
    completion_choices,
    option_logprob,
)
from mlbench.backends.options import OpenAIOptions
from mlbench.backends.redact import redact_text, redact_url
from mlbench.backends.tokenizer import chat_template_hash, load_tokenizer
from mlbench.backends.usage_count import TokenCounter, reported_usage, request_usage
from mlbench.errors import LogprobsUnsupported, MlbenchError, terminal_line
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult
from mlbench.records.jsontypes import JsonObject

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}
FATAL_STATUS = {401, 403, 404}
MAX_RETRY_AFTER_S = 60.0  # a server asking for longer is retried sooner, not waited on for minutes
TIMED_OUT = "timed out"
ECHO_NEW_TOKENS = 1  # what a log-likelihood request generates: its log-probs follow the prompt's


class RequestFailed(Exception):
    """A request that failed for good; its message is what the samples file records."""


class UnsupportedByServer(Exception):
    """The server refused a request shape it does not implement (e.g. echo + logprobs)."""


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key_env: str | None = None,
        max_concurrency: int = 8,
        tokenizer: str | None = None,
        trust_remote_code: bool = False,
        seed: int = 0,
        max_retries: int = 5,
        backoff_s: float = 1.0,
        timeout_s: float = 120.0,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        import httpx

        self.model = model
        self.base_url = base_url.rstrip("/")  # what requests go to, credentials included
        self.shown_url = redact_url(self.base_url)  # what messages and run files name
        self.max_concurrency = max(1, max_concurrency)
        self.seed = seed
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.timeout_s = timeout_s
        # Each retry is reported as it happens: a hanging server is otherwise silent for
        # timeout × attempts.
        self.warn = warn or _warn
        self.tokenizer_name = tokenizer or model
        self.trust_remote_code = trust_remote_code
        self._tokenizer: Any = None
        # Counts tokens where the server sends no usage, with the tokenizer once one is loaded.
        self.counter = TokenCounter(self.tokenizer_name, trust_remote_code=trust_remote_code, loaded=self._loaded)
        key = _api_key(api_key_env)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._secrets = (key, _url_password(self.base_url))
        limits = httpx.Limits(max_connections=self.max_concurrency)
        self._client = httpx.Client(headers=headers, timeout=timeout_s, limits=limits)
        # A served model is known by its name and server, never by a hub cache entry of that name.
        self.fingerprint = model_fingerprint(model, {"backend": "openai", "base_url": self.base_url}, resolve_hub=False)
        self.stats = {"requests": 0, "retries": 0, "failed": 0}
        # Worker threads count at once: ``+=`` on a dict entry is not atomic.
        self._stats_lock = threading.Lock()
        # Set while a call ends early (bad key, Ctrl-C): requests in flight stop retrying.
        self._stop = threading.Event()

    @property
    def tokenizer(self) -> Any:
        """Only needed for log-likelihoods and chat-rendered MC prompts: loaded on first use."""
        if self._tokenizer is None:
            self._tokenizer = load_tokenizer(self.tokenizer_name, trust_remote_code=self.trust_remote_code)
        return self._tokenizer

    def _loaded(self) -> Any:
        return self._tokenizer

    def describe(self) -> dict[str, object]:
        described: dict[str, object] = {"base_url": self.shown_url, "requests": dict(self.stats)}
        if self._tokenizer is not None:
            described["chat_template_hash"] = chat_template_hash(self._tokenizer)
        return described

    # -- HTTP --------------------------------------------------------------------------

    def _clean(self, message: str) -> str:
        """``message`` as it may be recorded or shown: a server's error text can echo the key."""
        return redact_text(message, self._secrets)

    def _count(self, key: str) -> None:
        with self._stats_lock:
            self.stats[key] += 1

    def _post(self, path: str, body: JsonObject) -> JsonObject:
        """POST with retries; returns the JSON answer or raises RequestFailed."""
        import httpx

        url = f"{self.base_url}/{path}"
        shown = f"{self.shown_url}/{path}"
        for attempt in range(self.max_retries + 1):
            if self._stop.is_set():
                raise RequestFailed("not sent: the call ended early")
            self._count("requests")
            try:
                response = self._client.post(url, json=body)
            except httpx.TimeoutException:
                problem = TIMED_OUT
            except httpx.RemoteProtocolError as error:
                problem = _broken_answer(error)
            except httpx.TransportError as error:
                problem = f"connection failed ({type(error).__name__})"
            except httpx.RequestError as error:
                # A body that cannot be decoded, a redirect loop: this request failed, not the run.
                problem = f"request failed ({type(error).__name__})"
            else:
                if response.status_code == 200:
                    try:
                        answer = response.json()
                    except ValueError:
                        raise RequestFailed(f"{shown} answered 200 with a body that is not JSON") from None
                    if not isinstance(answer, dict):
                        raise RequestFailed(f"{shown} answered 200 with JSON that is not an object")
                    return answer
                problem = self._clean(f"HTTP {response.status_code}: {_error_message(response)}")
                if response.status_code in FATAL_STATUS:
                    raise MlbenchError(f"{shown}: {problem}")
                if response.status_code not in RETRY_STATUS:
                    if response.status_code in (400, 422) and _looks_unsupported(problem):
                        raise UnsupportedByServer(problem)
                    raise RequestFailed(problem)
                retry_after = _retry_after(response)
                if retry_after is not None and attempt < self.max_retries:
                    self._retrying(shown, problem, attempt, retry_after)
                    continue
            if attempt < self.max_retries:
                # Exponential backoff with jitter, so many clients do not retry in step.
                self._retrying(shown, problem, attempt, self.backoff_s * (2**attempt) * (0.5 + random.random()))
        raise RequestFailed(f"{self._described(problem)} (after {self.max_retries + 1} attempts)")

    def _described(self, problem: str) -> str:
        """``problem`` as shown: a timeout names the limit that ran out and how to change it."""
        return f"{TIMED_OUT} after {self.timeout_s:g} s (-M request_timeout)" if problem == TIMED_OUT else problem

    def _retrying(self, url: str, problem: str, attempt: int, wait_s: float) -> None:
        if self._stop.is_set():
            return  # the next attempt is not made: no wait for it
        self._count("retries")
        self.warn(f"{url}: {self._described(problem)}; retry {attempt + 1} of {self.max_retries} in {wait_s:.1f} s")
        time.sleep(wait_s)

    def _map(self, work: Any, items: list[Any], progress: ProgressCallback | None) -> list[Any]:
        """``work(item)`` for every item, ``max_concurrency`` at a time, in item order."""
        results: list[Any] = [None] * len(items)
        pool = ThreadPoolExecutor(self.max_concurrency, thread_name_prefix="mlbench-openai")
        try:
            futures = {pool.submit(work, item): i for i, item in enumerate(items)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if progress:
                    progress(1)
        except BaseException:
            # A bad key, a request shape the server refuses or Ctrl-C ends the call: the
            # requests still queued are dropped and those in flight end after their current
            # attempt. Leaving the pool's block would instead run every queued request first.
            # (One event per backend: a backend is called from one thread at a time.)
            self._stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            self._stop.clear()  # the backend stays usable (an MC run falls back to generating)
            raise
        pool.shutdown()
        return results

    # -- generation --------------------------------------------------------------------

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        return self._map(self._generate_one, requests, progress)

    def _generate_one(self, request: GenerationRequest) -> Generation:
        body: JsonObject = {
            "model": self.model,
            "max_tokens": request.max_new_tokens,
            "temperature": request.temperature,
            "n": request.n,
        }
        if request.temperature > 0:
            body["top_p"] = request.top_p
            body["seed"] = self.seed if request.seed is None else request.seed
        if request.stop:
            body["stop"] = list(request.stop)
        if request.prompt.messages is not None:
            path = "chat/completions"
            body["messages"] = request.prompt.to_json()
        else:
            path = "completions"
            body["prompt"] = request.prompt.text
        try:
            answer = self._post(path, body)
        except (RequestFailed, UnsupportedByServer) as error:
            self._count("failed")
            return Generation("", 0, "error", error=str(error))
        spent = reported_usage(answer)  # what an unusable answer still cost, as far as the server says
        try:
            choices, n_tokens = completion_choices(answer)
        except NoText as error:
            self._count("failed")
            error_text = self._clean(f"the server answered without text: {error}")
            return Generation("", 0, "error", error=error_text, usage=spent)
        except BadShape as error:
            # A proxy or a non-OpenAI server answering 200 with other JSON: this sample
            # records the error (like a failed request); the run goes on.
            self._count("failed")
            error_text = self._clean(f"the server's answer is not a completion: {error}")
            return Generation("", 0, "error", error=error_text, usage=spent)
        if not choices:
            self._count("failed")
            return Generation("", 0, "error", error="the server answered with no choices", usage=spent)
        usage = request_usage(
            answer,
            lambda: self._prompt_tokens(request),
            lambda: sum(self.counter.text(text) for text, _ in choices),
        )
        texts = []
        for text, finish_reason in choices:
            text, stopped = cut_at_stop(text, request.stop)
            cut_by_length = not stopped and finish_reason == "length"
            texts.append((drop_partial_character(text) if cut_by_length else text, cut_by_length))
        first_text, cut_by_length = texts[0]
        reason: Literal["length", "stop"] = "length" if cut_by_length else "stop"
        return Generation(first_text, n_tokens, reason, alternatives=tuple(t for t, _ in texts[1:]), usage=usage)

    def _prompt_tokens(self, request: GenerationRequest) -> int:
        if request.prompt.messages is not None:
            return self.counter.chat(request.prompt.to_json())
        return self.counter.text(request.prompt.text or "")

    # -- log-likelihoods ---------------------------------------------------------------

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        pairs = [(encoded.context, encoded.continuation) for encoded in encode_requests(self.tokenizer, requests)]
        try:
            return self._map(self._loglikelihood_one, pairs, progress)
        except UnsupportedByServer as error:
            raise LogprobsUnsupported(
                f"the server at {self.shown_url} does not return prompt log-probs (/completions with echo and "
                f"logprobs: {error}); the mc mode needs them: run with --mode gen, or serve the model with vLLM"
            ) from None

    def _loglikelihood_one(self, pair: tuple[list[int], list[int]]) -> LoglikelihoodResult:
        context, continuation = pair
        body: JsonObject = {
            "model": self.model,
            "prompt": [*context, *continuation],
            "max_tokens": ECHO_NEW_TOKENS,
            "temperature": 0.0,
            "echo": True,
            "logprobs": 0,
        }
        try:
            answer = self._post("completions", body)
        except RequestFailed as error:
            self._count("failed")
            return LoglikelihoodResult(0.0, len(continuation), error=str(error))
        # The prompt was sent as token ids: without the server's count, ours is its length.
        usage = request_usage(answer, lambda: len(context) + len(continuation), lambda: ECHO_NEW_TOKENS)
        try:
            logprob = option_logprob(answer, len(context), len(continuation), generated=ECHO_NEW_TOKENS)
        except NoPromptLogprobs as error:
            raise UnsupportedByServer(str(error)) from None
        except PartialLogprobs as error:
            # Never a sum over the tokens that came: the option would look likelier than it is.
            self._count("failed")
            return LoglikelihoodResult(0.0, len(continuation), error=self._clean(str(error)), usage=usage)
        return LoglikelihoodResult(logprob, len(continuation), usage=usage)

    def close(self) -> None:
        self._client.close()


def served_backend(model: str, seed: int, options: OpenAIOptions) -> OpenAIBackend:
    """The backend for a served model and its -M options (``backends/options.py``)."""
    taken = options.model_dump(include={"api_key_env", "max_concurrency", "tokenizer", "trust_remote_code"})
    return OpenAIBackend(model, base_url=str(options.base_url), seed=seed, timeout_s=options.request_timeout, **taken)


def _warn(message: str) -> None:
    print(f"mlbench: warning: {terminal_line(message)}", file=sys.stderr, flush=True)  # a server's words


def _api_key(env_name: str | None) -> str | None:
    if env_name is None:
        return os.environ.get("OPENAI_API_KEY")
    if not os.environ.get(env_name):
        raise MlbenchError(f"-M api_key_env {env_name}: that environment variable is not set")
    return os.environ[env_name]


def _error_message(response: Any) -> str:
    try:
        body = response.json()
    except ValueError:
        return " ".join(response.text.split())[:200] or response.reason_phrase
    error = body.get("error", body) if isinstance(body, dict) else body
    message = error.get("message", error) if isinstance(error, dict) else error
    return " ".join(str(message).split())[:200]


def _broken_answer(error: Exception) -> str:
    """What a protocol error from the server means: mostly a connection closed before the
    whole answer came (a server restarting, a proxy cutting it off), which a retry fixes."""
    said = str(error).lower()
    if "closed" in said or "disconnected" in said:
        return "the connection broke off before the whole answer came"
    return f"connection failed ({type(error).__name__})"


def _looks_unsupported(problem: str) -> bool:
    lowered = problem.lower()
    return any(word in lowered for word in ("echo", "logprobs", "not supported", "unsupported"))


def _url_password(url: str) -> str | None:
    try:
        return urlsplit(url).password
    except ValueError:
        return None


def _retry_after(response: Any) -> float | None:
    """The wait a 429/503 asks for (seconds, or an HTTP date), at most MAX_RETRY_AFTER_S;
    None (exponential backoff instead) for a value that is no usable wait: negative, NaN,
    infinite or unreadable."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        seconds = max(seconds, 0.0)  # a date already past: retry now
    if not math.isfinite(seconds) or seconds < 0:
        return None
    return min(seconds, MAX_RETRY_AFTER_S)
