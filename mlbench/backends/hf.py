"""Hugging Face transformers backend: the CPU / compatibility path.

Log-likelihoods share the prefix: every request with the same context is scored with one
forward pass over the context, whose KV cache is then expanded over a batch of the
continuations. Token boundaries follow lm-eval exactly (context encoded alone, the
continuation = the tokens of context+continuation after the context's length), so the
scores equal lm-eval's per-option scoring.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import replace
from typing import Any, Literal

from mlbench.backends.base import (
    ProgressCallback,
    all_filled,
    common_prefix_length,
    context_overflow,
    cut_at_stop,
    drop_partial_character,
)
from mlbench.backends.chat import encode, encode_pair, render_prompt
from mlbench.backends.fingerprint import model_fingerprint
from mlbench.backends.tokenizer import chat_template_hash, check_model_path, first_line, load_tokenizer
from mlbench.errors import MlbenchError
from mlbench.schema import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt

DType = Literal["auto", "float32", "bfloat16", "float16"]


def load_causal_lm(model: str, *, dtype: DType, device: str, trust_remote_code: bool) -> tuple[Any, Any]:
    """Tokenizer and model, or one clear error line (missing path, not a causal LM, ...)."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # our own progress bars are the ones that matter

    check_model_path(model)
    try:
        config = AutoConfig.from_pretrained(model, trust_remote_code=trust_remote_code)
    except Exception as error:  # noqa: BLE001 - hub, JSON and auth errors all end here
        raise MlbenchError(f"could not load model config for {model}: {first_line(error)}") from None
    if config.model_type not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and not trust_remote_code:
        raise MlbenchError(f"{model} is a '{config.model_type}' model, not a causal language model")
    if dtype == "auto":
        # float32 on CPU (bf16 matmuls are slow there and lose the 1e-4 parity);
        # the checkpoint's own dtype on GPUs.
        torch_dtype: Any = torch.float32 if device == "cpu" else "auto"
    else:
        torch_dtype = getattr(torch, dtype)
    tokenizer = load_tokenizer(model, trust_remote_code=trust_remote_code)
    try:
        lm = AutoModelForCausalLM.from_pretrained(model, dtype=torch_dtype, trust_remote_code=trust_remote_code)
    except (OSError, ValueError) as error:
        raise MlbenchError(f"could not load model {model}: {first_line(error)}") from None
    return tokenizer, lm.to(device).eval()


