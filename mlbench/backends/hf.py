"""Hugging Face transformers backend: the reference scoring, on the CPU or one GPU.

Log-likelihoods: every option of a question packed after its context (``packed_scoring.py``;
on a GPU many questions to a forward, ``packed_batches.py``). Token boundaries follow
lm-eval exactly (context encoded alone, the continuation = the tokens of
context+continuation after the context's length), so the scores equal lm-eval's per-option
scoring. On the CPU a question's score depends on nothing but the question: not on the
other questions of a call, the chunking of a run, or where it resumed; on a GPU its last
bits can depend on the questions that share its batch.

Greedy generation: the primer's KV once per language, the questions batched on top of it,
rows leaving the batch as they finish (``greedy_decode.py``; on a GPU fixed shapes replayed
as CUDA graphs, ``static_decode.py``); the same tokens as ``model.generate`` on each prompt
alone. Sampling, and models whose attention an explicit mask cannot express, go through
``model.generate``.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import replace
from typing import Any, Literal

from mlbench.backends.base import (
    Backend,
    ProgressCallback,
    all_filled,
    context_overflow,
    cut_at_stop,
    drop_partial_character,
)
from mlbench.backends.capture_check import CheckedCapture
from mlbench.backends.causal_lm import DType, load_causal_lm, remember_file_hashes
from mlbench.backends.chat import RendersLocally, encode_prompts, encode_requests
from mlbench.backends.fingerprint import model_fingerprint
from mlbench.backends.gpu_info import gpu_record
from mlbench.backends.greedy_decode import GreedyDecoder, GreedyPrompt, greedy_supported
from mlbench.backends.packed_batches import MAX_TOKENS, BatchBudget, BatchedScorer, batch_budget
from mlbench.backends.packed_scoring import PackedScorer, Question, packing_supported
from mlbench.backends.static_decode import ROW_BUCKETS, StaticDecoder, static_supported
from mlbench.backends.step_graphs import Capture, eager, graph_or_eager
from mlbench.backends.tokenize_ahead import TokenizeAhead
from mlbench.backends.tokenizer import chat_template_hash
from mlbench.errors import MlbenchError
from mlbench.records import Generation, GenerationRequest, LoglikelihoodRequest, LoglikelihoodResult, Prompt

GPU_SAMPLES_PER_CALL = 256


def gpu_memory_available(device: str) -> int:
    """Bytes of GPU memory this process can still use (free, and held by torch's allocator
    but unused); 2 GiB off a GPU."""
    if not device.startswith("cuda"):
        return 2 << 30
    import torch

    where = torch.device(device)
    free, _ = torch.cuda.mem_get_info(where)
    return free + torch.cuda.memory_reserved(where) - torch.cuda.memory_allocated(where)


def batches_whole_calls(device: str) -> bool:
    """Whether the backend takes the GPU's paths (many questions to a forward, fixed-shape
    decoding, whole chunks of 256 samples per call): on every device but the CPU, where one
    question per thread and a shrinking batch are faster. (Tests run the GPU's paths on the
    CPU by replacing this.)"""
    return device != "cpu"


class HFBackend(RendersLocally, Backend):
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
        tokenizer: str | None = None,
        enforce_eager: bool = False,
        rehearse_gpu: bool = False,
    ) -> None:
        import torch

        self.device = ("cuda" if torch.cuda.is_available() else "cpu") if device == "auto" else device
        if self.device == "cuda" and not torch.cuda.is_available():
            raise MlbenchError("-M device=cuda but torch sees no CUDA GPU; use -M device=cpu or auto")
        if rehearse_gpu and self.device != "cpu":
            raise MlbenchError("-M rehearse_gpu=true runs the GPU's paths on the CPU; on a GPU they run anyway")
        # A local model's files are hashed for its fingerprint while its weights load (the
        # hashes are remembered, so only a model's first run pays it: fingerprint.py).
        hashing = threading.Thread(target=remember_file_hashes, args=(model, tokenizer), daemon=True)
        hashing.start()
        self.tokenizer, self.model = load_causal_lm(
            model, dtype=dtype, device=self.device, trust_remote_code=trust_remote_code, tokenizer=tokenizer
        )
        hashing.join()
        self.batch_size = batch_size
        self.prefix_sharing = prefix_sharing
        self.seed = seed
        self.max_length = int(getattr(self.model.config, "max_position_embeddings", 0) or 1 << 30)
        self.dtype = str(self.model.dtype).removeprefix("torch.")
        self.fingerprint = model_fingerprint(model, {"backend": "hf", "dtype": self.dtype}, tokenizer)
        # One forward per question where the model takes a packed sequence; else options
        # are scored one by one (the reference path, also taken with prefix_sharing=False).
        # On a GPU, many questions to a forward (packed_batches.py).
        # ``rehearse_gpu``: the GPU's paths on the CPU, each recorded step checked as a
        # CUDA graph would need it (capture_check.py): what bench_gpu.sh --tiny runs.
        whole_calls = batches_whole_calls(self.device) or rehearse_gpu
        batched = BatchedScorer(self.model, self.device, self._mc_batch) if whole_calls else None
        self.scorer = (
            PackedScorer(self.model, self.device, workers=torch.get_num_threads(), batched=batched)
            if packing_supported(self.model)
            else None
        )
        # Greedy generation: the primer's KV once (the scorer's cache, shared with MC); on
        # the CPU a batch that drops rows as they finish, on a GPU fixed shapes replayed as
        # CUDA graphs (static_decode.py); model.generate for sampling and for models the
        # decoder cannot mask.
        prefix_cache = self.scorer.prefix_cache if prefix_sharing and self.scorer is not None else None
        self.decoder: GreedyDecoder | None = None
        self.capture: Capture = eager
        if greedy_supported(self.model) and whole_calls and static_supported(self.model):
            if enforce_eager or not (rehearse_gpu or self.device.startswith("cuda")):
                self.capture = eager
            else:  # the rehearsal's capture fails where a graph's would fall back to eager
                self.capture = CheckedCapture(strict=True) if rehearse_gpu else graph_or_eager()
            self.decoder = StaticDecoder(
                self.model, self.tokenizer, self.device, prefix_cache, self._rows_per_batch, self.capture
            )
        elif greedy_supported(self.model):
            self.decoder = GreedyDecoder(self.model, self.tokenizer, self.device, prefix_cache, self._rows_per_batch)
        # Samples per backend call (the pipeline's chunks): a GPU batches whole chunks,
        # and the next call's texts are tokenized while this call's batches run (on the
        # CPU the cores are the model's).
        self.samples_per_call = GPU_SAMPLES_PER_CALL if whole_calls else None
        self.ahead = TokenizeAhead(self.tokenizer) if whole_calls else None
        # The GPU memory batches may use, read once: the same batches for the same
        # questions whatever ran before them in this process (2 GiB off a GPU).
        self.memory = gpu_memory_available(self.device)

    def describe(self) -> dict[str, object]:
        """Settings recorded in results.json."""
        return {
            "dtype": self.dtype,
            "device": self.device,
            "chat_template_hash": chat_template_hash(self.tokenizer),
            "mc_scoring": "packed" if self.prefix_sharing and self.scorer is not None else "per option",
            "mc_batches": "questions batched" if self.scorer is not None and self.scorer.batched else "one question",
            "decoding": self.decoding(),
            **({"tokenized_ahead": self.ahead.calls} if self.ahead is not None else {}),
            **gpu_record(self.device),
        }

    def decoding(self) -> dict[str, object]:
        """How greedy answers are decoded: the static decoder's steps as CUDA graphs, as
        the rehearsal's checked capture, or eagerly (and why: a failed recording is named),
        the CPU's shrinking batch, or ``model.generate``."""
        if isinstance(self.decoder, StaticDecoder):
            described = getattr(self.capture, "describe", None)
            return {"decoder": "static", **(described() if described else {"path": "eager"})}
        if self.decoder is not None:
            return {"decoder": "shrinking batch", "path": "eager"}
        return {"decoder": "model.generate", "path": "eager"}

    def _mc_batch(self, prefix_length: int) -> BatchBudget:
        """A GPU's packed MC batch: -M batch_size questions, else what 45% of the memory
        left beside the model holds (packed_batches.batch_budget)."""
        if self.batch_size != "auto":
            return BatchBudget(MAX_TOKENS, int(self.batch_size))
        return batch_budget(self.model, prefix_length, int(self.memory * 0.45))

    def _encoded_ahead(self, requests: list[Any]) -> dict[str, list[int]]:
        return self.ahead.known(requests) if self.ahead is not None else {}

    def prefetch(self, requests: list[LoglikelihoodRequest | GenerationRequest]) -> None:
        """On a GPU a later call's texts are tokenized while this call's batches run (on the
        CPU the cores are the model's)."""
        if self.ahead is not None:
            self.ahead.start(requests)

    def close(self) -> None:
        if self.ahead is not None:
            self.ahead.close()

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
        shared: dict[tuple[int, ...], int] = {}
        results: list[LoglikelihoodResult | None] = [None] * len(requests)
        for index, encoded in enumerate(encode_requests(self.tokenizer, requests, self._encoded_ahead(requests))):
            needed = len(encoded.context) + len(encoded.continuation)
            if needed > self.max_length:
                results[index] = LoglikelihoodResult(
                    0.0, len(encoded.continuation), error=context_overflow(needed, self.max_length)
                )
                continue
            context = tuple(encoded.context)
            groups[context].append((index, encoded.continuation))
            shared[context] = encoded.shared
        items = list(groups.items())
        if isinstance(self.decoder, StaticDecoder):  # MC batches size themselves by the memory free at start
            self.decoder.release()
        if self.prefix_sharing and self.scorer is not None:
            questions = [Question(list(c), shared[c], [cont for _, cont in members]) for c, members in items]
            all_scores = self.scorer.score(questions, progress)
        else:
            all_scores = []
            with torch.inference_mode():
                for context, members in items:
                    all_scores.append(self._score_naive(list(context), [cont for _, cont in members]))
                    if progress:
                        progress(len(members))
        for (_, members), scores in zip(items, all_scores):
            for (index, continuation), value in zip(members, scores):
                results[index] = LoglikelihoodResult(value, len(continuation))
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
        greedy: list[int] = []
        groups: dict[GenerationRequest, list[int]] = defaultdict(list)
        encoded = encode_prompts(self.tokenizer, [r.prompt for r in requests], self._encoded_ahead(requests))
        for index, request in enumerate(requests):
            tokens = encoded[index][0]
            if len(tokens) >= self.max_length:
                overflow = context_overflow(len(tokens) + 1, self.max_length)
                results[index] = Generation("", 0, "error", error=overflow)
            elif request.max_new_tokens < 1:
                results[index] = Generation("", 0, "length", alternatives=("",) * (request.n - 1))
            elif request.temperature == 0 and self.decoder is not None:
                greedy.append(index)
            else:  # requests that differ only in their prompt share one generate() call
                groups[replace(request, prompt=Prompt(text=""))].append(index)
        if greedy and self.decoder is not None:  # greedy holds requests only when there is one
            prompts = [
                GreedyPrompt(
                    encoded[i][0],
                    encoded[i][1],
                    min(requests[i].max_new_tokens, self.max_length - len(encoded[i][0])),
                    requests[i].stop,
                )
                for i in greedy
            ]
            for index, generation in zip(greedy, self.decoder.generate(prompts, progress)):
                # n greedy texts are one text decoded once, n times.
                results[index] = replace(generation, alternatives=(generation.text,) * (requests[index].n - 1))
        for settings, members in groups.items():
            members.sort(key=lambda i: len(encoded[i][0]))
            batch = self._options_per_batch(max(len(encoded[i][0]) for i in members) + settings.max_new_tokens)
            batch = max(1, batch // settings.n)
            for start in range(0, len(members), batch):
                chunk = members[start : start + batch]
                torch.manual_seed(self.seed if settings.seed is None else settings.seed)
                for index, generation in zip(chunk, self._generate_batch([encoded[i][0] for i in chunk], settings)):
                    results[index] = generation
                if progress:
                    progress(len(chunk))
        return all_filled(results)

    def _rows_per_batch(self, longest: int) -> int:
        """Rows of a greedy batch whose rows may each need ``longest`` KV slots: on the CPU
        the whole call (the weights are read once per step for all rows) up to 64 rows and
        2 GiB of keys and values; on a GPU what a quarter of the memory left beside the
        model holds, down to a row bucket (the static decoder's buffers for the smaller
        buckets a batch moves to as rows finish add up to about as much again)."""
        if self.batch_size != "auto":
            return int(self.batch_size)

        config = self.model.config.get_text_config()
        heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
        per_slot = 2 * config.num_hidden_layers * heads * head_dim * self.model.dtype.itemsize
        per_row = per_slot * longest + config.vocab_size * 4 * 2  # KV, float32 logits and argmax
        if not self.device.startswith("cuda"):
            return max(1, min(64, (2 << 30) // per_row))
        rows = max(1, min(GPU_SAMPLES_PER_CALL, int(self.memory * 0.25 // per_row)))
        return max(bucket for bucket in ROW_BUCKETS if bucket <= rows)

    def _generate_batch(self, prompts: list[list[int]], settings: GenerationRequest) -> list[Generation]:
        import torch

        pad = self.tokenizer.pad_token_id
        width = max(map(len, prompts))
        # Left padding so that every row's next token comes right after its prompt.
        ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device=self.device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device=self.device)
        sampling: dict[str, Any] = (  # Any: keyword arguments of transformers' generate()
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
