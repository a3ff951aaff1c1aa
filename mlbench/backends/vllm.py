"""vLLM backend: the GPU path for generation and multiple-choice scoring.

Log-likelihoods come from prompt log-probs, read only at the option tokens. vLLM skips
the prefix cache for requests that ask for prompt log-probs, so the plain method (lm-eval's)
recomputes a whole 6-shot context for every option. We instead:

1. warm the cache: the contexts' shared primer, then each context, generate one token;
2. send every option with ``skip_reading_prefix_cache=False``, so only the option tokens
   (and the partial last block of the context) are computed;
3. check ``num_cached_tokens`` on every output. The log-prob of token p is computed from
   position p - 1, so with c tokens cached only positions p > c are real; the others hold
   garbage. When the cache reached into an option, it is because another option with the
   same first tokens filled that block: those positions take that option's values (a
   token's log-prob depends only on the tokens before it). What is still missing is scored
   again with the cache skipped. A context of whole blocks would always be cached to its
   end, so it goes straight to the uncached path.

Prompts are rendered and tokenized on our side (``backends/chat.py``), exactly as the HF
backend does, and reach the engine as token ids.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from mlbench.backends.base import (
    Backend,
    ProgressCallback,
    all_filled,
    common_prefix_length,
    context_overflow,
    cut_at_stop,
    drop_partial_character,
)
from mlbench.backends.chat import RendersLocally, encode, encode_requests, render_prompt
from mlbench.backends.fingerprint import model_fingerprint
from mlbench.backends.gguf import gguf_folder, is_gguf
from mlbench.backends.tokenizer import chat_template_hash, check_model_path, first_line, load_tokenizer
from mlbench.errors import MlbenchError
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult

# Contexts warmed and scored together: each window's contexts must stay in the KV cache
# until their options are scored, so a window uses at most this share of the cache.
_WINDOW_SHARE_OF_CACHE = 0.25


@dataclass(frozen=True)
class EngineOptions:
    """Everything that shapes the engine; two equal options share one engine per process."""

    model: str
    dtype: str = "auto"
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float | None = None
    max_model_len: int | None = None
    enforce_eager: bool = False
    quantization: str | None = None
    trust_remote_code: bool = False
    seed: int = 0
    # -M vllm.KEY=VALUE pairs (VALUE as JSON text), passed to vllm.LLM as they are.
    extra: tuple[tuple[str, str], ...] = ()
    tokenizer: str | None = None  # instead of the model's own (-M tokenizer)

    def weights(self) -> str:
        """What vLLM loads: the model, or for a GGUF file its cached converted folder."""
        if not is_gguf(self.model):
            return self.model
        return str(gguf_folder(Path(self.model), "float32" if self.dtype == "auto" else self.dtype))

    def llm_kwargs(self) -> dict[str, Any]:  # Any: keyword arguments of vllm.LLM, typed by vLLM
        kwargs: dict[str, Any] = {  # Any: as above
            "model": self.weights(),
            "dtype": self.dtype,
            "tensor_parallel_size": self.tensor_parallel_size,
            "enforce_eager": self.enforce_eager,
            "trust_remote_code": self.trust_remote_code,
            "seed": self.seed,
            "enable_prefix_caching": True,
        }
        unless_unset = {"gpu_memory_utilization": self.gpu_memory_utilization, "max_model_len": self.max_model_len,
                        "quantization": self.quantization, "tokenizer": self.tokenizer}  # fmt: skip
        kwargs.update({key: value for key, value in unless_unset.items() if value is not None})
        kwargs.update({key: json.loads(value) for key, value in self.extra})
        return kwargs


# One engine per process and options: a run's tasks and languages (and a test session's
# tests) reuse it instead of paying the engine start again.
_ENGINES: dict[EngineOptions, Any] = {}


def get_engine(options: EngineOptions) -> Any:
    if options not in _ENGINES:
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")  # our progress bars are the ones to read
        try:
            from vllm import LLM
        except ImportError as error:
            raise MlbenchError(
                f"--backend vllm needs vLLM: pip install 'mlbench[vllm]' ({first_line(error)})"
            ) from None
        try:
            _ENGINES[options] = LLM(**options.llm_kwargs())
        except (ValueError, TypeError, RuntimeError, OSError) as error:
            raise MlbenchError(f"vLLM could not start {options.model}: {first_line(error)}") from None
    return _ENGINES[options]


def supports_prefix_cache_policy() -> bool:
    """Whether SamplingParams has the per-request cache policy (vLLM >= 0.11)."""
    from vllm import SamplingParams

    return hasattr(SamplingParams(), "skip_reading_prefix_cache")


@dataclass
class _Scoring:
    """One log-likelihood request, tokenized."""

    index: int
    context: list[int]
    continuation: list[int]


class VLLMBackend(RendersLocally, Backend):
    name = "vllm"

    def __init__(self, options: EngineOptions, *, prefix_reuse: bool = True) -> None:
        check_model_path(options.model)
        self.options = options
        self.tokenizer = load_tokenizer(
            options.tokenizer or options.weights(), trust_remote_code=options.trust_remote_code
        )
        self.prefix_reuse = prefix_reuse
        settings = {
            "backend": "vllm",
            "dtype": options.dtype,
            "tensor_parallel_size": options.tensor_parallel_size,
            "quantization": options.quantization,
            "extra": [list(pair) for pair in options.extra],
        }
        self.fingerprint = model_fingerprint(options.model, settings, options.tokenizer)
        # How options were scored: over the cached context, partly from a sibling option
        # with the same first tokens, rescored without the cache, or plainly without it.
        self.stats = {"cached": 0, "copied": 0, "rescored": 0, "uncached": 0}
        # Generation: prompt tokens sent, and how many of them vLLM took from its prefix cache.
        self.generation_stats = {"prompt_tokens": 0, "cached_tokens": 0}
        self._warned_no_policy = False

    @property
    def llm(self) -> Any:
        return get_engine(self.options)

    def max_model_len(self) -> int:
        return int(self.llm.llm_engine.model_config.max_model_len)

    def describe(self) -> dict[str, object]:
        import vllm

        return {
            "dtype": self.options.dtype,
            "tensor_parallel_size": self.options.tensor_parallel_size,
            "vllm_version": vllm.__version__,
            "prefix_reuse": self.prefix_reuse,
            "option_scoring": dict(self.stats),
            "generation_prefix_cache": dict(self.generation_stats),
            "chat_template_hash": chat_template_hash(self.tokenizer),
        }

    # -- log-likelihoods ---------------------------------------------------------------

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        results: list[LoglikelihoodResult | None] = [None] * len(requests)
        limit = self.max_model_len()
        by_context: dict[tuple[int, ...], list[_Scoring]] = defaultdict(list)
        for index, encoded in enumerate(encode_requests(self.tokenizer, requests)):
            context_ids, continuation_ids = encoded.context, encoded.continuation
            if len(context_ids) + len(continuation_ids) > limit:
                error = context_overflow(len(context_ids) + len(continuation_ids), limit)
                results[index] = LoglikelihoodResult(0.0, len(continuation_ids), error=error)
                continue
            by_context[tuple(context_ids)].append(_Scoring(index, context_ids, continuation_ids))

        reuse = self.prefix_reuse and self._has_cache_policy()
        for window in self._windows(list(by_context)) if reuse else [list(by_context)]:
            items = [item for context in window for item in by_context[context]]
            if reuse:
                scores = self._score_reusing_prefix(window, items)
            else:
                scores = self._score_uncached(items)
                self.stats["uncached"] += len(items)
            for item, score in zip(items, scores):
                results[item.index] = LoglikelihoodResult(score, len(item.continuation))
            if progress:
                progress(len(items))
        return all_filled(results)

    def _has_cache_policy(self) -> bool:
        if supports_prefix_cache_policy():
            return True
        if not self._warned_no_policy:
            print(
                "mlbench: this vLLM has no per-request prefix-cache policy (needs >= 0.11); "
                "scoring every option with its full context",
                file=sys.stderr,
            )
            self._warned_no_policy = True
        return False

    def _block_size(self) -> int:
        return int(self.llm.llm_engine.vllm_config.cache_config.block_size)

    def _windows(self, contexts: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
        """Contexts in groups small enough that a group's KV blocks all stay cached."""
        cache = self.llm.llm_engine.vllm_config.cache_config
        capacity = (cache.num_gpu_blocks or 4096) * cache.block_size
        budget = max(1, int(capacity * _WINDOW_SHARE_OF_CACHE))
        windows: list[list[tuple[int, ...]]] = [[]]
        used = 0
        for context in contexts:
            if windows[-1] and used + len(context) > budget:
                windows.append([])
                used = 0
            windows[-1].append(context)
            used += len(context)
        return [w for w in windows if w]

    def _score_reusing_prefix(self, contexts: list[tuple[int, ...]], items: list[_Scoring]) -> list[float]:
        from vllm import SamplingParams

        block = self._block_size()
        self._warm(contexts, block)
        # A context of whole blocks would be served from the cache up to its last token,
        # whose logits give the first option token: those go the uncached way at once.
        reusable = [i for i, item in enumerate(items) if len(item.context) % block]
        params = SamplingParams(max_tokens=1, prompt_logprobs=0, detokenize=False, skip_reading_prefix_cache=False)
        outputs = self._run([items[i].context + items[i].continuation for i in reusable], params)
        # Per option token: its log-prob, or None where the cache hid it. The log-prob of
        # prompt token p is computed at position p - 1, so with c tokens cached only the
        # positions p > c are real.
        per_token: dict[int, list[float | None]] = {}
        known: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        for i, output in zip(reusable, outputs):
            item, cached = items[i], output.num_cached_tokens or 0
            values: list[float | None] = []
            for offset, token in enumerate(item.continuation):
                position = len(item.context) + offset
                values.append(output.prompt_logprobs[position][token].logprob if position > cached else None)
                if values[-1] is not None:
                    known[(tuple(item.context), tuple(item.continuation[: offset + 1]))] = values[-1]
            per_token[i] = values
        scores: list[float | None] = [None] * len(items)
        for i, values in per_token.items():
            item = items[i]
            if None in values:
                # Hidden because another option with the same first tokens filled that cache
                # block: a token's log-prob depends only on the tokens up to it, so that
                # option's value at the same position is this one's.
                values = [
                    known.get((tuple(item.context), tuple(item.continuation[: offset + 1]))) if value is None else value
                    for offset, value in enumerate(values)
                ]
                if None in values:
                    self.stats["rescored"] += 1
                    continue
                self.stats["copied"] += 1
            else:
                self.stats["cached"] += 1
            scores[i] = sum(value for value in values if value is not None)  # every one known here
        again = [i for i, s in enumerate(scores) if s is None]
        self.stats["uncached"] += len(items) - len(reusable)
        for i, score in zip(again, self._score_uncached([items[i] for i in again])):
            scores[i] = score
        return all_filled(scores)

    def _warm(self, contexts: list[tuple[int, ...]], block: int) -> None:
        """Put the contexts in the prefix cache: first the primer they share (so it is
        computed once, not once per context), then each context."""
        from vllm import SamplingParams

        params = SamplingParams(max_tokens=1, detokenize=False)
        shared = common_prefix_length(contexts)
        if len(contexts) > 1 and shared >= block:
            self._run([list(contexts[0][:shared])], params)
        self._run([list(c) for c in contexts], params)

    def _score_uncached(self, items: list[_Scoring]) -> list[float]:
        """Plain prompt log-probs, every option with its whole context (lm-eval's method)."""
        from vllm import SamplingParams

        if not items:
            return []
        # Any: keyword arguments of vllm.SamplingParams, typed by vLLM.
        kwargs: dict[str, Any] = {"max_tokens": 1, "prompt_logprobs": 0, "detokenize": False}
        if supports_prefix_cache_policy():
            kwargs["skip_reading_prefix_cache"] = True
        outputs = self._run([item.context + item.continuation for item in items], SamplingParams(**kwargs))
        return [self._option_logprob(output, item) for output, item in zip(outputs, items)]

    @staticmethod
    def _option_logprob(output: Any, item: _Scoring) -> float:
        start = len(item.context)
        total = 0.0
        for offset, token in enumerate(item.continuation):
            total += output.prompt_logprobs[start + offset][token].logprob
        return total

    def _run(self, prompts: list[list[int]], params: Any) -> list[Any]:
        from vllm.inputs import TokensPrompt

        if not prompts:
            return []
        # vLLM marks TokensPrompt's other keys NotRequired through typing, which a check for
        # Python 3.10 does not know of; the one key given is the one required.
        tokens = [cast(TokensPrompt, {"prompt_token_ids": p}) for p in prompts]
        return self.llm.generate(tokens, params, use_tqdm=False)

    # -- generation --------------------------------------------------------------------

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        from vllm import SamplingParams

        limit = self.max_model_len()
        results: list[Generation | None] = [None] * len(requests)
        prompts, params, indices = [], [], []
        for index, request in enumerate(requests):
            ids = encode(self.tokenizer, render_prompt(self.tokenizer, request.prompt))
            if len(ids) >= limit:
                results[index] = Generation("", 0, "error", error=context_overflow(len(ids) + 1, limit))
                continue
            sampled = request.temperature > 0
            prompts.append(ids)
            indices.append(index)
            params.append(
                SamplingParams(
                    n=request.n if sampled else 1,  # greedy: one text, copied n times below
                    temperature=request.temperature,
                    top_p=request.top_p if sampled else 1.0,
                    max_tokens=min(request.max_new_tokens, limit - len(ids)),
                    stop=list(request.stop) or None,
                    seed=(self.options.seed if request.seed is None else request.seed) if sampled else None,
                )
            )
        if self.prefix_reuse and len(prompts) > 1:
            # Prompts of one engine step do not read each other's blocks: the primer they
            # share is computed first, so every prompt after it starts from the cache.
            shared = common_prefix_length([tuple(p) for p in prompts])
            if shared >= self._block_size():
                self._run([prompts[0][:shared]], SamplingParams(max_tokens=1, detokenize=False))
        outputs = self._run(prompts, params)
        self.generation_stats["prompt_tokens"] += sum(map(len, prompts))
        self.generation_stats["cached_tokens"] += sum(
            getattr(output, "num_cached_tokens", 0) or 0 for output in outputs
        )
        for index, output in zip(indices, outputs):
            completions = [self._completion(self.tokenizer, c, requests[index].stop) for c in output.outputs]
            first = completions[0]
            others = tuple(text for text, _, _ in completions[1:]) or (first[0],) * (requests[index].n - 1)
            results[index] = Generation(first[0], first[1], first[2], alternatives=others)
        if progress:
            progress(len(requests))
        return all_filled(results)

    @staticmethod
    def _completion(tokenizer: Any, completion: Any, stop: tuple[str, ...]) -> tuple[str, int, Any]:
        # Decoded by us, as the HF backend does: vLLM's incremental detokenizer holds back a
        # trailing partial UTF-8 character, which would make the two backends' texts differ.
        decoded = tokenizer.decode(completion.token_ids, skip_special_tokens=True)
        text, stopped = cut_at_stop(decoded, stop)
        reason = "stop" if stopped or completion.finish_reason == "stop" else "length"
        if reason == "length":
            text = drop_partial_character(text)
        ids = list(completion.token_ids)
        n_tokens = len(ids) - (1 if ids and ids[-1] == tokenizer.eos_token_id else 0)  # as HF counts them
        return text, n_tokens, reason


def release_engines() -> None:
    """Drop this process's engines and free their GPU memory, so that another model (a
    judge after the evaluated model) can start an engine in the same process."""
    import gc

    _ENGINES.clear()
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:  # pragma: no cover - vLLM always brings torch
        pass