class HFBackend:
    name = "hf"

    def __init__(
        self,
        model: str,
        *,
        dtype: DType = "auto",
        device: str = "auto",
        batch_size: int | Literal["auto"] = "auto",
        trust_remote_code: bool = False,
        prefix_sharing: bool = True,
        seed: int = 0,
    ) -> None:
        import torch

        self.device = ("cuda" if torch.cuda.is_available() else "cpu") if device == "auto" else device
        if self.device == "cuda" and not torch.cuda.is_available():
            raise MlbenchError("--device cuda but torch sees no CUDA GPU; use --device cpu or auto")
        self.tokenizer, self.model = load_causal_lm(
            model, dtype=dtype, device=self.device, trust_remote_code=trust_remote_code
        )
        self.batch_size = batch_size
        self.prefix_sharing = prefix_sharing
        self.seed = seed
        self.max_length = int(getattr(self.model.config, "max_position_embeddings", 0) or 1 << 30)
        self.dtype = str(self.model.dtype).removeprefix("torch.")
        self.fingerprint = model_fingerprint(model, {"backend": "hf", "dtype": self.dtype})

    def describe(self) -> dict[str, object]:
        """Settings recorded in results.json."""
        return {"dtype": self.dtype, "device": self.device, "chat_template_hash": chat_template_hash(self.tokenizer)}

    # -- log-likelihoods ---------------------------------------------------------------

    def _options_per_batch(self, longest: int) -> int:
        if self.batch_size != "auto":
            return int(self.batch_size)
        if self.device != "cuda":
            return 16
        import torch

        free, _ = torch.cuda.mem_get_info()
        # Float32 log-softmax over the vocabulary dominates per-token memory.
        per_token = self.model.config.vocab_size * 4 * 3
        return max(1, min(256, int(free * 0.5 // (per_token * max(longest, 1)))))

    def loglikelihood(
        self, requests: list[LoglikelihoodRequest], progress: ProgressCallback | None = None
    ) -> list[LoglikelihoodResult]:
        import torch

        groups: dict[tuple[int, ...], list[tuple[int, list[int]]]] = defaultdict(list)
        results: list[LoglikelihoodResult | None] = [None] * len(requests)
        for index, request in enumerate(requests):
            context = render_prompt(self.tokenizer, request.prompt)
            context_ids, continuation_ids = encode_pair(self.tokenizer, context, request.continuation)
            if not continuation_ids:
                raise MlbenchError(f"empty continuation to score after {context[-40:]!r}")
            if len(context_ids) + len(continuation_ids) > self.max_length:
                overflow = context_overflow(len(context_ids) + len(continuation_ids), self.max_length)
                results[index] = LoglikelihoodResult(0.0, len(continuation_ids), error=overflow)
                continue
            groups[tuple(context_ids)].append((index, continuation_ids))
        torch.manual_seed(self.seed)
        with torch.inference_mode():
            common = self._common_prefix(list(groups)) if self.prefix_sharing else None
            for context_ids, members in groups.items():
                if self.prefix_sharing:
                    scores = self._score_shared_prefix(list(context_ids), [c for _, c in members], common)
                else:
                    scores = self._score_naive(list(context_ids), [c for _, c in members])
                for (index, continuation), score in zip(members, scores):
                    results[index] = LoglikelihoodResult(score, len(continuation))
                if progress:
                    progress(len(members))
        return all_filled(results)

    def _right_padded(self, rows: list[list[int]]) -> Any:
        """A batch tensor of ``rows``, padded on the right: each real token attends only to
        what comes before it, so the pads after it change nothing."""
        import torch

        pad, width = self.tokenizer.pad_token_id, max(map(len, rows))
        return torch.tensor([row + [pad] * (width - len(row)) for row in rows], device=self.device)

    def _sum_logprobs(self, logits: Any, targets: list[list[int]]) -> list[float]:
        """Sum over each row's first len(target) positions of log p(target token)."""
        import torch

        logprobs = torch.log_softmax(logits.float(), dim=-1)
        sums = []
        for row, target in enumerate(targets):
            ids = torch.tensor(target, device=logprobs.device)
            positions = torch.arange(len(target), device=logprobs.device)
            sums.append(float(logprobs[row, positions, ids].sum()))
        return sums

    def _forward_last(self, ids: list[int], cache: Any = None) -> Any:
        """Forward ``ids`` (after ``cache``), computing logits at the last position only."""
        import torch

        tensor = torch.tensor([ids], device=self.device)
        try:
            return self.model(tensor, past_key_values=cache, use_cache=True, logits_to_keep=1)
        except TypeError:  # models without logits_to_keep compute them all
            return self.model(tensor, past_key_values=cache, use_cache=True)

    def _common_prefix(self, contexts: list[tuple[int, ...]]) -> tuple[int, Any] | None:
        """KV cache of the token prefix every context shares (the few-shot primer), so it
        is computed once per call instead of once per question. Each context keeps at
        least its last token, whose logits predict the options' first tokens."""
        if len(contexts) < 2:
            return None
        length = min(common_prefix_length(contexts), min(len(c) for c in contexts) - 1)
        if length < 1:
            return None
        return length, self._forward_last(list(contexts[0][:length])).past_key_values

    def _score_shared_prefix(
        self, context: list[int], continuations: list[list[int]], common: tuple[int, Any] | None
    ) -> list[float]:
        import torch

        if common is not None:
            shared_length, shared_cache = common
            prefix = self._forward_last(context[shared_length:], copy.deepcopy(shared_cache))
        else:
            prefix = self._forward_last(context)
        # The context's last position predicts every continuation's first token.
        first = torch.log_softmax(prefix.logits[0, -1].float(), dim=-1)
        scores = [float(first[c[0]]) for c in continuations]
        longer = sorted((i for i, c in enumerate(continuations) if len(c) > 1), key=lambda i: -len(continuations[i]))
        batch = self._options_per_batch(len(context) + (len(continuations[longer[0]]) if longer else 0))
        for start in range(0, len(longer), batch):
            chunk = longer[start : start + batch]
            ids = self._right_padded([continuations[i][:-1] for i in chunk])
            cache = copy.deepcopy(prefix.past_key_values)
            cache.batch_repeat_interleave(len(chunk))
            logits = self.model(ids, past_key_values=cache, use_cache=True).logits
            rest = self._sum_logprobs(logits, [continuations[i][1:] for i in chunk])
            for i, value in zip(chunk, rest):
                scores[i] += value
        return scores

    def _score_naive(self, context: list[int], continuations: list[list[int]]) -> list[float]:
        """Context + option in one forward per option (lm-eval's way); the reference the
        shared-prefix path is tested and benchmarked against."""

        order = sorted(range(len(continuations)), key=lambda i: -len(continuations[i]))
        scores = [0.0] * len(continuations)
        batch = self._options_per_batch(len(context) + len(continuations[order[0]]))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            ids = self._right_padded([(context + continuations[i])[:-1] for i in chunk])
            logits = self.model(ids).logits[:, len(context) - 1 :]
            for i, value in zip(chunk, self._sum_logprobs(logits, [continuations[i] for i in chunk])):
                scores[i] = value
        return scores

    # -- generation --------------------------------------------------------------------

    def generate(self, requests: list[GenerationRequest], progress: ProgressCallback | None = None) -> list[Generation]:
        import torch

        results: list[Generation | None] = [None] * len(requests)
        groups: dict[GenerationRequest, list[int]] = defaultdict(list)
        encoded = [encode(self.tokenizer, render_prompt(self.tokenizer, r.prompt)) for r in requests]
        for index, request in enumerate(requests):
            if len(encoded[index]) >= self.max_length:
                overflow = context_overflow(len(encoded[index]) + 1, self.max_length)
                results[index] = Generation("", 0, "error", error=overflow)
                continue
            # Requests that differ only in their prompt share one generate() call.
            groups[replace(request, prompt=Prompt(text=""))].append(index)
        for settings, members in groups.items():
            members.sort(key=lambda i: len(encoded[i]))
            batch = self._options_per_batch(max(len(encoded[i]) for i in members) + settings.max_new_tokens)
            batch = max(1, batch // settings.n)
            for start in range(0, len(members), batch):
                chunk = members[start : start + batch]
                torch.manual_seed(self.seed if settings.seed is None else settings.seed)
                for index, generation in zip(chunk, self._generate_batch([encoded[i] for i in chunk], settings)):
                    results[index] = generation
                if progress:
                    progress(len(chunk))
        return all_filled(results)

    def _generate_batch(self, prompts: list[list[int]], settings: GenerationRequest) -> list[Generation]:
        import torch

        pad = self.tokenizer.pad_token_id
        width = max(map(len, prompts))
        # Left padding so that every row's next token comes right after its prompt.
        ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device=self.device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device=self.device)
        sampling: dict[str, Any] = (
            {"do_sample": True, "temperature": settings.temperature, "top_p": settings.top_p, "top_k": 0}
            if settings.temperature > 0
            else {"do_sample": False}
        )
        # Greedy decoding is deterministic: n greedy texts are one text decoded once, n times.
        per_prompt = settings.n if settings.temperature > 0 else 1
        with torch.inference_mode():
            output = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                max_new_tokens=min(settings.max_new_tokens, self.max_length - width),
                stop_strings=list(settings.stop) or None,
                tokenizer=self.tokenizer,
                pad_token_id=pad,
                num_return_sequences=per_prompt,
                **sampling,
            )
        rows = [self._decode_row(row, settings.stop) for row in output[:, width:].tolist()]
        generations = []
        for start in range(0, len(rows), per_prompt):
            first, *others = rows[start : start + per_prompt]
            texts = tuple(g.text for g in others) if per_prompt > 1 else (first.text,) * (settings.n - 1)
            generations.append(replace(first, alternatives=texts))
        return generations

    def _decode_row(self, row: list[int], stop: tuple[str, ...]) -> Generation:
        """One generated row → text up to EOS or the first stop string."""
        pad, eos = self.tokenizer.pad_token_id, self.tokenizer.eos_token_id
        n_tokens = len(row)
        while n_tokens and row[n_tokens - 1] == pad and pad != eos:
            n_tokens -= 1
        ended = eos in row[:n_tokens]
        if ended:
            n_tokens = row.index(eos)
        text = self.tokenizer.decode(row[:n_tokens], skip_special_tokens=True)
        text, stopped = cut_at_stop(text, stop)
        if stopped or ended:
            return Generation(text=text, n_tokens=n_tokens, finish_reason="stop")
        return Generation(text=drop_partial_character(text), n_tokens=n_tokens, finish_reason="length")
